// A fast, strict CSV/TSV tokeniser over a whole file held in memory.
//
// - delimiter sniffed among ',', '\t' and ';' (or given);
// - RFC 4180 quoting ("a ""b""", delimiters and newlines inside quotes), CRLF or LF;
// - every field carries the 1-based line and character (code point) column where its
//   value starts, so errors point at the cell;
// - the text is validated up front: UTF-8 only (a BOM is skipped), no NUL bytes, no
//   physical line longer than maxLineBytes;
// - blank lines are skipped; unquoted fields are trimmed of spaces.
//
// Errors are DataError("FILE:LINE:COLUMN: message").
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <vector>

namespace clusterdesk::data {

struct CsvOptions {
    char delimiter = 0;                   // 0: sniff among ',', '\t', ';' from the first lines
    std::size_t maxLineBytes = 1u << 20;  // longest physical line accepted (1 MiB)
    // Line number of the text's first line: a reader over one line cut from a bigger
    // file names the file's line. A byte order mark is skipped only at line 1.
    std::int64_t firstLine = 1;
};

struct CsvField {
    std::string_view text;    // the value: unquoted, "" unescaped, unquoted fields trimmed
    std::int64_t line = 0;    // 1-based line where the value starts
    std::int64_t column = 0;  // 1-based character column where the value starts (the quote if quoted)
    bool quoted = false;      // written in quotes (then never a number by accident of trimming)
};

// One record. Views point into the reader's text or into scratch, so a record stays
// valid when moved (not copied) and while its reader lives.
struct CsvRecord {
    std::int64_t line = 0;       // 1-based line the record starts on
    std::int64_t endColumn = 0;  // character column just past its last field (for "too few fields")
    std::vector<CsvField> fields;
    std::deque<std::string> scratch;  // unescaped copies of quoted fields that contained ""

    std::size_t size() const { return fields.size(); }
    const CsvField& operator[](std::size_t i) const { return fields[i]; }
};

// How a message names a field the way a user counts them: "field 6 (UTIL004)", 1-based,
// with its header name when there is one ("field 6" otherwise). The character column
// stays in the FILE:LINE:COLUMN prefix for editors.
std::string fieldLabel(std::size_t index, std::string_view headerName = {});

class CsvReader {
public:
    // Validates the whole text (throws DataError) and sniffs the delimiter.
    CsvReader(std::string path, std::string text, CsvOptions options = {});
    // Reads the whole file first (DataError when it cannot).
    static CsvReader fromFile(const std::string& path, CsvOptions options = {});

    // Next non-blank record; false at the end of the text.
    bool next(CsvRecord& record);

    char delimiter() const { return m_delimiter; }
    const std::string& path() const { return m_path; }
    // Fraction of the text consumed so far, in [0, 1].
    double fraction() const;
    // Line the reader is on (1-based): after the last record, one past the last line.
    std::int64_t line() const { return m_line; }
    std::size_t sizeBytes() const { return m_text.size(); }
    // Byte offset in the text where the next record's line starts (after next() returned).
    std::size_t position() const { return m_pos; }

    [[noreturn]] void fail(std::int64_t line, std::int64_t column, const std::string& message) const;
    [[noreturn]] void fail(const CsvField& field, const std::string& message) const;

private:
    void validate() const;
    char sniffDelimiter() const;
    std::int64_t columnAt(std::size_t pos);

    std::string m_path;
    std::string m_text;
    CsvOptions m_options;
    char m_delimiter = ',';
    std::size_t m_pos = 0;           // next byte to read
    std::int64_t m_line = 1;         // line of m_pos
    std::size_t m_lineStart = 0;     // byte offset where the current line starts
    std::size_t m_columnPos = 0;     // checkpoint for incremental column counting ...
    std::int64_t m_columnCount = 1;  // ... and the character column at that byte
};

}  // namespace clusterdesk::data
