// A ticks file as a TickPlayer: read and checked whole before anything is served, then
// played in time order, one batch per timestamp.
#include "tick_player.h"

#include "engine/data/tick_file.h"

namespace clusterdesk::stream {
namespace {

class TickFilePlayer final : public TickPlayer {
public:
    explicit TickFilePlayer(const std::string& path) : m_path(path)
    {
        const std::function<bool(double)> noProgress;
        data::Progress progress(noProgress);
        m_file = data::readTickFile(path, progress);
    }
    std::string stream() const override { return m_path; }
    std::int64_t symbolCount() const override { return static_cast<std::int64_t>(m_file.symbols.size()); }
    bool next(std::vector<FeedTick>& batch) override
    {
        batch.clear();
        const auto& ticks = m_file.ticks;
        if (m_next >= ticks.size()) return false;
        const std::int64_t when = ticks[m_next].micros;
        for (; m_next < ticks.size() && ticks[m_next].micros == when; ++m_next) {
            FeedTick tick;
            tick.symbol = m_file.symbols[static_cast<std::size_t>(ticks[m_next].symbol)];
            tick.price = ticks[m_next].price;
            tick.size = ticks[m_next].size;
            tick.exchangeMicros = when;
            batch.push_back(std::move(tick));
        }
        return true;
    }

private:
    std::string m_path;
    data::TickFile m_file;
    std::size_t m_next = 0;
};

}  // namespace

std::unique_ptr<TickPlayer> tickFilePlayer(const std::string& path)
{
    return std::make_unique<TickFilePlayer>(path);
}

}  // namespace clusterdesk::stream
