// The block reader's scan of one line (see csv_matrix.h): numbers parsed where they
// stand, without cutting the line into cells first.
#include "csv_matrix.h"

#include "decimal_prefix.h"
#include "text_cells.h"

#include <cmath>
#include <cstring>

namespace clusterdesk::data {
namespace {

struct PlainRow {
    char delimiter;
    const MatrixColumns& columns;
    Dataset& out;
    std::size_t valuesBefore = out.values.size();

    bool isSpace(char c) const { return c == ' ' || (c == '\t' && delimiter != '\t'); }

    // The cell [a, b) without the spaces around it (and a line's '\r'): the serial reader's trim.
    std::string_view trimmed(const char* a, const char* b) const
    {
        while (a < b && isSpace(*a)) ++a;
        while (b > a && (isSpace(b[-1]) || b[-1] == '\r')) --b;
        return {a, static_cast<std::size_t>(b - a)};
    }

    // Drops what the line appended before it turned out not to be plain.
    bool undo() const
    {
        const auto rowsBefore = static_cast<std::size_t>(out.rows);
        out.values.resize(valuesBefore);
        if (columns.idColumn) out.rowNames.resize(rowsBefore);
        if (columns.truthColumn) out.truth.resize(rowsBefore);
        return false;
    }

    bool append(const char* begin, const char* end)
    {
        const char* p = begin;
        while (p < end && (isSpace(*p) || *p == '\r')) ++p;
        if (p == end) return true;
        p = begin;
        for (std::size_t c = 0; c < columns.width; ++c) {
            const bool lastField = c + 1 == columns.width;
            if ((c == 0 && columns.idColumn) || (columns.truthColumn && c == *columns.truthColumn)) {
                const auto* delim = static_cast<const char*>(std::memchr(p, delimiter, static_cast<std::size_t>(end - p)));
                // Too few fields (no delimiter before the last) or too many (one after it).
                if (lastField == (delim != nullptr)) return undo();
                const std::string_view text = trimmed(p, delim ? delim : end);
                if (c == 0 && columns.idColumn) {
                    out.rowNames.emplace_back(text);
                } else {
                    const auto label = parseInt32(text);
                    if (!label || *label < 0) return undo();
                    out.truth.push_back(*label);
                }
                p = delim ? delim + 1 : end;
                continue;
            }
            while (p < end && isSpace(*p)) ++p;
            // parseDouble's leading '+'; a number from_chars reports out of range is its
            // to settle, through the serial reader.
            if (p < end && *p == '+') {
                ++p;
                if (p < end && (*p == '-' || *p == '+')) return undo();
            }
            double value = 0.0;
            const auto [numberEnd, ec] = decimalPrefix(p, end, value);
            if (ec != std::errc() || !(std::fabs(value) <= columns.limit)) return undo();
            p = numberEnd;
            while (p < end && (isSpace(*p) || *p == '\r')) ++p;
            if (lastField ? p != end : (p == end || *p != delimiter)) return undo();
            out.values.push_back(static_cast<float>(value));
            if (!lastField) ++p;
        }
        ++out.rows;
        return true;
    }
};

// A number read on to the line's end stops where its cell would have only if the
// delimiter cannot be part of one, nor a space (the cells' trim removes spaces): the
// delimiters the reader sniffs.
bool delimiterEndsNumbers(char delimiter)
{
    return delimiter == ',' || delimiter == ';' || delimiter == '\t';
}

}  // namespace

bool appendPlainRow(std::string_view line, char delimiter, const MatrixColumns& columns, Dataset& out)
{
    if (!delimiterEndsNumbers(delimiter)) return false;
    return PlainRow{delimiter, columns, out}.append(line.data(), line.data() + line.size());
}

}  // namespace clusterdesk::data
