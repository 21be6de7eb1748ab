#include "tick_file.h"

#include "csv_reader.h"
#include "text_cells.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <unordered_map>

namespace clusterdesk::data {
namespace {

constexpr const char* kRequired[] = {"timestamp", "symbol", "price"};

}  // namespace

bool isTicksHeader(const CsvRecord& header)
{
    std::vector<std::string> names;
    for (const CsvField& field : header.fields) names.push_back(lowerTrimmed(field.text));
    for (const char* name : kRequired)
        if (std::find(names.begin(), names.end(), name) == names.end()) return false;
    return true;
}

TickFile readTickFile(const std::string& path, Progress& progress)
{
    progress.report(0.0);
    CsvReader reader = CsvReader::fromFile(path);

    CsvRecord header;
    if (!reader.next(header)) reader.fail(1, 1, "empty file: no header and no ticks");
    std::map<std::string, std::size_t> columns;  // lower-case name -> index
    for (std::size_t c = 0; c < header.size(); ++c) {
        const std::string name = lowerTrimmed(header[c].text);
        if (name == "timestamp" || name == "symbol" || name == "price" || name == "size") {
            if (const auto [first, added] = columns.emplace(name, c); !added)
                reader.fail(header[c], fieldLabel(c) + ": duplicate column '" + name + "' (also " + fieldLabel(first->second) + ")");
        }
    }
    for (const char* name : kRequired) {
        if (!columns.count(name)) {
            std::string names;
            for (std::size_t c = 0; c < header.size(); ++c) names += (c ? ", " : "") + excerpt(header[c].text);
            reader.fail(
                header.line, 1,
                std::string("missing required column '") + name +
                    "' (a ticks file has timestamp, symbol, price and optionally size; the header has: " + names + ")");
        }
    }
    const std::size_t timeCol = columns["timestamp"], symbolCol = columns["symbol"], priceCol = columns["price"];
    const auto sizeIt = columns.find("size");
    const std::size_t width = header.size();

    std::unordered_map<std::string, std::int32_t> symbolIds;
    TickFile out;
    std::vector<std::string>& symbols = out.symbols;
    std::vector<TickRow>& ticks = out.ticks;
    CsvRecord record;
    while (reader.next(record)) {
        if (record.size() != width) {
            const std::string message = "expected " + std::to_string(width) + " fields (as in the header), found " +
                                        std::to_string(record.size());
            if (record.size() > width) reader.fail(record[width], message);
            reader.fail(record.line, record.endColumn, message);
        }
        const CsvField& time = record[timeCol];
        const auto micros = parseTimestamp(time.text);
        if (!micros) {
            reader.fail(time, fieldLabel(timeCol, header[timeCol].text) + ": not a timestamp: '" + excerpt(time.text) +
                                  "' (expected ISO 8601 like 2024-01-02T09:30:00, or epoch seconds)");
        }
        const CsvField& symbol = record[symbolCol];
        if (symbol.text.empty()) reader.fail(symbol, fieldLabel(symbolCol, header[symbolCol].text) + ": empty symbol");
        const CsvField& priceCell = record[priceCol];
        const double price = parsePrice(reader, priceCell, priceCol, header[priceCol].text);
        double size = 0.0;
        if (sizeIt != columns.end()) {
            const CsvField& sizeCell = record[sizeIt->second];
            if (!sizeCell.text.empty()) {
                const auto parsed = parseDouble(sizeCell.text);
                if (!parsed || !std::isfinite(*parsed) || *parsed < 0.0)
                    reader.fail(sizeCell, fieldLabel(sizeIt->second, header[sizeIt->second].text) + ": size must be a non-negative number: '" + excerpt(sizeCell.text) + "'");
                size = *parsed;
            }
        }
        auto [it, inserted] =
            symbolIds.try_emplace(std::string(symbol.text), static_cast<std::int32_t>(symbols.size()));
        if (inserted) symbols.emplace_back(symbol.text);
        ticks.push_back(TickRow{*micros, it->second, price, size, {priceCell.line, priceCell.column}});
        if ((ticks.size() & 4095) == 0) progress.update(reader.fraction());
    }
    if (ticks.empty()) reader.fail(reader.line(), 1, "no ticks after the header");

    // The aggregator takes ticks in time order; a file may list them otherwise, and
    // its order breaks ties (the later line sets the close).
    std::stable_sort(ticks.begin(), ticks.end(), [](const TickRow& a, const TickRow& b) { return a.micros < b.micros; });
    return out;
}

}  // namespace clusterdesk::data
