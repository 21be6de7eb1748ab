#include "tick_inbox.h"

#include "engine/core/error.h"

#include <utility>

namespace clusterdesk::stream {

TickInbox::TickInbox(std::string source, std::int64_t barSeconds) : m_bars(std::move(source), barSeconds) {}

void TickInbox::add(const FeedTick& tick, std::int64_t receiptMicros)
{
    std::unique_lock lock(m_mutex);
    try {
        m_bars.add(tick.exchangeMicros, tick.symbol, tick.price, tick.size);
    } catch (const DataError&) {
        ++m_late;  // out of time order: its bar may already be published
        return;
    }
    if (!tick.sector.empty()) m_sector[tick.symbol] = tick.sector;
    std::vector<data::Bar> closed = m_bars.takeClosed();
    if (closed.empty()) return;
    for (data::Bar& bar : closed) m_closed.push_back(ReceivedBar{std::move(bar), receiptMicros});
    lock.unlock();
    m_barClosed.notify_all();
}

bool TickInbox::waitForClosed(std::chrono::milliseconds timeout)
{
    std::unique_lock lock(m_mutex);
    return m_barClosed.wait_for(lock, timeout, [this] { return !m_closed.empty(); });
}

std::vector<ReceivedBar> TickInbox::takeClosed()
{
    std::lock_guard lock(m_mutex);
    return std::exchange(m_closed, {});
}

std::vector<std::string> TickInbox::symbols() const
{
    std::lock_guard lock(m_mutex);
    return m_bars.symbols();
}

std::unordered_map<std::string, std::string> TickInbox::sectors() const
{
    std::lock_guard lock(m_mutex);
    return m_sector;
}

std::int64_t TickInbox::ticks() const
{
    std::lock_guard lock(m_mutex);
    return m_bars.tickCount();
}

std::int64_t TickInbox::lateTicks() const
{
    std::lock_guard lock(m_mutex);
    return m_late;
}

}  // namespace clusterdesk::stream
