#include "tick_inbox.h"

#include "engine/core/error.h"

#include <algorithm>

namespace clusterdesk::stream {

TickInbox::TickInbox(std::string source, std::int64_t barSeconds) : m_bars(std::move(source), barSeconds) {}

void TickInbox::add(const FeedTick& tick, std::int64_t receiptMicros)
{
    std::lock_guard lock(m_mutex);
    try {
        // The receipt stamp rides along as the tick's id: a bar's close knows when it came.
        m_bars.add(tick.exchangeMicros, tick.symbol, tick.price, tick.size, receiptMicros);
    } catch (const DataError&) {
        ++m_late;  // out of time order: its bar may already be published
        return;
    }
    if (!tick.sector.empty()) m_sector[tick.symbol] = tick.sector;
}

std::vector<ReceivedBar> TickInbox::takeClosed()
{
    std::vector<data::Bar> closed;
    {
        std::lock_guard lock(m_mutex);
        closed = m_bars.takeClosed();
    }
    std::vector<ReceivedBar> out;
    out.reserve(closed.size());
    for (data::Bar& bar : closed) {
        ReceivedBar received;
        for (const data::SymbolBar& s : bar.symbols)
            received.newestReceiptMicros = std::max(received.newestReceiptMicros, s.closeTickId);
        received.bar = std::move(bar);
        out.push_back(std::move(received));
    }
    return out;
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
