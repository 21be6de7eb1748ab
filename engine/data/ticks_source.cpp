// The ticks source: a long CSV timestamp,symbol,price[,size] in any column order.
//
// Ticks are resampled to bars of `bar` seconds by the BarAggregator (the last price in
// each bar, by timestamp, file order breaking ties; the file need not be in time
// order); only bars in which some symbol traded are kept. Then the prices pipeline (see
// price_pipeline.h), one row per symbol (sorted by name).
#include "bar_aggregator.h"
#include "tick_file.h"
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

constexpr std::int64_t kDefaultBarSeconds = 60;

// Bars x symbols beyond this would be a table nobody meant to build.
constexpr double kMaxCells = 5e7;

Dataset readTicks(const std::string& path, std::int64_t barSeconds, const PriceOptions& options,
                  const ProgressCallback& callback)
{
    Progress progress(callback, 0.0, 0.9);
    const TickFile file = readTickFile(path, progress);
    const std::vector<TickRow>& ticks = file.ticks;
    const std::vector<std::string>& symbols = file.symbols;
    BarAggregator aggregator(path, barSeconds);
    for (std::size_t i = 0; i < ticks.size(); ++i) {
        const TickRow& t = ticks[i];
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
