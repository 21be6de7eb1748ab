// One connected client of the feed server, whichever transport it came by (a WebSocket,
// or plain TCP with one JSON message per line): its subscription, its own sequence
// numbers, and how much it has not yet taken. The server sees only this interface.
#pragma once

#include "engine/stream/feed_message.h"

#include <QObject>
#include <QString>

#include <unordered_set>

class QTcpSocket;
class QWebSocket;

namespace clusterdesk::feed {

class ClientLink : public QObject {
    Q_OBJECT
public:
    // Takes ownership of the socket (deleted with the link).
    static ClientLink* overWebSocket(QWebSocket* socket, QObject* parent);
    static ClientLink* overTcp(QTcpSocket* socket, QObject* parent);

    QString peer() const { return m_peer; }
    bool subscribed() const { return m_subscribed; }
    // Applies a subscribe request (the token already checked by the server).
    void subscribe(const stream::Subscribe& request);
    bool wants(const std::string& symbol) const;
    // Numbers the tick for this client and queues it.
    void sendTick(stream::FeedTick tick);
    void sendText(const std::string& message);
    // Bytes queued for the client and not yet written to the network.
    virtual qint64 backlog() const = 0;
    // Closes the connection; disconnected() follows.
    virtual void close(const QString& why) = 0;
    std::int64_t sent() const { return m_seq; }

signals:
    void messageReceived(const QString& text);
    void disconnected();

protected:
    ClientLink(QString peer, QObject* parent);
    virtual void write(const std::string& message) = 0;

private:
    QString m_peer;
    bool m_subscribed = false;
    bool m_all = true;
    std::unordered_set<std::string> m_symbols;
    std::int64_t m_seq = 0;
};

}  // namespace clusterdesk::feed
