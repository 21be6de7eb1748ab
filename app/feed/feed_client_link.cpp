#include "feed_client_link.h"

#include <QTcpSocket>
#include <QWebSocket>

namespace clusterdesk::feed {
namespace {

class WebSocketLink final : public ClientLink {
public:
    WebSocketLink(QWebSocket* socket, QObject* parent)
        : ClientLink(socket->peerAddress().toString() + ':' + QString::number(socket->peerPort()), parent)
        , m_socket(socket)
    {
        socket->setParent(this);
        connect(socket, &QWebSocket::textMessageReceived, this, &ClientLink::messageReceived);
        connect(socket, &QWebSocket::disconnected, this, &ClientLink::disconnected);
    }
    qint64 backlog() const override { return m_socket->bytesToWrite(); }
    void close(const QString& why) override { m_socket->close(QWebSocketProtocol::CloseCodePolicyViolated, why); }

protected:
    void write(const std::string& message) override { m_socket->sendTextMessage(QString::fromStdString(message)); }

private:
    QWebSocket* m_socket;
};

// Newline-delimited JSON: the client's messages are its lines.
class TcpLink final : public ClientLink {
public:
    TcpLink(QTcpSocket* socket, QObject* parent)
        : ClientLink(socket->peerAddress().toString() + ':' + QString::number(socket->peerPort()), parent)
        , m_socket(socket)
    {
        socket->setParent(this);
        connect(socket, &QTcpSocket::readyRead, this, [this] {
            while (m_socket->canReadLine()) emit messageReceived(QString::fromUtf8(m_socket->readLine()).trimmed());
            // A peer that sends a "line" of megabytes without a newline is not a feed client.
            if (m_socket->bytesAvailable() > kMaxLine) close(QStringLiteral("message too long"));
        });
        connect(socket, &QTcpSocket::disconnected, this, &ClientLink::disconnected);
    }
    qint64 backlog() const override { return m_socket->bytesToWrite(); }
    void close(const QString&) override { m_socket->disconnectFromHost(); }

protected:
    void write(const std::string& message) override
    {
        m_socket->write(message.data(), static_cast<qint64>(message.size()));
        m_socket->write("\n", 1);
    }

private:
    static constexpr qint64 kMaxLine = 1 << 20;
    QTcpSocket* m_socket;
};

}  // namespace

ClientLink::ClientLink(QString peer, QObject* parent) : QObject(parent), m_peer(std::move(peer)) {}

ClientLink* ClientLink::overWebSocket(QWebSocket* socket, QObject* parent)
{
    return new WebSocketLink(socket, parent);
}

ClientLink* ClientLink::overTcp(QTcpSocket* socket, QObject* parent)
{
    return new TcpLink(socket, parent);
}

void ClientLink::subscribe(const stream::Subscribe& request)
{
    m_subscribed = true;
    m_all = request.all;
    m_symbols = std::unordered_set<std::string>(request.symbols.begin(), request.symbols.end());
}

bool ClientLink::wants(const std::string& symbol) const
{
    return m_subscribed && (m_all || m_symbols.count(symbol));
}

void ClientLink::sendTick(stream::FeedTick tick)
{
    tick.seq = ++m_seq;
    write(stream::tickMessage(tick));
}

void ClientLink::sendText(const std::string& message)
{
    write(message);
}

}  // namespace clusterdesk::feed
