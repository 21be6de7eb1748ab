// The ticks source: a long CSV timestamp,symbol,price[,size] in any column order.
//
// Ticks are resampled to bars of `bar` seconds by the BarAggregator (the last price in
// each bar, by timestamp, file order breaking ties; the file need not be in time
// order); only bars in which some symbol traded are kept. Then the prices pipeline (see
// price_pipeline.h), one row per symbol (sorted by name).
#include "bar_aggregator.h"
#include "csv_reader.h"
#include "data_source.h"
#include "price_pipeline.h"
#include "progress.h"
#include "source_options.h"
#include "text_cells.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <unordered_map>

namespace clusterdesk::data {
namespace {

constexpr const char* kRequired[] = {"timestamp", "symbol", "price"};
constexpr std::int64_t kDefaultBarSeconds = 60;

// Bars x symbols beyond this would be a table nobody meant to build.
constexpr double kMaxCells = 5e7;

struct Tick {
    std::int64_t micros;
    std::int32_t symbol;
    double price;
    double size;
    PriceOrigin origin;  // the price cell: a bar's close points back at the tick that set it
};

bool isTicksHeader(const CsvRecord& header)
{
    std::vector<std::string> names;
    for (const CsvField& field : header.fields) names.push_back(lowerTrimmed(field.text));
    for (const char* name : kRequired)
        if (std::find(names.begin(), names.end(), name) == names.end()) return false;
    return true;
}

Dataset readTicks(const std::string& path, std::int64_t barSeconds, const PriceOptions& options,
                  const ProgressCallback& callback)
{
    Progress progress(callback, 0.0, 0.9);
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
        ticks.push_back(Tick{*micros, it->second, price, size, {priceCell.line, priceCell.column}});
        if ((ticks.size() & 4095) == 0) progress.update(reader.fraction());
    }
    if (ticks.empty()) reader.fail(reader.line(), 1, "no ticks after the header");

    // The aggregator takes ticks in time order; a file may list them otherwise, and
    // its order breaks ties (the later line sets the close).
    std::stable_sort(ticks.begin(), ticks.end(), [](const Tick& a, const Tick& b) { return a.micros < b.micros; });
    BarAggregator aggregator(path, barSeconds);
    for (std::size_t i = 0; i < ticks.size(); ++i) {
        const Tick& t = ticks[i];
        aggregator.add(t.micros, symbols[static_cast<std::size_t>(t.symbol)], t.price, t.size,
                       static_cast<std::int64_t>(i));
    }
    aggregator.finish();
    const std::vector<Bar> bars = aggregator.takeClosed();
    const std::vector<std::string>& names = aggregator.symbols();
    if (static_cast<double>(bars.size()) * static_cast<double>(names.size()) > kMaxCells) {
        throw DataError(path, 0, 0,
                        std::to_string(bars.size()) + " bars x " + std::to_string(names.size()) +
                            " symbols is too large a price table; use a larger bar size (--bar " +
                            std::to_string(barSeconds) + ")");
    }

    // Symbols sorted by name give rows independent of file order.
    std::vector<std::int32_t> order(names.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<std::int32_t>(i);
    std::sort(order.begin(), order.end(), [&](auto a, auto b) { return names[a] < names[b]; });
    std::vector<std::size_t> column(names.size());
    for (std::size_t i = 0; i < order.size(); ++i) column[static_cast<std::size_t>(order[i])] = i;

    PriceTable table;
    for (std::int32_t s : order) table.assets.push_back(names[static_cast<std::size_t>(s)]);
    const std::size_t symbolCount = names.size();
    table.prices.assign(bars.size() * symbolCount, std::numeric_limits<double>::quiet_NaN());
    table.origins.assign(bars.size() * symbolCount, PriceOrigin{});
    for (std::size_t b = 0; b < bars.size(); ++b) {
        table.times.push_back(formatTimestamp(bars[b].startMicros));
        for (const SymbolBar& s : bars[b].symbols) {
            const std::size_t cell = b * symbolCount + column[static_cast<std::size_t>(s.symbol)];
            table.prices[cell] = s.close;
            table.origins[cell] = ticks[static_cast<std::size_t>(s.closeTickId)].origin;
        }
    }
    std::vector<std::string> notes{"resampled " + std::to_string(ticks.size()) + " ticks of " +
                                   std::to_string(symbols.size()) + " symbols into " + std::to_string(bars.size()) +
                                   " bars of " + std::to_string(barSeconds) +
                                   " s (last price per bar; bars with no trade at all skipped)"};
    Dataset out = pricesToDataset(std::move(table), options, path, Layout::Ticks, std::move(notes));
    Progress(callback).report(1.0);
    return out;
}

class TicksSource final : public DataSource {
public:
    std::string name() const override { return "ticks"; }
    std::string holds() const override { return "ticks"; }
    std::vector<std::string> extensions() const override { return {"csv", "tsv", "txt"}; }
    // A header naming the timestamp, symbol and price columns.
    bool sniff(const FileHead& head) const override { return isTicksHeader(head.firstRecord()); }
    std::vector<SourceOption> options() const override
    {
        std::vector<SourceOption> all = priceSourceOptions();
        SourceOption bar =
            integerOption("bar", "a bar size", kDefaultBarSeconds, 1, std::numeric_limits<std::int64_t>::max() / 1000000);
        bar.flag = "--bar";
        all.push_back(std::move(bar));
        return all;
    }
    Dataset open(const SourceSpec& spec, const ProgressCallback& progress) const override
    {
        return readTicks(spec.location, integerValue(spec, "bar"), priceOptionsOf(spec), progress);
    }
};

}  // namespace

std::unique_ptr<DataSource> makeTicksSource()
{
    return std::make_unique<TicksSource>();
}

}  // namespace clusterdesk::data
