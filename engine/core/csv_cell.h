// A text cell of a CSV file we write: quoted (RFC 4180) when it holds a separator, a
// quote or a line break, so asset names and event texts never shift a column.
#pragma once

#include <string>

namespace clusterdesk {

inline std::string csvCell(const std::string& text)
{
    if (text.find_first_of(",\"\n\r") == std::string::npos) return text;
    std::string quoted = "\"";
    for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
    return quoted + "\"";
}

}  // namespace clusterdesk
