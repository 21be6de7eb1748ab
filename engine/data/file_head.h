// The start of a file, as the sources see it when deciding whether it is theirs.
#pragma once

#include "csv_reader.h"

#include <optional>
#include <string>

namespace clusterdesk::data {

class FileHead {
public:
    // Reads the first MiB (and a bit) of path. Throws DataError (line 0) for a missing
    // or unreadable file, or one that is not a regular file.
    explicit FileHead(std::string path);
    // The parsed records point into this object's reader.
    FileHead(const FileHead&) = delete;
    FileHead& operator=(const FileHead&) = delete;

    const std::string& path() const { return m_path; }
    // The first bytes (up to about 1 MiB; shorter for a shorter file).
    const std::string& bytes() const { return m_bytes; }
    // The file name's extension, lower case, without the dot ("" when none).
    std::string extension() const;

    // The first two records as CSV, for text sources. Parsed on first use; throws
    // DataError for an empty file, only blank lines, or text that is not valid UTF-8.
    const CsvRecord& firstRecord() const;
    // The second record, or nullptr when the file has only one.
    const CsvRecord* secondRecord() const;

private:
    void parse() const;

    std::string m_path;
    std::string m_bytes;
    mutable std::optional<CsvReader> m_reader;  // owns the text the records point into
    mutable CsvRecord m_first, m_second;
    mutable bool m_hasSecond = false;
};

}  // namespace clusterdesk::data
