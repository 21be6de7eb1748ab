// Where a feed client drops its ticks and a live session picks up bars: a BarAggregator
// behind a mutex, so the socket thread never waits on the clustering and memory stays
// bounded at any message rate (ticks coalesce into the open bar; closed bars wait for
// the consumer, one per bar interval). Also keeps each symbol's latest sector, the
// truth a demo feed carries.
#pragma once

#include "engine/data/bar_aggregator.h"
#include "feed_message.h"

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace clusterdesk::stream {

// A closed bar and when it became complete: the receipt (steady-clock microseconds) of
// the tick that closed it, the first of the next bar. That tick is what makes an update
// due, so the receive-to-published latency of the update starts there.
struct ReceivedBar {
    data::Bar bar;
    std::int64_t completedMicros = 0;
};

class TickInbox {
public:
    // source names the feed in errors; barSeconds as in BarAggregator.
    TickInbox(std::string source, std::int64_t barSeconds);

    // From the socket thread. A tick whose exchange time is earlier than the previous
    // tick's (bars are built in time order) is refused and counted, never thrown.
    void add(const FeedTick& tick, std::int64_t receiptMicros);
    // From the consumer: bars closed since the last call, oldest first.
    std::vector<ReceivedBar> takeClosed();
    // Waits until a closed bar is waiting or `timeout` passed: a consumer that sleeps
    // until there is work wakes the moment a bar closes, and costs nothing meanwhile.
    bool waitForClosed(std::chrono::milliseconds timeout);
    // Every symbol seen so far (SymbolBar::symbol indexes it) and its latest sector.
    std::vector<std::string> symbols() const;
    std::unordered_map<std::string, std::string> sectors() const;
    std::int64_t ticks() const;
    std::int64_t lateTicks() const;

private:
    mutable std::mutex m_mutex;
    std::condition_variable m_barClosed;
    data::BarAggregator m_bars;
    std::unordered_map<std::string, std::string> m_sector;
    std::int64_t m_late = 0;
    std::vector<ReceivedBar> m_closed;
};

}  // namespace clusterdesk::stream
