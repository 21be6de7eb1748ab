// A live feed, from the consumer's side: connects by URL (ws://, wss://, tcp://),
// subscribes (with the token from a file or CLUSTERDESK_FEED_TOKEN, never from a command
// line others can read), and keeps going: its socket runs on its own thread, every
// message is stamped on receipt and checked, bad ones are counted by reason and
// skipped, sequence gaps are counted, and a dropped connection is retried with backoff.
// Ticks go into a TickInbox, so the client never waits for the consumer.
#pragma once

#include "engine/stream/feed_message.h"
#include "engine/stream/tick_inbox.h"

#include <QObject>
#include <QString>
#include <QUrl>

#include <array>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

class QThread;

namespace clusterdesk::live {

class FeedConnection;
struct SharedStats;

struct FeedClientOptions {
    QUrl url;
    std::vector<std::string> symbols;  // empty: every symbol
    QString token;                     // see readFeedToken
};

// The token for a feed: the first line of tokenFile when given, else the environment's
// CLUSTERDESK_FEED_TOKEN, else empty. UsageError for a file that cannot be read.
QString readFeedToken(const QString& tokenFile);

// What the client has seen, for a status line or panel.
struct FeedStats {
    enum class State { Connecting, Connected, Reconnecting, Refused, Stopped } state = State::Connecting;
    QString stream;                   // the server's hello: what it plays
    std::int64_t connections = 0;     // sockets opened to the feed (it says hello next)
    std::int64_t messages = 0;        // every message received, good or bad
    std::int64_t ticks = 0;           // good ticks handed to the inbox
    std::int64_t gaps = 0;            // sequence gaps, and the messages they skipped
    std::int64_t missing = 0;
    std::int64_t duplicates = 0;      // a sequence number seen again
    std::int64_t outOfOrder = 0;      // a sequence number below the highest seen
    std::int64_t reconnects = 0;
    std::array<std::int64_t, stream::kBadMessageKinds> bad{};  // by stream::BadMessage
    double messagesPerSecond = 0;     // over the last second or so
    QString lastProblem;              // the latest refusal, drop or bad message, in words
    std::int64_t badTotal() const;
    // The reasons that occurred, with their counts, in BadMessage's order; none when
    // every message was good.
    std::vector<std::pair<std::string, std::int64_t>> badReasons() const;
    // The same in words: "2 malformed JSON, 1 unknown field".
    QString badByReason() const;
};
QString describe(FeedStats::State state);

class FeedClient : public QObject {
    Q_OBJECT
public:
    FeedClient(FeedClientOptions options, stream::TickInbox& inbox, QObject* parent = nullptr);
    ~FeedClient() override;

    // Starts the connection thread; stop() (or the destructor) ends it.
    void start();
    void stop();
    // A snapshot, safe from any thread.
    FeedStats stats() const;

signals:
    // Queued from the connection thread on every state change.
    void stateChanged(clusterdesk::live::FeedStats::State state, const QString& detail);

private:
    FeedClientOptions m_options;
    stream::TickInbox& m_inbox;
    QThread* m_thread = nullptr;
    FeedConnection* m_connection = nullptr;  // lives on m_thread
    std::shared_ptr<SharedStats> m_stats;
};

}  // namespace clusterdesk::live
