// The csv source: delimited text holding a plain matrix, one point per line.
//
// Header: the first row is a header when a cell other than the first is text, or when
// only its first cell is text and the next row starts with a number. Id column: the
// first column is row names when its data cells are text, or its header is empty or
// one of id/name/symbol/asset/ticker. A header column named label or truth (any case)
// holds integer ground truth. Every other cell must be a finite float32.
#include "csv_reader.h"
#include "data_source.h"
#include "progress.h"
#include "text_cells.h"

#include <cmath>
#include <optional>

namespace clusterdesk::data {
namespace {

bool isNumber(const CsvField& field)
{
    return !field.text.empty() && parseDouble(field.text).has_value();
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

void checkWidth(const CsvReader& reader, const CsvRecord& record, std::size_t expected, const char* what)
{
    if (record.size() == expected) return;
    const std::string message = "expected " + std::to_string(expected) + " fields (as in the " + what + "), found " +
                                std::to_string(record.size());
    if (record.size() > expected) reader.fail(record[expected], message);
    reader.fail(record.line, record.endColumn, message);
}

Dataset readMatrix(const std::string& path, const ProgressCallback& callback)
{
    Progress progress(callback);
    progress.report(0.0);
    CsvReader reader = CsvReader::fromFile(path);

    CsvRecord first;
    if (!reader.next(first)) reader.fail(1, 1, "empty file: no header and no data");
    CsvRecord second;
    const bool hasSecond = reader.next(second);
    const std::size_t width = first.size();

    bool header = false;
    for (std::size_t c = 1; c < width; ++c) header = header || (!first[c].text.empty() && !isNumber(first[c]));
    if (!header && !isNumber(first[0])) {
        // Only the first cell is text: a header over numeric columns if the next row starts
        // with a number, otherwise a data row whose first cell is its name.
        header = width == 1 || (hasSecond && second.size() > 0 && isNumber(second[0]));
    }
    if (header && !hasSecond) reader.fail(reader.line(), 1, "no data rows after the header");

    const CsvRecord& firstData = header ? second : first;
    if (firstData.size() != width) checkWidth(reader, firstData, width, header ? "header" : "first row");
    const bool idColumn = width > 1 && (!isNumber(firstData[0]) || (header && isIdHeader(first[0].text)));

    std::optional<std::size_t> truthColumn;
    if (header) {
        for (std::size_t c = idColumn ? 1 : 0; c < width; ++c) {
            const std::string name = lowerTrimmed(first[c].text);
            if (name != "label" && name != "truth") continue;
            if (truthColumn) reader.fail(first[c], fieldLabel(c, first[c].text) + ": a second ground-truth column (also " + fieldLabel(*truthColumn, first[*truthColumn].text) + ")");
            truthColumn = c;
        }
    }
    std::vector<std::size_t> features;
    for (std::size_t c = idColumn ? 1 : 0; c < width; ++c)
        if (c != truthColumn) features.push_back(c);
    if (features.empty()) reader.fail(first.line, first.endColumn, "no feature columns (only names or labels)");

    Dataset out;
    out.source = path;
    out.layout = Layout::Matrix;
    out.cols = static_cast<std::int64_t>(features.size());
    const double limit = maxFeatureMagnitude(out.cols);
    if (header) {
        for (std::size_t c : features) out.colNames.emplace_back(first[c].text);
    }
    const auto addRow = [&](const CsvRecord& record) {
        checkWidth(reader, record, width, header ? "header" : "first row");
        for (std::size_t c : features)
            out.values.push_back(featureValue(reader, record[c], c, header ? first[c].text : std::string_view(), limit, out.cols));
        if (idColumn) out.rowNames.emplace_back(record[0].text);
        if (truthColumn) {
            const CsvField& field = record[*truthColumn];
            const auto label = parseInt32(field.text);
            const std::string at = fieldLabel(*truthColumn, first[*truthColumn].text) + ": ";
            if (!label) reader.fail(field, at + "ground-truth label must be an integer: '" + excerpt(field.text) + "'");
            // Metrics treat labels as cluster ids; a negative "unknown" marker would be scored as a cluster.
            if (*label < 0) reader.fail(field, at + "ground-truth label must not be negative: '" + excerpt(field.text) + "'");
            out.truth.push_back(*label);
        }
        ++out.rows;
        if ((out.rows & 1023) == 0) progress.update(reader.fraction());
    };
    if (!header) addRow(first);
    if (hasSecond) {
        // Rough size from the second line, so big files do not regrow many times.
        out.values.reserve(
            static_cast<std::size_t>(out.cols) *
            (reader.sizeBytes() / static_cast<std::size_t>(std::max<std::int64_t>(1, second.endColumn)) + 16));
        addRow(second);
    }
    CsvRecord record;
    while (reader.next(record)) addRow(record);
    if (out.values.capacity() > out.values.size() + out.values.size() / 2) out.values.shrink_to_fit();

    std::string shape = std::to_string(out.rows) + " rows x " + std::to_string(out.cols) + " features";
    std::string delimiter = reader.delimiter() == '\t' ? "tab" : std::string("'") + reader.delimiter() + "'";
    out.notes.push_back("matrix: " + shape + ", delimiter " + delimiter + (header ? ", header" : ", no header") +
                        (idColumn ? ", id column" : "") + (truthColumn ? ", ground truth column" : ""));
    progress.report(1.0);
    return out;
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

std::unique_ptr<DataSource> makeCsvSource()
{
    return std::make_unique<CsvSource>();
}

}  // namespace clusterdesk::data
