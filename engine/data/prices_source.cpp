// The prices source: a wide CSV, a date column then one column of prices per asset.
//
// The header is required (it names the assets; duplicates are an error). Dates are ISO
// 8601 (or epoch seconds under a date/time/timestamp/datetime/day header) and must
// increase strictly. Missing cells (empty, NA, NaN, null, ...) are forward-filled per
// the options; non-numeric, infinite or non-positive prices are errors at the cell.
// Then the prices pipeline (see price_pipeline.h).
#include "csv_reader.h"
#include "data_source.h"
#include "price_pipeline.h"
#include "progress.h"
#include "text_cells.h"

#include <cmath>
#include <limits>
#include <map>
#include <unordered_map>

namespace clusterdesk::data {
namespace {

bool isTimeHeader(std::string_view name)
{
    const std::string n = lowerTrimmed(name);
    return n == "date" || n == "time" || n == "timestamp" || n == "datetime" || n == "day";
}

Dataset readPrices(const std::string& path, const PriceOptions& options, const ProgressCallback& callback)
{
    Progress progress(callback, 0.0, 0.9);
    progress.report(0.0);
    CsvReader reader = CsvReader::fromFile(path);

    CsvRecord header;
    if (!reader.next(header)) reader.fail(1, 1, "empty file: no header and no prices");
    if (parseTimestamp(header[0].text))
        reader.fail(header[0], "a prices file needs a header row: a date column, then one column named for each asset");
    if (header.size() < 2) reader.fail(header.line, header.endColumn, "no asset columns after the date column");

    PriceTable table;
    std::unordered_map<std::string_view, std::size_t> seen;
    for (std::size_t c = 1; c < header.size(); ++c) {
        const CsvField& field = header[c];
        if (field.text.empty()) reader.fail(field, fieldLabel(c) + ": empty asset name in the header");
        const auto [it, inserted] = seen.emplace(field.text, c);
        if (!inserted) {
            reader.fail(field, fieldLabel(c) + ": duplicate asset '" + excerpt(field.text) + "' (also " + fieldLabel(it->second) +
                                   " of the header)");
        }
        table.assets.emplace_back(field.text);
    }
    const std::size_t width = header.size();
    // Bare numbers count as epoch seconds only under a date/time header: elsewhere a
    // column of numbers is far more likely a price than a time.
    const bool epochAllowed = isTimeHeader(header[0].text);

    CsvRecord record;
    std::map<std::string, std::int64_t> missingTokens;
    std::int64_t previous = std::numeric_limits<std::int64_t>::min();
    std::string previousStorage;
    while (reader.next(record)) {
        if (record.size() != width) {
            const std::string message = "expected " + std::to_string(width) + " fields (as in the header), found " +
                                        std::to_string(record.size());
            if (record.size() > width) reader.fail(record[width], message);
            reader.fail(record.line, record.endColumn, message);
        }
        const CsvField& date = record[0];
        const auto time = epochAllowed ? parseTimestamp(date.text) : parseIsoTimestamp(date.text);
        if (!time) {
            reader.fail(date, fieldLabel(0, header[0].text) + ": not a date: '" + excerpt(date.text) + "' (expected ISO 8601, e.g. 2024-01-02" +
                                  (epochAllowed ? ", or epoch seconds)" : ")"));
        }
        if (*time <= previous) {
            reader.fail(date, fieldLabel(0, header[0].text) +
                        ": dates must increase: '" + excerpt(date.text) + "' comes after '" + previousStorage + "'");
        }
        previous = *time;
        previousStorage = excerpt(date.text);
        table.times.emplace_back(date.text);
        for (std::size_t c = 1; c < width; ++c) {
            const CsvField& cell = record[c];
            if (isMissingMarker(cell.text)) {
                ++missingTokens[std::string(cell.text)];
                table.prices.push_back(std::numeric_limits<double>::quiet_NaN());
                table.origins.push_back({cell.line, cell.column});
                continue;
            }
            table.prices.push_back(parsePrice(reader, cell, c, header[c].text));
            table.origins.push_back({cell.line, cell.column});
        }
        if ((table.times.size() & 255) == 0) progress.update(reader.fraction());
    }
    if (table.times.empty()) reader.fail(reader.line(), 1, "no price rows after the header");

    // Which spellings were read as "no price": the user sees that NA or #N/A counted.
    std::vector<std::string> notes;
    if (!missingTokens.empty()) {
        std::string note = "read as missing prices:";
        for (const auto& [token, count] : missingTokens)
            note += (note.back() == ':' ? " " : ", ") + (token.empty() ? std::string("empty cells") : "'" + excerpt(token) + "'") + " x" + std::to_string(count);
        notes.push_back(std::move(note));
    }
    Dataset out = pricesToDataset(std::move(table), options, path, Layout::Prices, std::move(notes));
    Progress(callback).report(1.0);
    return out;
}

class PricesSource final : public DataSource {
public:
    std::string name() const override { return "prices"; }
    std::string holds() const override { return "a prices table"; }
    std::vector<std::string> extensions() const override { return {"csv", "tsv", "txt"}; }
    // A first column named for time, or a header over asset names then a row starting with an ISO date.
    bool sniff(const FileHead& head) const override
    {
        const CsvRecord& first = head.firstRecord();
        if (isTimeHeader(first[0].text)) return true;
        bool header = first.size() > 1;
        for (std::size_t c = 1; c < first.size(); ++c) header = header && !parseDouble(first[c].text);
        const CsvRecord* second = head.secondRecord();
        return header && second && second->size() > 0 && parseIsoTimestamp((*second)[0].text);
    }
    std::vector<SourceOption> options() const override { return priceSourceOptions(); }
    Dataset open(const SourceSpec& spec, const ProgressCallback& progress) const override
    {
        return readPrices(spec.location, priceOptionsOf(spec), progress);
    }
};

}  // namespace

std::unique_ptr<DataSource> makePricesSource()
{
    return std::make_unique<PricesSource>();
}

}  // namespace clusterdesk::data
