// The `market` demo as a live stream: the same kind of factor model (a market factor,
// one factor per sector, each asset's own noise) stepped in exchange time, every asset
// ticking once per step. The feed server plays it to clients; tests and benchmarks
// drive it directly. Deterministic from its spec: the same spec gives the same ticks.
//
// Spec: "market[:assets=500,sectors=10,seed=7,step_ms=100,corr_market=0.3,corr_sector=0.7]".
// The correlations are those of two assets' returns over one step (across sectors,
// within one); the live defaults are stronger than the daily demo's so that a minute
// of bars already separates the sectors.
//
// The regime change, rotate(): every other asset of sector 0 (its 2nd, 4th, ... member)
// moves to sector 1 and follows sector 1's factor from the next step on. No other
// sector changes, so a client that keeps identities must keep sectors 2.. as they were.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace clusterdesk::stream {

struct MarketTick {
    std::int64_t exchangeMicros = 0;  // microseconds since the epoch
    std::int32_t asset = 0;           // index into MarketStream::symbols()
    double price = 0;
    double size = 0;
    std::int32_t sector = 0;          // the asset's sector at this tick (the truth)
};

class MarketStream {
public:
    // UsageError for a malformed spec, an unknown key or a value out of range.
    explicit MarketStream(const std::string& spec);

    const std::string& canonical() const { return m_canonical; }
    const std::vector<std::string>& symbols() const { return m_symbols; }
    std::int64_t stepMicros() const { return m_stepMicros; }
    std::int32_t sectors() const { return m_sectors; }
    // "S03": the sector's name as it appears in the asset names and the feed messages.
    std::string sectorName(std::int32_t sector) const;
    std::int32_t sectorOf(std::int32_t asset) const { return m_sector[static_cast<std::size_t>(asset)]; }
    // Steps taken so far; the next step's ticks carry time start + (steps + 1) x step.
    std::int64_t steps() const { return m_steps; }
    bool rotated() const { return m_rotated; }

    // The next step: every asset's tick, in asset order (out is cleared first).
    void step(std::vector<MarketTick>& out);
    // The regime change described above; a second call changes nothing.
    void rotate();

private:
    std::string m_canonical;
    std::uint64_t m_seed = 0;
    std::int32_t m_sectors = 0;
    std::int64_t m_stepMicros = 0;
    double m_marketScale = 0, m_sectorScale = 0, m_idioScale = 0;  // per-step volatilities
    std::vector<std::string> m_symbols;
    std::vector<std::int32_t> m_sector;
    std::vector<double> m_beta, m_logPrice;
    std::vector<double> m_sectorMove;
    std::int64_t m_steps = 0;
    bool m_rotated = false;
};

}  // namespace clusterdesk::stream
