#include "feed_connection.h"

#include "engine/core/printable.h"

#include <QSslConfiguration>
#include <QTcpSocket>
#include <QWebSocket>

#include <chrono>

namespace clusterdesk::live {
namespace {

// Reconnection backoff: first retry soon (a server restart takes a moment), then
// doubling, capped so a long outage is still noticed within seconds of its end.
constexpr int kFirstBackoffMs = 100;
constexpr int kMaxBackoffMs = 5000;
// A "line" this long without a newline is not a feed message.
constexpr qint64 kMaxLine = 1 << 20;

std::int64_t steadyMicros()
{
    return std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

}  // namespace

FeedConnection::FeedConnection(FeedClientOptions options, stream::TickInbox& inbox,
                               std::shared_ptr<SharedStats> stats, FeedClient& client)
    : m_options(std::move(options))
    , m_inbox(inbox)
    , m_stats(std::move(stats))
    , m_client(client)
    , m_retry(this)
    , m_rate(this)
    , m_backoffMs(kFirstBackoffMs)
{
    m_retry.setSingleShot(true);
    connect(&m_retry, &QTimer::timeout, this, &FeedConnection::connectNow);
    connect(&m_rate, &QTimer::timeout, this, [this] {
        std::lock_guard lock(m_stats->mutex);
        const double seconds = static_cast<double>(m_rateClock.restart()) / 1000.0;
        if (seconds > 0)
            m_stats->stats.messagesPerSecond = static_cast<double>(m_stats->stats.messages - m_messagesAtLastRate) / seconds;
        m_messagesAtLastRate = m_stats->stats.messages;
    });
}

void FeedConnection::open()
{
    m_rateClock.start();
    m_rate.start(1000);
    connectNow();
}

void FeedConnection::connectNow()
{
    if (m_stopping) return;
    dropSocket();
    setState(m_everConnected ? FeedStats::State::Reconnecting : FeedStats::State::Connecting, m_options.url.toString());
    // The server numbers each connection's messages from 1.
    m_sequence.restart();
    const QString scheme = m_options.url.scheme();
    if (scheme == QLatin1String("tcp")) {
        m_tcp = new QTcpSocket(this);
        connect(m_tcp, &QTcpSocket::connected, this, &FeedConnection::onConnected);
        connect(m_tcp, &QTcpSocket::readyRead, this, [this] {
            while (m_tcp && m_tcp->canReadLine()) onMessage(QString::fromUtf8(m_tcp->readLine()).trimmed());
            if (m_tcp && m_tcp->bytesAvailable() > kMaxLine) onDropped(QStringLiteral("a message without end (over 1 MiB)"));
        });
        connect(m_tcp, &QTcpSocket::errorOccurred, this, [this] { onDropped(m_tcp->errorString()); });
        m_tcp->connectToHost(m_options.url.host(), static_cast<quint16>(m_options.url.port()));
        return;
    }
    m_webSocket = new QWebSocket(QString(), QWebSocketProtocol::VersionLatest, this);
    if (scheme == QLatin1String("wss")) {
        // The feed's certificate is usually self-signed on a private network; the token,
        // not the certificate chain, is what admits a client. Encryption still holds.
        QSslConfiguration tls = QSslConfiguration::defaultConfiguration();
        tls.setPeerVerifyMode(QSslSocket::VerifyNone);
        m_webSocket->setSslConfiguration(tls);
    }
    connect(m_webSocket, &QWebSocket::connected, this, &FeedConnection::onConnected);
    connect(m_webSocket, &QWebSocket::textMessageReceived, this, &FeedConnection::onMessage);
    connect(m_webSocket, &QWebSocket::disconnected, this, [this] {
        // The server's reason; else the socket's error ("Connection refused"), which says
        // more than that the connection closed.
        QString why = m_webSocket->closeReason();
        if (why.isEmpty()) why = m_webSocket->error() != QAbstractSocket::UnknownSocketError ? m_webSocket->errorString() : QStringLiteral("connection closed");
        onDropped(why);
    });
    m_webSocket->open(m_options.url);
}

void FeedConnection::onConnected()
{
    {
        std::lock_guard lock(m_stats->mutex);
        ++m_stats->stats.connections;
    }
    stream::Subscribe request;
    request.all = m_options.symbols.empty();
    request.symbols = m_options.symbols;
    request.token = m_options.token.toStdString();
    const std::string text = stream::subscribeMessage(request);
    if (m_webSocket) m_webSocket->sendTextMessage(QString::fromStdString(text));
    if (m_tcp) m_tcp->write(QByteArray::fromStdString(text + '\n'));
}

void FeedConnection::onMessage(const QString& text)
{
    const std::int64_t received = steadyMicros();
    const stream::ParsedMessage parsed = stream::parseServerMessage(text.toStdString());
    std::unique_lock lock(m_stats->mutex);
    FeedStats& stats = m_stats->stats;
    ++stats.messages;
    if (!parsed.message) {
        ++stats.bad[static_cast<std::size_t>(parsed.reason)];
        // The detail quotes the peer's bytes; the problem is shown in terminals.
        stats.lastProblem = QStringLiteral("bad message (%1): %2")
                                .arg(QString::fromUtf8(stream::describe(parsed.reason)), QString::fromStdString(printable(parsed.detail)));
        return;
    }
    const stream::FeedMessage& message = *parsed.message;
    switch (message.kind) {
    case stream::FeedMessage::Kind::Hello:
        stats.stream = QString::fromStdString(printable(message.text));
        lock.unlock();
        m_backoffMs = kFirstBackoffMs;
        m_everConnected = true;
        setState(FeedStats::State::Connected, QString::fromStdString(message.text));
        return;
    case stream::FeedMessage::Kind::Error:
        stats.lastProblem = QString::fromStdString(printable(message.text));
        // A refusal (token) will not change by retrying: stop and say so.
        if (message.text.rfind("refused", 0) == 0) {
            lock.unlock();
            m_stopping = true;
            setState(FeedStats::State::Refused, QString::fromStdString(message.text));
        }
        return;
    case stream::FeedMessage::Kind::Tick: break;
    }
    std::int64_t missing = 0;
    switch (m_sequence.check(message.tick.seq, &missing)) {
    case stream::SequenceChecker::Verdict::Duplicate: ++stats.duplicates; return;
    case stream::SequenceChecker::Verdict::OutOfOrder: ++stats.outOfOrder; return;
    case stream::SequenceChecker::Verdict::Gap:
        ++stats.gaps;
        stats.missing += missing;
        break;
    case stream::SequenceChecker::Verdict::First:
    case stream::SequenceChecker::Verdict::Next: break;
    }
    ++stats.ticks;
    lock.unlock();
    m_inbox.add(message.tick, received);
}

void FeedConnection::onDropped(const QString& why)
{
    // One drop, however many signals report it; and none after a refusal or stop.
    if (m_retry.isActive() || m_stopping) return;
    {
        std::lock_guard lock(m_stats->mutex);
        m_stats->stats.lastProblem = why;
    }
    if (m_everConnected) {
        std::lock_guard lock(m_stats->mutex);
        ++m_stats->stats.reconnects;
    }
    setState(FeedStats::State::Reconnecting, QStringLiteral("%1; retrying in %2 ms").arg(why).arg(m_backoffMs));
    m_retry.start(m_backoffMs);
    m_backoffMs = std::min(m_backoffMs * 2, kMaxBackoffMs);
}

void FeedConnection::shutdown()
{
    m_stopping = true;
    m_retry.stop();
    m_rate.stop();
    dropSocket();
    setState(FeedStats::State::Stopped, QString());
}

void FeedConnection::dropSocket()
{
    // Disconnect first: closing must not report itself as a drop.
    if (m_webSocket) {
        m_webSocket->disconnect(this);
        m_webSocket->abort();
        m_webSocket->deleteLater();
        m_webSocket = nullptr;
    }
    if (m_tcp) {
        m_tcp->disconnect(this);
        m_tcp->abort();
        m_tcp->deleteLater();
        m_tcp = nullptr;
    }
}

void FeedConnection::setState(FeedStats::State state, const QString& detail)
{
    {
        std::lock_guard lock(m_stats->mutex);
        m_stats->stats.state = state;
    }
    emit m_client.stateChanged(state, detail);
}

}  // namespace clusterdesk::live
