// The csv source: delimited text holding a plain matrix, one point per line.
//
// Header: the first row is a header when a cell other than the first is text, or when
// only its first cell is text and the next row starts with a number. Id column: the
// first column is row names when its data cells are text, or its header is empty or
// one of id/name/symbol/asset/ticker. A first data cell that marks a missing value
// (empty, NA, N/A, null, ...) above a number makes no names (nor a header): it is a
// feature with a gap, refused at its line and column like a gap on any later row. A
// header column named label or truth (any case) holds integer ground truth. Every
// other cell must be a finite float32.
#include "csv_matrix.h"
#include "data_source.h"
#include "engine/core/file_bytes.h"
#include "progress.h"
#include "row_names.h"
#include "text_cells.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string_view>

namespace clusterdesk::data {
namespace {

bool isNumber(const CsvField& field)
{
    return !field.text.empty() && parseDouble(field.text).has_value();
}

// How spreadsheets and pandas write a missing value.
bool marksMissingValue(std::string_view text)
{
    const std::string t = lowerTrimmed(text);
    return t.empty() || t == "na" || t == "n/a" || t == "#n/a" || t == "null" || t == "none" || t == "nil" || t == "-" ||
           t == "?" || t == "." || t == "--";
}

bool isIdHeader(std::string_view name)
{
    const std::string n = lowerTrimmed(name);
    return n.empty() || n == "id" || n == "name" || n == "symbol" || n == "asset" || n == "ticker";
}

// Parses one feature cell, or fails at it with the reason. `limit` is
// maxFeatureMagnitude(cols): a larger value would overflow the squared distances of
// the run, so it is refused here, where its line and column are known.
// index and headerName name the field in a message (built on failure only: this runs
// for every cell).
float featureValue(const CsvReader& reader, const CsvField& field, std::size_t index, std::string_view headerName, double limit,
                   std::int64_t cols)
{
    const auto fail = [&](const std::string& what) { reader.fail(field, fieldLabel(index, headerName) + ": " + what); };
    if (field.text.empty()) fail("empty cell: a matrix cannot have missing values");
    const auto value = parseDouble(field.text);
    if (!value) fail("not a number: '" + excerpt(field.text) + "'");
    if (!std::isfinite(*value)) fail("not a finite number: '" + excerpt(field.text) + "'");
    if (std::fabs(*value) > limit) fail("'" + excerpt(field.text) + "' is too large: " + tooLargeForDistances(cols));
    return static_cast<float>(*value);
}

void checkWidth(const CsvReader& reader, const CsvRecord& record, std::size_t expected, bool header)
{
    if (record.size() == expected) return;
    const std::string message = "expected " + std::to_string(expected) + " fields (as in the " +
                                (header ? "header" : "first row") + "), found " + std::to_string(record.size());
    if (record.size() > expected) reader.fail(record[expected], message);
    reader.fail(record.line, record.endColumn, message);
}

// Whether a first cell is a gap in a numeric column, not a name: it marks a missing value
// and the next row's first cell is a number. An empty one can also be pandas' header
// over its index, so the header rule asks for a spelled marker (gapSpelled).
bool gapAbove(const CsvField& cell, const CsvRecord* next, bool gapSpelled = false)
{
    return marksMissingValue(cell.text) && (!gapSpelled || !lowerTrimmed(cell.text).empty()) && next && next->size() > 0 &&
           isNumber((*next)[0]);
}

// The columns, from the first three records (those there are).
MatrixColumns detectColumns(const CsvReader& reader, const CsvRecord& first, const CsvRecord* second, const CsvRecord* third)
{
    MatrixColumns columns;
    columns.width = first.size();
    bool header = false;
    for (std::size_t c = 1; c < columns.width; ++c) header = header || (!first[c].text.empty() && !isNumber(first[c]));
    if (!header && !isNumber(first[0])) {
        // Only the first cell is text: a header over numeric columns if the next row starts
        // with a number, otherwise a data row whose first cell is its name.
        header = columns.width == 1 || (second && second->size() > 0 && isNumber((*second)[0]) && !gapAbove(first[0], second, true));
    }
    if (header && !second) reader.fail(reader.line(), 1, "no data rows after the header");
    if (header) {
        for (const CsvField& field : first.fields) columns.headerNames.emplace_back(field.text);
    }

    const CsvRecord& firstData = header ? *second : first;
    checkWidth(reader, firstData, columns.width, header);
    columns.idColumn = columns.width > 1 && ((header && isIdHeader(first[0].text)) ||
                                             (!isNumber(firstData[0]) && !gapAbove(firstData[0], header ? third : second)));

    if (header) {
        for (std::size_t c = columns.idColumn ? 1 : 0; c < columns.width; ++c) {
            const std::string name = lowerTrimmed(first[c].text);
            if (name != "label" && name != "truth") continue;
            if (columns.truthColumn) reader.fail(first[c], fieldLabel(c, first[c].text) + ": a second ground-truth column (also " + fieldLabel(*columns.truthColumn, first[*columns.truthColumn].text) + ")");
            columns.truthColumn = c;
        }
    }
    for (std::size_t c = columns.idColumn ? 1 : 0; c < columns.width; ++c)
        if (c != columns.truthColumn) columns.features.push_back(c);
    if (columns.features.empty()) reader.fail(first.line, first.endColumn, "no feature columns (only names or labels)");
    columns.limit = maxFeatureMagnitude(static_cast<std::int64_t>(columns.features.size()));
    return columns;
}

// Files up to this size are read whole and serially; above it, the first records come
// from this prefix and the rest is read in parallel blocks.
constexpr std::size_t kHeadBytes = std::size_t(4) << 20;

// The text of the file's head: its prefix up to the last whole line, when the file is
// bigger than kHeadBytes and that prefix holds no quote (nothing can span its end).
std::optional<std::string> plainHead(const std::string& path)
{
    if (fileSize(path) <= kHeadBytes) return std::nullopt;
    std::string prefix = readFilePrefix(path, kHeadBytes);
    const std::size_t lastNewline = prefix.rfind('\n');
    if (lastNewline == std::string::npos || prefix.find('"') != std::string::npos) return std::nullopt;
    prefix.resize(lastNewline + 1);
    return prefix;
}

// The matrix read by reader from the start of its text. With headOnly, reader holds
// only the file's head and the rows after the first two are read from the file in
// blocks; nullopt when the head lacks two records (blank lines can fill it) or the
// blocks found a quote.
std::optional<Dataset> readMatrixFrom(CsvReader& reader, const std::string& path, bool headOnly, Progress& progress)
{
    CsvRecord first;
    CsvRecord second;
    CsvRecord third;
    const bool hasFirst = reader.next(first);
    const bool hasSecond = hasFirst && reader.next(second);
    const bool hasThird = hasSecond && reader.next(third);
    if (headOnly && !hasSecond) return std::nullopt;
    if (!hasFirst) reader.fail(1, 1, "empty file: no header and no data");
    const MatrixColumns columns = detectColumns(reader, first, hasSecond ? &second : nullptr, hasThird ? &third : nullptr);
    const bool header = !columns.headerNames.empty();

    Dataset out;
    out.source = path;
    out.layout = Layout::Matrix;
    out.cols = static_cast<std::int64_t>(columns.features.size());
    if (header) {
        for (std::size_t c : columns.features) out.colNames.push_back(columns.headerNames[c]);
    }
    if (!header) appendMatrixRow(reader, first, columns, out);
    if (hasSecond) {
        if (!headOnly) {
            // Rough size from the second line, so big files do not regrow many times.
            out.values.reserve(
                static_cast<std::size_t>(out.cols) *
                (reader.sizeBytes() / static_cast<std::size_t>(std::max<std::int64_t>(1, second.endColumn)) + 16));
        }
        appendMatrixRow(reader, second, columns, out);
    }
    if (hasThird) appendMatrixRow(reader, third, columns, out);
    if (headOnly) {
        if (!appendMatrixRowsInBlocks(path, reader.position(), reader.line(), reader.delimiter(), columns, out, progress))
            return std::nullopt;
    } else {
        CsvRecord record;
        while (reader.next(record)) {
            appendMatrixRow(reader, record, columns, out);
            if ((out.rows & 1023) == 0) progress.update(reader.fraction());
        }
    }
    if (out.values.capacity() > out.values.size() + out.values.size() / 2) out.values.shrink_to_fit();

    std::string shape = std::to_string(out.rows) + " rows x " + std::to_string(out.cols) + " features";
    std::string delimiter = reader.delimiter() == '\t' ? "tab" : std::string("'") + reader.delimiter() + "'";
    out.notes.push_back("matrix: " + shape + ", delimiter " + delimiter + (header ? ", header" : ", no header") +
                        (columns.idColumn ? ", id column" : "") + (columns.truthColumn ? ", ground truth column" : ""));
    if (columns.idColumn) noteRepeatedRowNames(out, "id column");
    return out;
}

Dataset readMatrix(const std::string& path, const ProgressCallback& callback)
{
    Progress progress(callback);
    progress.report(0.0);
    std::optional<Dataset> out;
    if (const std::optional<std::string> head = plainHead(path)) {
        CsvReader reader(path, *head);
        out = readMatrixFrom(reader, path, true, progress);
    }
    if (!out) {
        // A small file, or a quote somewhere: fields may span lines, so it is read whole.
        CsvReader reader = CsvReader::fromFile(path);
        out = readMatrixFrom(reader, path, false, progress);
    }
    progress.report(1.0);
    return std::move(*out);
}

class CsvSource final : public DataSource {
public:
    std::string name() const override { return "csv"; }
    std::string holds() const override { return "a matrix"; }
    std::vector<std::string> extensions() const override { return {"csv", "tsv", "txt"}; }
    // Asked last among the text sources: any readable text is a matrix, or an error at its cell.
    bool sniff(const FileHead& head) const override
    {
        head.firstRecord();
        return true;
    }
    Dataset open(const SourceSpec& spec, const ProgressCallback& progress) const override
    {
        return readMatrix(spec.location, progress);
    }
};

}  // namespace

void appendMatrixRow(const CsvReader& reader, const CsvRecord& record, const MatrixColumns& columns, Dataset& out)
{
    checkWidth(reader, record, columns.width, !columns.headerNames.empty());
    for (std::size_t c : columns.features)
        out.values.push_back(featureValue(reader, record[c], c, columns.headerName(c), columns.limit, out.cols));
    if (columns.idColumn) out.rowNames.emplace_back(record[0].text);
    if (columns.truthColumn) {
        const std::size_t c = *columns.truthColumn;
        const CsvField& field = record[c];
        const auto label = parseInt32(field.text);
        const std::string at = fieldLabel(c, columns.headerName(c)) + ": ";
        if (!label) reader.fail(field, at + "ground-truth label must be an integer: '" + excerpt(field.text) + "'");
        // Metrics treat labels as cluster ids; a negative "unknown" marker would be scored as a cluster.
        if (*label < 0) reader.fail(field, at + "ground-truth label must not be negative: '" + excerpt(field.text) + "'");
        out.truth.push_back(*label);
    }
    ++out.rows;
}

std::unique_ptr<DataSource> makeCsvSource()
{
    return std::make_unique<CsvSource>();
}

}  // namespace clusterdesk::data
