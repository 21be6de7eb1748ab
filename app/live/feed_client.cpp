#include "feed_client.h"

#include "feed_connection.h"

#include "engine/core/error.h"
#include "engine/core/file_bytes.h"

#include <QStringList>
#include <QThread>

namespace clusterdesk::live {

QString readFeedToken(const QString& tokenFile)
{
    if (tokenFile.isEmpty()) return qEnvironmentVariable("CLUSTERDESK_FEED_TOKEN").trimmed();
    try {
        return QString::fromStdString(readFirstLine(tokenFile.toStdString())).trimmed();
    } catch (const DataError& e) {
        throw UsageError(std::string("token file: ") + e.what());
    }
}

std::int64_t FeedStats::badTotal() const
{
    std::int64_t total = 0;
    for (std::int64_t count : bad) total += count;
    return total;
}

std::vector<std::pair<std::string, std::int64_t>> FeedStats::badReasons() const
{
    std::vector<std::pair<std::string, std::int64_t>> out;
    for (std::size_t reason = 0; reason < bad.size(); ++reason)
        if (bad[reason] > 0) out.emplace_back(stream::describe(static_cast<stream::BadMessage>(reason)), bad[reason]);
    return out;
}

QString FeedStats::badByReason() const
{
    QStringList parts;
    for (const auto& [reason, count] : badReasons()) parts << QString("%1 %2").arg(count).arg(QString::fromStdString(reason));
    return parts.join(", ");
}

QString describe(FeedStats::State state)
{
    switch (state) {
    case FeedStats::State::Connecting: return QStringLiteral("connecting");
    case FeedStats::State::Connected: return QStringLiteral("connected");
    case FeedStats::State::Reconnecting: return QStringLiteral("reconnecting");
    case FeedStats::State::Refused: return QStringLiteral("refused");
    case FeedStats::State::Stopped: return QStringLiteral("stopped");
    }
    return QStringLiteral("unknown");
}

FeedClient::FeedClient(FeedClientOptions options, stream::TickInbox& inbox, QObject* parent)
    : QObject(parent)
    , m_options(std::move(options))
    , m_inbox(inbox)
    , m_stats(std::make_shared<SharedStats>())
{
    // An invalid URL (port 99999) prints as nothing; its error quotes what was typed.
    if (!m_options.url.isValid()) throw UsageError("feed URL: " + m_options.url.errorString().toStdString());
    const QString scheme = m_options.url.scheme();
    if (scheme != QLatin1String("ws") && scheme != QLatin1String("wss") && scheme != QLatin1String("tcp"))
        throw UsageError("feed URL " + m_options.url.toString().toStdString() + ": expected ws://, wss:// or tcp://HOST:PORT");
    if (m_options.url.host().isEmpty() || m_options.url.port() <= 0)
        throw UsageError("feed URL " + m_options.url.toString().toStdString() + ": expected a host and a port");
}

FeedClient::~FeedClient()
{
    stop();
}

void FeedClient::start()
{
    if (m_thread) return;
    m_thread = new QThread(this);
    m_thread->setObjectName(QStringLiteral("feed ") + m_options.url.toString());
    m_connection = new FeedConnection(m_options, m_inbox, m_stats, *this);
    m_connection->moveToThread(m_thread);
    connect(m_thread, &QThread::finished, m_connection, &QObject::deleteLater);
    m_thread->start();
    QMetaObject::invokeMethod(m_connection, &FeedConnection::open, Qt::QueuedConnection);
}

void FeedClient::stop()
{
    if (!m_thread) return;
    QMetaObject::invokeMethod(m_connection, &FeedConnection::shutdown, Qt::BlockingQueuedConnection);
    m_thread->quit();
    m_thread->wait();
    delete m_thread;
    m_thread = nullptr;
    m_connection = nullptr;  // deleted on the thread's finish
}

FeedStats FeedClient::stats() const
{
    std::lock_guard lock(m_stats->mutex);
    return m_stats->stats;
}

}  // namespace clusterdesk::live
