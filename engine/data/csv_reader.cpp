#include "csv_reader.h"

#include "text_cells.h"

#include "engine/core/error.h"
#include "engine/core/file_bytes.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstring>

namespace clusterdesk::data {
namespace {

bool isContinuation(unsigned char c)
{
    return (c & 0xC0) == 0x80;
}

std::int64_t countChars(const char* begin, const char* end)
{
    std::int64_t n = 0;
    for (const char* p = begin; p < end; ++p) n += !isContinuation(static_cast<unsigned char>(*p));
    return n;
}

// Length of the valid UTF-8 sequence starting at p, or 0 when it is invalid
// (overlong forms, surrogates and code points above U+10FFFF are invalid).
std::size_t utf8Sequence(const unsigned char* p, std::size_t left)
{
    const unsigned char c = p[0];
    if (c < 0x80) return 1;
    std::size_t n = 0;
    unsigned char lo = 0x80, hi = 0xBF;
    if (c >= 0xC2 && c <= 0xDF)
        n = 2;
    else if (c >= 0xE0 && c <= 0xEF) {
        n = 3;
        if (c == 0xE0) lo = 0xA0;
        if (c == 0xED) hi = 0x9F;
    } else if (c >= 0xF0 && c <= 0xF4) {
        n = 4;
        if (c == 0xF0) lo = 0x90;
        if (c == 0xF4) hi = 0x8F;
    } else {
        return 0;
    }
    if (left < n) return 0;
    if (p[1] < lo || p[1] > hi) return 0;
    for (std::size_t i = 2; i < n; ++i)
        if (!isContinuation(p[i])) return 0;
    return n;
}

}  // namespace

CsvReader::CsvReader(std::string path, std::string text, CsvOptions options)
    : m_path(std::move(path)),
      m_text(std::move(text)),
      m_options(options)
{
    m_line = m_options.firstLine;
    if (m_line == 1 && m_text.size() >= 3 && std::memcmp(m_text.data(), "\xEF\xBB\xBF", 3) == 0) m_pos = 3;
    m_lineStart = m_columnPos = m_pos;
    validate();
    m_delimiter = m_options.delimiter != 0 ? m_options.delimiter : sniffDelimiter();
}

CsvReader CsvReader::fromFile(const std::string& path, CsvOptions options)
{
    return CsvReader(path, readFileBytes(path), options);
}

void CsvReader::fail(std::int64_t line, std::int64_t column, const std::string& message) const
{
    throw DataError(m_path, line, column, message);
}

void CsvReader::fail(const CsvField& field, const std::string& message) const
{
    fail(field.line, field.column, message);
}

double CsvReader::fraction() const
{
    return m_text.empty() ? 1.0 : static_cast<double>(m_pos) / static_cast<double>(m_text.size());
}

void CsvReader::validate() const
{
    const auto* bytes = reinterpret_cast<const unsigned char*>(m_text.data());
    const std::size_t size = m_text.size();
    const auto where = [&](std::size_t offset, const std::string& message) {
        const auto* begin = m_text.data();
        const std::int64_t line = m_line + std::count(begin + m_pos, begin + offset, '\n');
        const char* lineStart = begin + offset;
        while (lineStart > begin + m_pos && lineStart[-1] != '\n') --lineStart;
        fail(line, 1 + countChars(lineStart, begin + offset), message);
    };
    for (std::size_t i = m_pos; i < size;) {
        if (bytes[i] >= 0x80) {
            const std::size_t n = utf8Sequence(bytes + i, size - i);
            if (n == 0) {
                char hex[8];
                std::snprintf(hex, sizeof hex, "0x%02X", bytes[i]);
                where(i, std::string("invalid UTF-8 (byte ") + hex + "): the file must be UTF-8 text");
            }
            i += n;
        } else {
            if (bytes[i] == 0) where(i, "NUL byte: this looks like a binary file, not delimited text");
            ++i;
        }
    }
    for (std::size_t start = m_pos; start < size;) {
        const void* nl = std::memchr(m_text.data() + start, '\n', size - start);
        const std::size_t end = nl ? static_cast<const char*>(nl) - m_text.data() : size;
        if (end - start > m_options.maxLineBytes) {
            where(start + m_options.maxLineBytes,
                  "line longer than " + std::to_string(m_options.maxLineBytes) + " bytes (the maximum)");
        }
        start = end + 1;
    }
}

char CsvReader::sniffDelimiter() const
{
    static constexpr std::array<char, 3> candidates = {',', '\t', ';'};
    std::vector<std::array<std::int64_t, 3>> counts;
    std::array<std::int64_t, 3> current{};
    bool inQuotes = false, nonBlank = false;
    for (std::size_t i = m_pos; i < m_text.size() && counts.size() < 20; ++i) {
        const char c = m_text[i];
        if (c == '"') inQuotes = !inQuotes;
        if (inQuotes) continue;
        if (c == '\n') {
            if (nonBlank) counts.push_back(current);
            current = {};
            nonBlank = false;
            continue;
        }
        if (c != ' ' && c != '\r') nonBlank = true;
        for (std::size_t k = 0; k < candidates.size(); ++k) current[k] += c == candidates[k];
    }
    if (nonBlank && counts.size() < 20) counts.push_back(current);
    if (counts.empty()) return ',';
    // Prefer a delimiter that appears the same (non-zero) number of times on every line
    // sampled; among those, the most frequent. Otherwise the most frequent on line one.
    int best = -1;
    for (std::size_t k = 0; k < candidates.size(); ++k) {
        const std::int64_t n = counts.front()[k];
        if (n == 0) continue;
        const bool consistent = std::all_of(counts.begin(), counts.end(), [&](const auto& c) { return c[k] == n; });
        if (consistent && (best < 0 || n > counts.front()[best])) best = static_cast<int>(k);
    }
    if (best < 0) {
        for (std::size_t k = 0; k < candidates.size(); ++k)
            if (counts.front()[k] > 0 && (best < 0 || counts.front()[k] > counts.front()[best]))
                best = static_cast<int>(k);
    }
    return best < 0 ? ',' : candidates[best];
}

std::int64_t CsvReader::columnAt(std::size_t pos)
{
    if (pos < m_columnPos) {
        m_columnPos = m_lineStart;
        m_columnCount = 1;
    }
    m_columnCount += countChars(m_text.data() + m_columnPos, m_text.data() + pos);
    m_columnPos = pos;
    return m_columnCount;
}

bool CsvReader::next(CsvRecord& record)
{
    record.fields.clear();
    record.scratch.clear();
    const char* text = m_text.data();
    const std::size_t size = m_text.size();
    const char delim = m_delimiter;
    const auto isSpace = [delim](char c) { return c == ' ' || (c == '\t' && delim != '\t'); };
    const auto newLine = [this](std::size_t afterNewline) {
        ++m_line;
        m_lineStart = m_columnPos = afterNewline;
        m_columnCount = 1;
    };

    // Skip blank lines (only spaces or a CR).
    while (m_pos < size) {
        std::size_t p = m_pos;
        while (p < size && (isSpace(text[p]) || text[p] == '\r')) ++p;
        if (p < size && text[p] != '\n') break;
        m_pos = p < size ? p + 1 : p;
        if (p < size) newLine(m_pos);
    }
    if (m_pos >= size) return false;

    record.line = m_line;
    while (true) {
        std::size_t p = m_pos;
        while (p < size && isSpace(text[p])) ++p;
        CsvField field;
        field.line = m_line;
        field.column = columnAt(p);
        std::size_t after;  // first byte after the field (delimiter, newline or end)
        std::size_t contentEnd;
        if (p < size && text[p] == '"') {
            field.quoted = true;
            const std::size_t start = p + 1;
            std::size_t q = start;
            bool escaped = false;
            std::size_t close;
            while (true) {
                const void* found = std::memchr(text + q, '"', size - q);
                const std::size_t end = found ? static_cast<const char*>(found) - text : size;
                for (const char* nl = static_cast<const char*>(std::memchr(text + q, '\n', end - q)); nl;
                     nl = static_cast<const char*>(std::memchr(nl + 1, '\n', text + end - nl - 1))) {
                    newLine(static_cast<std::size_t>(nl - text) + 1);
                }
                if (!found) fail(field, "unterminated quoted field: the closing quote is missing");
                if (end + 1 < size && text[end + 1] == '"') {
                    escaped = true;
                    q = end + 2;
                    continue;
                }
                close = end;
                break;
            }
            std::string_view content(text + start, close - start);
            if (escaped) {
                std::string unescaped;
                unescaped.reserve(content.size());
                for (std::size_t i = 0; i < content.size(); ++i) {
                    unescaped.push_back(content[i]);
                    if (content[i] == '"') ++i;  // "" -> "
                }
                record.scratch.push_back(std::move(unescaped));
                content = record.scratch.back();
            }
            field.text = content;
            std::size_t r = close + 1;
            while (r < size && (isSpace(text[r]) || (text[r] == '\r' && (r + 1 == size || text[r + 1] == '\n')))) ++r;
            if (r < size && text[r] != delim && text[r] != '\n')
                fail(m_line, columnAt(r), "unexpected text after the closing quote of a quoted field");
            after = r;
            contentEnd = close + 1;
        } else {
            std::size_t e = p;
            while (e < size && text[e] != delim && text[e] != '\n') ++e;
            after = e;
            while (e > p && (isSpace(text[e - 1]) || text[e - 1] == '\r')) --e;
            field.text = std::string_view(text + p, e - p);
            contentEnd = e;
        }
        record.fields.push_back(field);
        if (after < size && text[after] == delim) {
            m_pos = after + 1;
            continue;
        }
        record.endColumn = columnAt(contentEnd);
        m_pos = after < size ? after + 1 : size;
        if (after < size) newLine(m_pos);
        return true;
    }
}

std::string fieldLabel(std::size_t index, std::string_view headerName)
{
    std::string label = "field " + std::to_string(index + 1);
    if (!headerName.empty()) label += " (" + excerpt(headerName) + ")";
    return label;
}

}  // namespace clusterdesk::data
