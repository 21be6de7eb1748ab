#include "ticks_loader.h"

#include "csv_reader.h"
#include "price_pipeline.h"
#include "progress.h"
#include "text_cells.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <unordered_map>

namespace clusterdesk::data {
namespace {

constexpr const char* kRequired[] = {"timestamp", "symbol", "price"};

// Bars x symbols beyond this would be a table nobody meant to build.
constexpr double kMaxCells = 5e7;

struct Tick {
    std::int64_t bar;
    std::int64_t micros;
    std::int64_t order;  // file order breaks timestamp ties
    std::int32_t symbol;
    double price;
    PriceOrigin origin;  // the price cell: a bar's close points back at the tick that set it
};

std::int64_t floorDiv(std::int64_t a, std::int64_t b)
{
    std::int64_t q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
    return q;
}

}  // namespace

bool isTicksHeader(const std::vector<std::string>& lowerNames)
{
    for (const char* name : kRequired)
        if (std::find(lowerNames.begin(), lowerNames.end(), name) == lowerNames.end()) return false;
    return true;
}

Dataset loadTicksCsv(const std::string& path, const LoadOptions& options)
{
    validateLoadOptions(options);
    Progress progress(options.progress, 0.0, 0.9);
    progress.report(0.0);
    CsvReader reader = CsvReader::fromFile(path);

    CsvRecord header;
    if (!reader.next(header)) reader.fail(1, 1, "empty file: no header and no ticks");
    std::map<std::string, std::size_t> columns;  // lower-case name -> index
    for (std::size_t c = 0; c < header.size(); ++c) {
        const std::string name = lowerTrimmed(header[c].text);
        if (name == "timestamp" || name == "symbol" || name == "price" || name == "size") {
            if (!columns.emplace(name, c).second) reader.fail(header[c], "duplicate column '" + name + "'");
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
    const std::int64_t barMicros = options.barSeconds * 1000000;
    if (options.barSeconds > std::numeric_limits<std::int64_t>::max() / 1000000)
        throw UsageError("barSeconds is too large: " + std::to_string(options.barSeconds));

    std::unordered_map<std::string, std::int32_t> symbolIds;
    std::vector<std::string> symbols;
    std::vector<Tick> ticks;
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
            reader.fail(time, "not a timestamp: '" + excerpt(time.text) +
                                  "' (expected ISO 8601 like 2024-01-02T09:30:00, or epoch seconds)");
        }
        const CsvField& symbol = record[symbolCol];
        if (symbol.text.empty()) reader.fail(symbol, "empty symbol");
        const CsvField& priceCell = record[priceCol];
        const double price = parsePrice(reader, priceCell);
        if (sizeIt != columns.end()) {
            const CsvField& sizeCell = record[sizeIt->second];
            if (!sizeCell.text.empty()) {
                const auto size = parseDouble(sizeCell.text);
                if (!size || !std::isfinite(*size) || *size < 0.0)
                    reader.fail(sizeCell, "size must be a non-negative number: '" + excerpt(sizeCell.text) + "'");
            }
        }
        auto [it, inserted] =
            symbolIds.try_emplace(std::string(symbol.text), static_cast<std::int32_t>(symbols.size()));
        if (inserted) symbols.emplace_back(symbol.text);
        ticks.push_back(Tick{floorDiv(*micros, barMicros), *micros, static_cast<std::int64_t>(ticks.size()), it->second,
                             price, {priceCell.line, priceCell.column}});
        if ((ticks.size() & 4095) == 0) progress.update(reader.fraction());
    }
    if (ticks.empty()) reader.fail(reader.line(), 1, "no ticks after the header");

    // Bars in which anything traded, in time order.
    std::vector<std::int64_t> bars;
    bars.reserve(ticks.size());
    for (const Tick& t : ticks) bars.push_back(t.bar);
    std::sort(bars.begin(), bars.end());
    bars.erase(std::unique(bars.begin(), bars.end()), bars.end());
    if (static_cast<double>(bars.size()) * static_cast<double>(symbols.size()) > kMaxCells) {
        throw DataError(path, 0, 0,
                        std::to_string(bars.size()) + " bars x " + std::to_string(symbols.size()) +
                            " symbols is too large a price table; use a larger bar size (barSeconds=" +
                            std::to_string(options.barSeconds) + ")");
    }

    // Symbols sorted by name give rows independent of file order.
    std::vector<std::int32_t> order(symbols.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<std::int32_t>(i);
    std::sort(order.begin(), order.end(), [&](auto a, auto b) { return symbols[a] < symbols[b]; });
    std::vector<std::int32_t> column(symbols.size());
    for (std::size_t i = 0; i < order.size(); ++i) column[order[i]] = static_cast<std::int32_t>(i);

    PriceTable table;
    for (std::int32_t s : order) table.assets.push_back(symbols[s]);
    for (std::int64_t bar : bars) table.times.push_back(formatTimestamp(bar * barMicros));
    const std::size_t width2 = symbols.size();
    table.prices.assign(bars.size() * width2, std::numeric_limits<double>::quiet_NaN());
    table.origins.assign(bars.size() * width2, PriceOrigin{});
    // Last tick per (bar, symbol): sorted by (bar, timestamp, file order), later ticks overwrite.
    std::sort(ticks.begin(), ticks.end(), [](const Tick& a, const Tick& b) {
        return a.bar != b.bar ? a.bar < b.bar : a.micros != b.micros ? a.micros < b.micros : a.order < b.order;
    });
    std::size_t b = 0;
    for (const Tick& t : ticks) {
        while (bars[b] != t.bar) ++b;
        const std::size_t cell = b * width2 + static_cast<std::size_t>(column[t.symbol]);
        table.prices[cell] = t.price;
        table.origins[cell] = t.origin;
    }
    std::vector<std::string> notes{"resampled " + std::to_string(ticks.size()) + " ticks of " +
                                   std::to_string(symbols.size()) + " symbols into " + std::to_string(bars.size()) +
                                   " bars of " + std::to_string(options.barSeconds) +
                                   " s (last price per bar; bars with no trade at all skipped)"};
    Dataset out = pricesToDataset(std::move(table), options, path, Layout::Ticks, std::move(notes));
    Progress(options.progress).report(1.0);
    return out;
}

}  // namespace clusterdesk::data
