// The feed client's working half, living on the client's own thread: one socket at a
// time (WebSocket or newline-delimited TCP), the subscribe handshake, message checks,
// sequence tracking and reconnection with backoff. Internal to FeedClient.
#pragma once

#include "feed_client.h"

#include "engine/stream/feed_message.h"

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

#include <mutex>

class QTcpSocket;
class QWebSocket;

namespace clusterdesk::live {

struct SharedStats {
    mutable std::mutex mutex;
    FeedStats stats;
};

class FeedConnection : public QObject {
    Q_OBJECT
public:
    FeedConnection(FeedClientOptions options, stream::TickInbox& inbox, std::shared_ptr<SharedStats> stats,
                   FeedClient& client);

public slots:
    void open();
    // Closes the socket for good (no reconnect); called on the connection's thread.
    void shutdown();

private:
    void connectNow();
    void onConnected();
    void onMessage(const QString& text);
    void onDropped(const QString& why);
    void setState(FeedStats::State state, const QString& detail);
    void dropSocket();

    FeedClientOptions m_options;
    stream::TickInbox& m_inbox;
    std::shared_ptr<SharedStats> m_stats;
    FeedClient& m_client;
    QWebSocket* m_webSocket = nullptr;
    QTcpSocket* m_tcp = nullptr;
    stream::SequenceChecker m_sequence;
    QTimer m_retry;
    QTimer m_rate;
    std::int64_t m_messagesAtLastRate = 0;
    QElapsedTimer m_rateClock;
    int m_backoffMs;
    bool m_everConnected = false;
    bool m_stopping = false;
};

}  // namespace clusterdesk::live
