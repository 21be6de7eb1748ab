#include "error.h"

namespace clusterdesk {
namespace {

std::string locate(const std::string& file, std::int64_t line, std::int64_t column, const std::string& message)
{
    std::string where = file;
    if (line > 0) {
        where.append(":").append(std::to_string(line));
        if (column > 0) where.append(":").append(std::to_string(column));
    }
    return where.append(": ").append(message);
}

}  // namespace

DataError::DataError(std::string file, std::int64_t line, std::int64_t column, const std::string& message)
    : Error(locate(file, line, column, message)),
      m_file(std::move(file)),
      m_line(line),
      m_column(column),
      m_message(message)
{
}

}  // namespace clusterdesk
