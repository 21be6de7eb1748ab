#include "prices_loader.h"

#include "csv_reader.h"
#include "price_pipeline.h"
#include "progress.h"
#include "text_cells.h"

#include <cmath>
#include <limits>
#include <unordered_map>

namespace clusterdesk::data {

bool isTimeHeader(std::string_view name)
{
    const std::string n = lowerTrimmed(name);
    return n == "date" || n == "time" || n == "timestamp" || n == "datetime" || n == "day";
}

Dataset loadPricesCsv(const std::string& path, const LoadOptions& options)
{
    validateLoadOptions(options);
    Progress progress(options.progress, 0.0, 0.9);
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
        if (field.text.empty()) reader.fail(field, "empty asset name in the header");
        const auto [it, inserted] = seen.emplace(field.text, c);
        if (!inserted) {
            reader.fail(field, "duplicate asset '" + excerpt(field.text) + "' (also column " +
                                   std::to_string(it->second + 1) + " of the header)");
        }
        table.assets.emplace_back(field.text);
    }
    const std::size_t width = header.size();
    // Bare numbers count as epoch seconds only under a date/time header: elsewhere a
    // column of numbers is far more likely a price than a time.
    const bool epochAllowed = isTimeHeader(header[0].text);

    CsvRecord record;
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
            reader.fail(date, "not a date: '" + excerpt(date.text) + "' (expected ISO 8601, e.g. 2024-01-02" +
                                  (epochAllowed ? ", or epoch seconds)" : ")"));
        }
        if (*time <= previous) {
            reader.fail(date,
                        "dates must increase: '" + excerpt(date.text) + "' comes after '" + previousStorage + "'");
        }
        previous = *time;
        previousStorage = excerpt(date.text);
        table.times.emplace_back(date.text);
        for (std::size_t c = 1; c < width; ++c) {
            const CsvField& cell = record[c];
            if (isMissingMarker(cell.text)) {
                table.prices.push_back(std::numeric_limits<double>::quiet_NaN());
                table.origins.push_back({cell.line, cell.column});
                continue;
            }
            table.prices.push_back(parsePrice(reader, cell));
            table.origins.push_back({cell.line, cell.column});
        }
        if ((table.times.size() & 255) == 0) progress.update(reader.fraction());
    }
    if (table.times.empty()) reader.fail(reader.line(), 1, "no price rows after the header");

    Dataset out = pricesToDataset(std::move(table), options, path, Layout::Prices);
    Progress(options.progress).report(1.0);
    return out;
}

}  // namespace clusterdesk::data
