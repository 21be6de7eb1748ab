// The feed server's clients: accepts WebSocket and plain-TCP connections, admits a
// client on its subscribe message (with the token, when one is required), and hands
// each batch of ticks to every subscribed client. A client that falls too far behind
// is dropped, so no client can slow the server or the others.
#pragma once

#include "engine/stream/feed_message.h"
#include "feed_options.h"

#include <QList>
#include <QObject>
#include <QUrl>

#include <vector>

class QTcpServer;
class QWebSocketServer;

namespace clusterdesk::feed {

class ClientLink;

class FeedServer : public QObject {
    Q_OBJECT
public:
    FeedServer(const FeedOptions& options, std::string stream, std::int64_t symbols, QObject* parent = nullptr);

    // Binds both listeners; false with why in *problem.
    bool listen(QString* problem);
    QUrl webSocketUrl() const;
    QUrl tcpUrl() const;  // empty when only wss:// is served

    // Sends the batch to every subscribed client that wants each symbol.
    void broadcast(const std::vector<stream::FeedTick>& batch);
    // Subscribed clients, and the smallest backlog among them (the pace at maximum speed).
    int subscribers() const;
    qint64 smallestBacklog() const;
    int clientCount() const { return m_links.size(); }
    std::int64_t messagesSent() const { return m_sent; }

private:
    void admit(ClientLink* link);
    void onFirstMessage(ClientLink* link, const QString& text);
    void drop(ClientLink* link, const QString& why);

    FeedOptions m_options;
    std::string m_stream;
    std::int64_t m_symbols;
    QWebSocketServer* m_webSockets = nullptr;
    QTcpServer* m_tcp = nullptr;
    QList<ClientLink*> m_links;
    std::int64_t m_sent = 0;
};

}  // namespace clusterdesk::feed
