// The market demo: a factor model of daily prices with planted sectors.
#include "demo_generators.h"

#include "demo_random.h"
#include "engine/core/error.h"
#include "price_pipeline.h"
#include "text_cells.h"

#include <cmath>

namespace clusterdesk::data {
namespace {

// Random-stream purposes: each quantity has its own, so adding one changes no other.
enum Stream : std::uint64_t { kAssetParams = 1, kMarket = 2, kSector = 3, kIdio = 4 };

// Daily volatilities. The market factor dominates (it is why the rows correlate at
// all) and doubles in the second regime; the sector factor is what the clusters find.
constexpr double kMarketVol[2] = {0.008, 0.016};
constexpr double kSectorVol = 0.007;
constexpr double kIdioVol = 0.010;
constexpr double kDrift = 0.0002;

void appendPadded(std::string& out, std::int64_t value, std::size_t width)
{
    const std::string digits = std::to_string(value);
    if (digits.size() < width) out.append(width - digits.size(), '0');
    out.append(digits);
}

// S03_A017: sector and asset numbers padded to the widest (at least 2 and 3 digits).
std::string assetName(std::int64_t sector, std::int64_t asset, std::int64_t sectors, std::int64_t assets)
{
    std::string name("S");
    appendPadded(name, sector, std::max<std::size_t>(2, std::to_string(sectors - 1).size()));
    name.append("_A");
    appendPadded(name, asset, std::max<std::size_t>(3, std::to_string(assets - 1).size()));
    return name;
}

}  // namespace

Dataset makeMarketDemo(DemoSpec& spec)
{
    const std::int64_t assets = spec.integer("assets", 500, 2, 1000000);
    const std::int64_t sectors = spec.integer("sectors", 10, 1, assets);
    const std::int64_t days = spec.integer("days", 750, 3, 1000000);
    const std::uint64_t seed = spec.seed("seed", 7);
    const std::int64_t window = spec.integer("window", 0, 0, days - 1);
    spec.finish();
    if (static_cast<double>(assets) * static_cast<double>(days) > 5e7)
        throw UsageError("demo 'market': assets x days = " + std::to_string(assets * days) +
                         " is too large (at most 5e7)");
    if (spec.checkOnly()) return {};

    // Sectors are dealt round-robin, so every sector has assets/sectors members (+-1).
    std::vector<double> beta(assets), loading(assets), idio(assets);
    for (std::int64_t i = 0; i < assets; ++i) {
        Random r(seed, kAssetParams, static_cast<std::uint64_t>(i));
        beta[i] = r.uniform(0.7, 1.3);
        loading[i] = r.uniform(0.8, 1.2);
        idio[i] = kIdioVol * r.uniform(0.8, 1.2);
    }

    PriceTable table;
    table.assets.reserve(static_cast<std::size_t>(assets));
    for (std::int64_t i = 0; i < assets; ++i) table.assets.push_back(assetName(i % sectors, i, sectors, assets));
    // Business days from Monday 2021-01-04 (day 18631 since the epoch).
    for (std::int64_t day = 18631; static_cast<std::int64_t>(table.times.size()) < days; ++day) {
        const std::int64_t weekday = (day + 4) % 7;  // 0 = Sunday
        if (weekday != 0 && weekday != 6) table.times.push_back(formatDate(day));
    }

    table.prices.resize(static_cast<std::size_t>(assets * days));
    for (std::int64_t i = 0; i < assets; ++i)
        table.prices[i] = 20.0 + 180.0 * Random(seed, kAssetParams, assets + i).uniform();
    std::vector<double> sectorMove(static_cast<std::size_t>(sectors));
    for (std::int64_t t = 1; t < days; ++t) {
        const int regime = t < days / 2 ? 0 : 1;
        const double market = kMarketVol[regime] * Random(seed, kMarket, static_cast<std::uint64_t>(t)).normal();
        for (std::int64_t s = 0; s < sectors; ++s)
            sectorMove[s] = kSectorVol * Random(seed, kSector, static_cast<std::uint64_t>(t * sectors + s)).normal();
        Random noise(seed, kIdio, static_cast<std::uint64_t>(t));
        const double* previous = table.prices.data() + (t - 1) * assets;
        double* current = table.prices.data() + t * assets;
        for (std::int64_t i = 0; i < assets; ++i) {
            const double r =
                kDrift + beta[i] * market + loading[i] * sectorMove[i % sectors] + idio[i] * noise.studentT4();
            current[i] = previous[i] * std::exp(r);
        }
    }

    PriceOptions options;
    options.returnWindow = window;
    const std::string canonical = spec.canonical();
    std::vector<std::string> notes{"demo market: " + std::to_string(assets) + " assets in " + std::to_string(sectors) +
                                   " sectors, " + std::to_string(days) + " days, seed " + std::to_string(seed) +
                                   "; market volatility doubles from day " + std::to_string(days / 2 + 1) + " (" +
                                   table.times[static_cast<std::size_t>(days / 2)] + "); truth = sector"};
    Dataset out = pricesToDataset(std::move(table), options, canonical, Layout::Prices, std::move(notes));
    if (out.rows != assets) throw Error("demo market lost assets in the prices pipeline (internal)");
    out.truth.resize(static_cast<std::size_t>(out.rows));
    for (std::int64_t i = 0; i < out.rows; ++i) out.truth[i] = static_cast<std::int32_t>(i % sectors);
    return out;
}

}  // namespace clusterdesk::data
