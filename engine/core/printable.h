// Text from outside (file names, demo specs, failure messages) on its way to a
// terminal: a name holding ESC could recolour or rewrite the screen, and a newline could
// forge a line of output. Human-readable output passes such text through printable();
// JSON output keeps it exact (JSON escapes control characters itself).
#pragma once

#include <string>
#include <string_view>

namespace clusterdesk {

// C0 controls and DEL become visible escapes (\n, \t, \r, \x1b, ...), C1 controls
// (U+0080..U+009F, which some terminals obey too) become \u0080..\u009f. Everything
// else, including backslashes (so JSON text shown to a person is not doubled) and bytes
// that are not UTF-8, is kept as it is.
inline std::string printable(std::string_view text)
{
    static constexpr char hex[] = "0123456789abcdef";
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (c == '\n') out += "\\n";
        else if (c == '\t') out += "\\t";
        else if (c == '\r') out += "\\r";
        else if (c < 0x20 || c == 0x7f) out += std::string("\\x") + hex[c >> 4] + hex[c & 0xf];
        else if (c == 0xc2 && i + 1 < text.size() && static_cast<unsigned char>(text[i + 1]) >= 0x80 &&
                 static_cast<unsigned char>(text[i + 1]) <= 0x9f) {
            const auto c1 = static_cast<unsigned char>(text[++i]);
            out += std::string("\\u00") + hex[c1 >> 4] + hex[c1 & 0xf];
        } else out += static_cast<char>(c);
    }
    return out;
}

}  // namespace clusterdesk
