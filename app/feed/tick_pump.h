// Plays a TickPlayer against the wall clock: at speed N an exchange second lasts 1/N
// wall seconds; at maximum speed batches go out as fast as the quickest client takes
// them (never faster, so nothing queues without bound). Also fires the scheduled
// regime change, in wall-clock seconds whatever the speed.
#pragma once

#include "engine/stream/tick_player.h"

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

#include <functional>
#include <memory>
#include <optional>

namespace clusterdesk::feed {

class FeedServer;

class TickPump : public QObject {
    Q_OBJECT
public:
    // speed 0 = maximum.
    TickPump(std::unique_ptr<stream::TickPlayer> player, double speed, FeedServer& server, QObject* parent = nullptr);

    void start(std::optional<double> rotateAtSeconds);
    std::int64_t batches() const { return m_batches; }
    // The player's regime change, now (--rotate-at's timer, or SIGUSR1).
    void rotate();

signals:
    // The player ran out (a ticks file played to its end).
    void finished();

private:
    void pump();
    // Broadcasts batches while due() holds; false (and finished()) when the player ended.
    bool sendWhile(const std::function<bool()>& due);
    bool fetch();  // the next batch into m_batch; false at the end

    std::unique_ptr<stream::TickPlayer> m_player;
    double m_speed;
    FeedServer& m_server;
    QTimer m_timer;
    QElapsedTimer m_clock;
    std::vector<stream::FeedTick> m_batch;
    bool m_haveBatch = false;
    std::int64_t m_firstMicros = 0;
    std::int64_t m_batches = 0;
};

}  // namespace clusterdesk::feed
