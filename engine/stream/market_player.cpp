// The live market demo as a TickPlayer: a step of the MarketStream is one batch, each
// tick carrying its asset's current sector so that clients can score themselves.
#include "market_stream.h"
#include "tick_player.h"

namespace clusterdesk::stream {
namespace {

class MarketPlayer final : public TickPlayer {
public:
    explicit MarketPlayer(const std::string& spec) : m_market(spec)
    {
        for (std::int32_t s = 0; s < m_market.sectors(); ++s) m_sectorNames.push_back(m_market.sectorName(s));
    }
    std::string stream() const override { return m_market.canonical(); }
    std::int64_t symbolCount() const override { return static_cast<std::int64_t>(m_market.symbols().size()); }
    bool next(std::vector<FeedTick>& batch) override
    {
        m_market.step(m_ticks);
        batch.resize(m_ticks.size());
        for (std::size_t i = 0; i < m_ticks.size(); ++i) {
            const MarketTick& t = m_ticks[i];
            FeedTick& out = batch[i];
            out.symbol = m_market.symbols()[static_cast<std::size_t>(t.asset)];
            out.price = t.price;
            out.size = t.size;
            out.exchangeMicros = t.exchangeMicros;
            out.sector = m_sectorNames[static_cast<std::size_t>(t.sector)];
        }
        return true;
    }
    bool rotate() override
    {
        m_market.rotate();
        return true;
    }

private:
    MarketStream m_market;
    std::vector<std::string> m_sectorNames;
    std::vector<MarketTick> m_ticks;
};

}  // namespace

std::unique_ptr<TickPlayer> marketPlayer(const std::string& spec)
{
    return std::make_unique<MarketPlayer>(spec);
}

}  // namespace clusterdesk::stream
