#include "market_stream.h"

#include "engine/core/error.h"
#include "engine/data/demo_generators.h"
#include "engine/data/demo_random.h"
#include "engine/data/demo_spec.h"

#include <cmath>

namespace clusterdesk::stream {
namespace {

using data::Random;

// Random-stream purposes, distinct from the daily demo's so neither shifts the other.
enum Stream : std::uint64_t { kAssetParams = 101, kMarket = 102, kSector = 103, kIdio = 104, kSize = 105 };

// Monday 2026-01-05 14:30:00 UTC, the US open: exchange time starts here, not at the
// wall clock, so a replayed stream carries the very same timestamps.
constexpr std::int64_t kStartMicros = 1767623400LL * 1000000;
// Per-step volatility of a typical asset's log price (10 basis points).
constexpr double kStepVol = 0.001;

}  // namespace

MarketStream::MarketStream(const std::string& text)
{
    data::DemoSpec spec(text);
    if (spec.name() != "market")
        throw UsageError("live demo '" + spec.name() + "': the only live demo is 'market'");
    const std::int64_t assets = spec.integer("assets", 500, 2, 100000);
    m_sectors = static_cast<std::int32_t>(spec.integer("sectors", 10, 2, assets));
    m_seed = spec.seed("seed", 7);
    m_stepMicros = spec.integer("step_ms", 100, 1, 3600000) * 1000;
    const double corrMarket = spec.real("corr_market", 0.3, 0.0, 0.95);
    const double corrSector = spec.real("corr_sector", 0.7, 0.0, 0.99);
    spec.finish();
    if (corrSector < corrMarket)
        throw UsageError("live demo 'market': corr_sector=" + std::to_string(corrSector) +
                         " must be at least corr_market=" + std::to_string(corrMarket) +
                         " (assets of one sector share the market too)");
    m_canonical = spec.canonical();
    // Variance shares as in the daily demo: market, sector on top of it, the asset's own.
    m_marketScale = kStepVol * std::sqrt(corrMarket);
    m_sectorScale = kStepVol * std::sqrt(corrSector - corrMarket);
    m_idioScale = kStepVol * std::sqrt(1.0 - corrSector);

    const auto n = static_cast<std::size_t>(assets);
    m_symbols.reserve(n);
    m_sector.resize(n);
    m_beta.resize(n);
    m_logPrice.resize(n);
    for (std::int64_t i = 0; i < assets; ++i) {
        // Sectors dealt round-robin, as in the daily demo.
        m_sector[i] = static_cast<std::int32_t>(i % m_sectors);
        m_symbols.push_back(data::marketAssetName(m_sector[i], i, m_sectors, assets));
        Random r(m_seed, kAssetParams, static_cast<std::uint64_t>(i));
        m_beta[i] = r.uniform(0.7, 1.3);
        m_logPrice[i] = std::log(r.uniform(20.0, 200.0));
    }
    m_sectorMove.resize(static_cast<std::size_t>(m_sectors));
}

std::string MarketStream::sectorName(std::int32_t sector) const
{
    // The asset names' own prefix: "S03_A017" is in sector "S03".
    const std::string asset = data::marketAssetName(sector, 0, m_sectors, 1);
    return asset.substr(0, asset.find('_'));
}

void MarketStream::step(std::vector<MarketTick>& out)
{
    ++m_steps;
    const auto t = static_cast<std::uint64_t>(m_steps);
    const double market = m_marketScale * Random(m_seed, kMarket, t).normal();
    for (std::int32_t s = 0; s < m_sectors; ++s)
        m_sectorMove[s] = m_sectorScale * Random(m_seed, kSector, t * static_cast<std::uint64_t>(m_sectors) + s).normal();
    Random noise(m_seed, kIdio, t);
    Random size(m_seed, kSize, t);
    const std::int64_t when = kStartMicros + m_steps * m_stepMicros;
    out.clear();
    out.reserve(m_symbols.size());
    for (std::size_t i = 0; i < m_symbols.size(); ++i) {
        m_logPrice[i] += m_beta[i] * market + m_sectorMove[m_sector[i]] + m_idioScale * noise.normal();
        MarketTick tick;
        tick.exchangeMicros = when;
        tick.asset = static_cast<std::int32_t>(i);
        tick.price = std::exp(m_logPrice[i]);
        tick.size = 100.0 * (1 + size.below(10));  // round lots
        tick.sector = m_sector[i];
        out.push_back(tick);
    }
}

void MarketStream::rotate()
{
    if (m_rotated) return;
    m_rotated = true;
    bool odd = false;
    for (auto& sector : m_sector) {
        if (sector != 0) continue;
        if (odd) sector = 1;
        odd = !odd;
    }
}

}  // namespace clusterdesk::stream
