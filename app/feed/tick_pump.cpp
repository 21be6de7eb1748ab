#include "tick_pump.h"

#include "feed_log.h"
#include "feed_server.h"

#include <algorithm>
#include <cmath>

namespace clusterdesk::feed {
namespace {

// At maximum speed: a slice of work per event-loop turn, so sockets keep being served.
constexpr qint64 kMaxSliceNanos = 5'000'000;
// ... and no more batches while even the quickest client has this much queued.
constexpr qint64 kPaceBacklog = 4LL << 20;

}  // namespace

TickPump::TickPump(std::unique_ptr<stream::TickPlayer> player, double speed, FeedServer& server, QObject* parent)
    : QObject(parent)
    , m_player(std::move(player))
    , m_speed(speed)
    , m_server(server)
{
    m_timer.setSingleShot(true);
    m_timer.setTimerType(Qt::PreciseTimer);
    connect(&m_timer, &QTimer::timeout, this, &TickPump::pump);
}

void TickPump::start(std::optional<double> rotateAtSeconds)
{
    m_clock.start();
    if (!fetch()) {
        emit finished();
        return;
    }
    m_firstMicros = m_batch.front().exchangeMicros;
    if (rotateAtSeconds) {
        QTimer::singleShot(static_cast<int>(std::lround(*rotateAtSeconds * 1000)), this, &TickPump::rotate);
    }
    m_timer.start(0);
}

void TickPump::rotate()
{
    if (m_player->rotate())
        logLine(QStringLiteral("regime change: sector rotation"));
    else
        logLine(QStringLiteral("this stream has no regime change to make"));
}

bool TickPump::fetch()
{
    // A player may hand out an empty batch; skip to one with ticks or the end.
    while (m_player->next(m_batch))
        if (!m_batch.empty()) return m_haveBatch = true;
    return m_haveBatch = false;
}

bool TickPump::sendWhile(const std::function<bool()>& due)
{
    while (m_haveBatch && due()) {
        m_server.broadcast(m_batch);
        ++m_batches;
        fetch();
    }
    if (!m_haveBatch) emit finished();
    return m_haveBatch;
}

void TickPump::pump()
{
    if (m_speed == 0) {
        // Maximum speed paces on the clients: with none (or all behind) it waits.
        QElapsedTimer slice;
        slice.start();
        const auto clientsReady = [this] { return m_server.subscribers() > 0 && m_server.smallestBacklog() < kPaceBacklog; };
        if (sendWhile([&] { return clientsReady() && slice.nsecsElapsed() < kMaxSliceNanos; }))
            m_timer.start(clientsReady() ? 0 : 1);
        return;
    }
    // Real time scaled: every batch whose exchange time has come goes out now.
    const double exchangeElapsedMicros = static_cast<double>(m_clock.nsecsElapsed()) / 1000.0 * m_speed;
    const auto dueInMicros = [&] {
        return (static_cast<double>(m_batch.front().exchangeMicros - m_firstMicros) - exchangeElapsedMicros) / m_speed;
    };
    if (sendWhile([&] { return dueInMicros() <= 0; }))
        m_timer.start(static_cast<int>(std::clamp(dueInMicros() / 1000.0, 0.0, 1000.0)));
}

}  // namespace clusterdesk::feed
