#include "feed_server.h"

#include "feed_client_link.h"
#include "feed_log.h"

#include "engine/core/error.h"
#include "engine/core/file_bytes.h"

#include <QSslCertificate>
#include <QSslConfiguration>
#include <QSslKey>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTimer>
#include <QWebSocket>
#include <QWebSocketServer>

#include <tuple>

namespace clusterdesk::feed {
namespace {

// A client this far behind (bytes queued, about a second of the whole demo at maximum
// speed) is dropped rather than buffered without bound.
constexpr qint64 kDropBacklog = 64LL << 20;
// A connection that has not subscribed by then is closed (it holds a slot for nothing).
constexpr int kSubscribeTimeoutMs = 10000;

bool loadTls(const FeedOptions& options, QSslConfiguration& tls, QString* problem)
{
    QByteArray certPem, keyPem;
    for (auto [option, path, pem] : {std::tuple{"--cert", &options.certFile, &certPem}, std::tuple{"--key", &options.keyFile, &keyPem}}) {
        try {
            *pem = QByteArray::fromStdString(readFileBytes(path->toStdString()));
        } catch (const DataError& e) {
            *problem = QString(option) + ": " + QString::fromStdString(e.what());
            return false;
        }
    }
    const QSslCertificate certificate(certPem, QSsl::Pem);
    const QSslKey privateKey(keyPem, QSsl::Rsa, QSsl::Pem);
    if (certificate.isNull()) {
        *problem = "--cert " + options.certFile + ": not a PEM certificate";
        return false;
    }
    if (privateKey.isNull()) {
        *problem = "--key " + options.keyFile + ": not a PEM RSA private key";
        return false;
    }
    tls = QSslConfiguration::defaultConfiguration();
    tls.setLocalCertificate(certificate);
    tls.setPrivateKey(privateKey);
    tls.setPeerVerifyMode(QSslSocket::VerifyNone);  // clients prove themselves with the token
    return true;
}

}  // namespace

FeedServer::FeedServer(const FeedOptions& options, std::string stream, std::int64_t symbols, QObject* parent)
    : QObject(parent)
    , m_options(options)
    , m_stream(std::move(stream))
    , m_symbols(symbols)
{
}

bool FeedServer::listen(QString* problem)
{
    const auto mode = m_options.secure() ? QWebSocketServer::SecureMode : QWebSocketServer::NonSecureMode;
    m_webSockets = new QWebSocketServer(QStringLiteral("clusterdesk-feed"), mode, this);
    if (m_options.secure()) {
        QSslConfiguration tls;
        if (!loadTls(m_options, tls, problem)) return false;
        m_webSockets->setSslConfiguration(tls);
        connect(m_webSockets, &QWebSocketServer::sslErrors, this,
                [](const QList<QSslError>& errors) { logLine("TLS handshake failed: " + errors.value(0).errorString()); });
    }
    if (!m_webSockets->listen(m_options.host, m_options.port)) {
        *problem = "cannot listen on " + m_options.host.toString() + ':' + QString::number(m_options.port) + ": " +
                   m_webSockets->errorString();
        return false;
    }
    connect(m_webSockets, &QWebSocketServer::newConnection, this, [this] {
        while (QWebSocket* socket = m_webSockets->nextPendingConnection()) admit(ClientLink::overWebSocket(socket, this));
    });
    // Plain TCP carries no TLS: with a certificate, only wss:// is served.
    if (m_options.secure()) return true;
    m_tcp = new QTcpServer(this);
    if (!m_tcp->listen(m_options.host, m_options.tcpPort)) {
        *problem = "cannot listen on " + m_options.host.toString() + ':' + QString::number(m_options.tcpPort) +
                   " (TCP): " + m_tcp->errorString();
        return false;
    }
    connect(m_tcp, &QTcpServer::newConnection, this, [this] {
        while (QTcpSocket* socket = m_tcp->nextPendingConnection()) admit(ClientLink::overTcp(socket, this));
    });
    return true;
}

QUrl FeedServer::webSocketUrl() const
{
    QUrl url;
    url.setScheme(m_options.secure() ? QStringLiteral("wss") : QStringLiteral("ws"));
    url.setHost(m_webSockets->serverAddress().toString());
    url.setPort(m_webSockets->serverPort());
    return url;
}

QUrl FeedServer::tcpUrl() const
{
    if (!m_tcp) return {};
    QUrl url;
    url.setScheme(QStringLiteral("tcp"));
    url.setHost(m_tcp->serverAddress().toString());
    url.setPort(m_tcp->serverPort());
    return url;
}

void FeedServer::admit(ClientLink* link)
{
    m_links.append(link);
    logLine("client " + link->peer() + " connected (" + QString::number(m_links.size()) + " now)");
    connect(link, &ClientLink::messageReceived, this, [this, link](const QString& text) {
        if (!link->subscribed()) onFirstMessage(link, text);
        // Later messages are ignored: the protocol has nothing more for a client to say.
    });
    connect(link, &ClientLink::disconnected, this, [this, link] {
        // A dropped client was unlisted when it was dropped.
        if (m_links.removeOne(link))
            logLine("client " + link->peer() + " left after " + QString::number(link->sent()) + " ticks (" +
                    QString::number(m_links.size()) + " now)");
        link->deleteLater();
    });
    QTimer::singleShot(kSubscribeTimeoutMs, link, [this, link] {
        if (!link->subscribed()) drop(link, QStringLiteral("no subscribe within 10 s"));
    });
}

void FeedServer::onFirstMessage(ClientLink* link, const QString& text)
{
    std::string problem;
    const auto request = stream::parseSubscribe(text.toStdString(), &problem);
    if (!request) return drop(link, QString::fromStdString(problem));
    if (!m_options.token.isEmpty() && QString::fromStdString(request->token) != m_options.token)
        return drop(link, request->token.empty() ? QStringLiteral("refused: no access token")
                                                 : QStringLiteral("refused: wrong access token"));
    link->subscribe(*request);
    link->sendText(stream::helloMessage(m_stream, m_symbols, m_options.speedText().toStdString()));
    logLine("client " + link->peer() + " subscribed to " +
            (request->all ? QStringLiteral("every symbol") : QString::number(request->symbols.size()) + " symbols"));
}

void FeedServer::drop(ClientLink* link, const QString& why)
{
    logLine("client " + link->peer() + ": " + why);
    m_links.removeOne(link);
    link->sendText(stream::errorMessage(why.toStdString()));
    link->close(why);
    // A peer that never answers the close is not waited on forever.
    QTimer::singleShot(5000, link, &QObject::deleteLater);
}

void FeedServer::broadcast(const std::vector<stream::FeedTick>& batch)
{
    // A copy: dropping a client edits m_links.
    const QList<ClientLink*> links = m_links;
    for (ClientLink* link : links) {
        if (!link->subscribed()) continue;
        if (link->backlog() > kDropBacklog) {
            drop(link, "dropped: " + QString::number(link->backlog() >> 20) + " MiB behind");
            continue;
        }
        for (const stream::FeedTick& tick : batch) {
            if (!link->wants(tick.symbol)) continue;
            link->sendTick(tick);
            ++m_sent;
        }
    }
}

int FeedServer::subscribers() const
{
    int count = 0;
    for (const ClientLink* link : m_links) count += link->subscribed() ? 1 : 0;
    return count;
}

qint64 FeedServer::smallestBacklog() const
{
    qint64 smallest = -1;
    for (const ClientLink* link : m_links)
        if (link->subscribed() && (smallest < 0 || link->backlog() < smallest)) smallest = link->backlog();
    return smallest < 0 ? 0 : smallest;
}

}  // namespace clusterdesk::feed
