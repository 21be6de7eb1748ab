// The market demo: a factor model of daily prices with planted sectors.
#include "demo_generators.h"

#include "demo_random.h"
#include "engine/core/error.h"
#include "price_pipeline.h"
#include "text_cells.h"

#include <cmath>
#include <cstdio>

namespace clusterdesk::data {
namespace {

// Random-stream purposes: each quantity has its own, so adding one changes no other.
enum Stream : std::uint64_t { kAssetParams = 1, kMarket = 2, kSector = 3, kIdio = 4, kMarketT = 5, kSectorT = 6, kIdioT = 7 };

// Realistic defaults, the average daily-return correlations of US large caps (the
// issue's measurements: 0.34-0.42 across sectors, 0.55-0.63 within one).
constexpr double kTargetCorrMarket = 0.37;
constexpr double kTargetCorrSector = 0.57;
constexpr double kDailyVol = 0.015;
// GARCH(1,1) of daily equity index returns: persistence alpha + beta = 0.98, long-run variance 1.
constexpr double kGarchAlpha = 0.08;
constexpr double kGarchBeta = 0.90;
constexpr double kGarchOmega = 1.0 - kGarchAlpha - kGarchBeta;

struct MarketShape {
    std::int64_t assets = 0;
    std::int64_t sectors = 0;
    std::int64_t days = 0;
    double corrMarket = 0;  // target correlation of two assets in different sectors
    double corrSector = 0;  // target correlation of two assets in the same sector
};

// "0.37": the correlations in the notes.
std::string shareText(double value)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.2f", value);
    return text;
}

// Strong demo's daily volatilities. The market factor dominates (it is why the rows correlate at
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

// Day t's prices from day t - 1's and each asset's log return, asked in asset order
// (the generators draw the idiosyncratic shocks from one stream in that order).
template <typename LogReturn>
void compoundDay(PriceTable& table, std::int64_t t, LogReturn logReturn)
{
    const auto assets = static_cast<std::int64_t>(table.assets.size());
    const double* previous = table.prices.data() + (t - 1) * assets;
    double* current = table.prices.data() + t * assets;
    for (std::int64_t i = 0; i < assets; ++i) current[i] = previous[i] * std::exp(logReturn(i));
}

// The former generator ("strong=1"): normal factor moves, Student-t idiosyncratic noise,
// market volatility doubling half-way. Correlation across sectors about 0.30 in the
// first half and 0.63 in the second, within a sector 0.53 and 0.75.
void strongPrices(PriceTable& table, std::int64_t assets, std::int64_t sectors, std::int64_t days, std::uint64_t seed)
{
    std::vector<double> beta(assets), loading(assets), idio(assets);
    for (std::int64_t i = 0; i < assets; ++i) {
        Random r(seed, kAssetParams, static_cast<std::uint64_t>(i));
        beta[i] = r.uniform(0.7, 1.3);
        loading[i] = r.uniform(0.8, 1.2);
        idio[i] = kIdioVol * r.uniform(0.8, 1.2);
    }
    std::vector<double> sectorMove(static_cast<std::size_t>(sectors));
    for (std::int64_t t = 1; t < days; ++t) {
        const int regime = t < days / 2 ? 0 : 1;
        const double market = kMarketVol[regime] * Random(seed, kMarket, static_cast<std::uint64_t>(t)).normal();
        for (std::int64_t s = 0; s < sectors; ++s)
            sectorMove[s] = kSectorVol * Random(seed, kSector, static_cast<std::uint64_t>(t * sectors + s)).normal();
        Random noise(seed, kIdio, static_cast<std::uint64_t>(t));
        compoundDay(table, t, [&](std::int64_t i) {
            return kDrift + beta[i] * market + loading[i] * sectorMove[i % sectors] + idio[i] * noise.studentT4();
        });
    }
}

// The realistic generator. A typical asset (beta, loading and idiosyncratic scale 1)
// has the variance shares corrMarket (market), corrSector - corrMarket (sector) and
// 1 - corrSector (its own), so two assets correlate about corrMarket across sectors and
// corrSector within one. Every shock is Student-t(4) (fat tails: no finite fourth
// moment) and all are scaled by one GARCH(1,1) variance driven by the market shock
// (volatility clustering, common to every asset as in equity markets: correlations are
// unchanged, their noise is not).
void realisticPrices(PriceTable& table, const MarketShape& shape, std::uint64_t seed)
{
    const std::int64_t assets = shape.assets, sectors = shape.sectors, days = shape.days;
    const double marketScale = std::sqrt(shape.corrMarket);
    const double sectorScale = std::sqrt(shape.corrSector - shape.corrMarket);
    const double idioScale = std::sqrt(1.0 - shape.corrSector);
    std::vector<double> beta(assets), loading(assets), idio(assets);
    for (std::int64_t i = 0; i < assets; ++i) {
        Random r(seed, kAssetParams, static_cast<std::uint64_t>(i));
        beta[i] = r.uniform(0.7, 1.3);
        loading[i] = r.uniform(0.8, 1.2);
        idio[i] = r.uniform(0.8, 1.2);
    }
    std::vector<double> sectorMove(static_cast<std::size_t>(sectors));
    double variance = 1.0;  // GARCH variance, long-run mean 1
    double previousShock = 0.0;
    for (std::int64_t t = 1; t < days; ++t) {
        variance = kGarchOmega + kGarchAlpha * previousShock * previousShock * variance + kGarchBeta * variance;
        const double vol = kDailyVol * std::sqrt(variance);
        const double shock = Random(seed, kMarketT, static_cast<std::uint64_t>(t)).studentT4();
        previousShock = shock;
        for (std::int64_t s = 0; s < sectors; ++s)
            sectorMove[s] = sectorScale * Random(seed, kSectorT, static_cast<std::uint64_t>(t * sectors + s)).studentT4();
        Random noise(seed, kIdioT, static_cast<std::uint64_t>(t));
        compoundDay(table, t, [&](std::int64_t i) {
            return kDrift + vol * (beta[i] * marketScale * shock + loading[i] * sectorMove[i % sectors] +
                                   idio[i] * idioScale * noise.studentT4());
        });
    }
}

}  // namespace

std::string marketAssetName(std::int64_t sector, std::int64_t asset, std::int64_t sectors, std::int64_t assets)
{
    std::string name("S");
    appendPadded(name, sector, std::max<std::size_t>(2, std::to_string(sectors - 1).size()));
    name.append("_A");
    appendPadded(name, asset, std::max<std::size_t>(3, std::to_string(assets - 1).size()));
    return name;
}

Dataset makeMarketDemo(DemoSpec& spec)
{
    MarketShape shape;
    shape.assets = spec.integer("assets", 500, 2, 1000000);
    shape.sectors = spec.integer("sectors", 10, 1, shape.assets);
    shape.days = spec.integer("days", 750, 3, 1000000);
    const std::uint64_t seed = spec.seed("seed", 7);
    const std::int64_t window = spec.integer("window", 0, 0, shape.days - 1);
    const bool strong = spec.integer("strong", 0, 0, 1) == 1;
    shape.corrMarket = spec.real("corr_market", kTargetCorrMarket, 0.0, 0.95);
    shape.corrSector = spec.real("corr_sector", kTargetCorrSector, 0.0, 0.99);
    PriceOptions options;
    options.returnWindow = window;
    options.scaleDays = spec.integer(std::string(kScaleDaysOption), 1, 0, 1) == 1;
    spec.finish();
    const std::int64_t assets = shape.assets, sectors = shape.sectors, days = shape.days;
    if (shape.corrSector < shape.corrMarket)
        throw UsageError("demo 'market': corr_sector=" + std::to_string(shape.corrSector) +
                         " must be at least corr_market=" + std::to_string(shape.corrMarket) +
                         " (assets of one sector share the market too)");
    if (static_cast<double>(assets) * static_cast<double>(days) > 5e7)
        throw UsageError("demo 'market': assets x days = " + std::to_string(assets * days) +
                         " is too large (at most 5e7)");
    if (spec.checkOnly()) return {};

    // Sectors are dealt round-robin, so every sector has assets/sectors members (+-1).
    PriceTable table;
    table.assets.reserve(static_cast<std::size_t>(assets));
    for (std::int64_t i = 0; i < assets; ++i) table.assets.push_back(marketAssetName(i % sectors, i, sectors, assets));
    // Business days from Monday 2021-01-04 (day 18631 since the epoch).
    for (std::int64_t day = 18631; static_cast<std::int64_t>(table.times.size()) < days; ++day) {
        const std::int64_t weekday = (day + 4) % 7;  // 0 = Sunday
        if (weekday != 0 && weekday != 6) table.times.push_back(formatDate(day));
    }
    table.prices.resize(static_cast<std::size_t>(assets * days));
    for (std::int64_t i = 0; i < assets; ++i)
        table.prices[i] = 20.0 + 180.0 * Random(seed, kAssetParams, assets + i).uniform();
    if (strong)
        strongPrices(table, assets, sectors, days, seed);
    else
        realisticPrices(table, shape, seed);

    const std::string canonical = spec.canonical();
    std::vector<std::string> notes{"demo market: " + std::to_string(assets) + " assets in " + std::to_string(sectors) +
                                   " sectors, " + std::to_string(days) + " days, seed " + std::to_string(seed) + "; " +
                                   (strong ? "strong factors, market volatility doubles from day " +
                                                 std::to_string(days / 2 + 1) + " (" +
                                                 table.times[static_cast<std::size_t>(days / 2)] + ")"
                                           : "correlation " + shareText(shape.corrMarket) + " across sectors, " +
                                                 shareText(shape.corrSector) +
                                                 " within one, Student-t(4) shocks, GARCH(1,1) volatility") +
                                   "; truth = sector"};
    Dataset out = pricesToDataset(std::move(table), options, canonical, Layout::Prices, std::move(notes));
    if (out.rows != assets) throw Error("demo market lost assets in the prices pipeline (internal)");
    out.truth.resize(static_cast<std::size_t>(out.rows));
    for (std::int64_t i = 0; i < out.rows; ++i) out.truth[i] = static_cast<std::int32_t>(i % sectors);
    return out;
}

}  // namespace clusterdesk::data
