#include "pool_probe.h"

#include "engine/exec/topology.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTimer>

#include <exception>
#include <stdexcept>

namespace clusterdesk::gui {
namespace {

// The last lines of a process's stderr, for an error message.
QString tail(const QByteArray& text, int lines = 6)
{
    QStringList all = QString::fromUtf8(text).trimmed().split('\n');
    if (all.size() > lines) all = all.mid(all.size() - lines);
    return all.join('\n');
}

}  // namespace

PoolProbe::PoolProbe(QObject* parent)
    : QObject(parent)
    , m_timeout(new QTimer(this))
{
    m_timeout->setSingleShot(true);
    // Never waits on the UI thread: SIGTERM now, SIGKILL a few seconds later if needed.
    connect(m_timeout, &QTimer::timeout, this, [this] {
        if (!m_process) return;
        m_timedOut = true;
        m_process->terminate();
        QTimer::singleShot(3000, m_process, [process = m_process] { process->kill(); });
    });
}

PoolProbe::~PoolProbe()
{
    if (m_process) {
        m_process->disconnect(this);
        stop();
    }
}

// The window is closing or a new probe replaces this one: wait briefly for mpirun.
void PoolProbe::stop()
{
    if (!m_process || m_process->state() == QProcess::NotRunning) return;
    m_process->terminate();
    if (!m_process->waitForFinished(3000)) m_process->kill();
}

void PoolProbe::start(const QString& topologySpec, const PoolOptions& options, int timeoutMs)
{
    if (m_process) {
        m_process->disconnect(this);
        stop();
        m_process->deleteLater();
        m_process = nullptr;
    }
    std::vector<std::string> argv;
    try {
        const Topology topology = parseTopology(topologySpec.toStdString());
        if (!topology.isPool()) throw std::invalid_argument("'" + toString(topology) + "' is not a pool");
        m_expected = topology.ranks;
        const std::string worker = options.workerPath.empty() ? defaultWorkerPath() : options.workerPath;
        argv = poolLaunchCommand(topology, options, {worker, "--probe"});
    } catch (const std::exception& e) {
        emit finished({}, tr("Cannot test the pool: %1").arg(QString::fromStdString(e.what())));
        return;
    }
    QStringList args;
    for (std::size_t i = 1; i < argv.size(); ++i) args << QString::fromStdString(argv[i]);
    m_command = QString::fromStdString(argv[0]) + ' ' + args.join(' ');
    m_timedOut = false;
    m_process = new QProcess(this);
    connect(m_process, &QProcess::finished, this,
            [this](int exitCode, QProcess::ExitStatus status) { done(exitCode, status == QProcess::CrashExit); });
    connect(m_process, &QProcess::errorOccurred, this, [this](QProcess::ProcessError error) {
        if (error != QProcess::FailedToStart) return;  // the others end in finished()
        const QString why = m_process->errorString();
        m_timeout->stop();
        m_process->deleteLater();
        m_process = nullptr;
        emit finished({}, tr("Cannot start the launcher (%1): %2").arg(m_command, why));
    });
    m_process->start(QString::fromStdString(argv[0]), args);
    m_timeout->start(timeoutMs);
}

void PoolProbe::done(int exitCode, bool crashed)
{
    m_timeout->stop();
    const QByteArray out = m_process->readAllStandardOutput();
    const QByteArray err = m_process->readAllStandardError();
    m_process->deleteLater();
    m_process = nullptr;

    QList<ui::RankProbe> ranks;
    for (const QByteArray& line : out.split('\n')) {
        const QJsonObject o = QJsonDocument::fromJson(line).object();
        if (o.value("type").toString() != "probe") continue;
        ui::RankProbe r;
        r.rank = o.value("rank").toInt();
        r.host = o.value("host").toString();
        r.backend = o.value("backend").toString();
        r.device = o.value("device").toString();
        if (const int gpus = o.value("gpus").toInt(); gpus > 0)
            r.device += gpus == 1 ? tr(" (the node has 1 GPU)") : tr(" (the node has %1 GPUs)").arg(gpus);
        ranks << r;
    }
    QString error;
    if (m_timedOut)
        error = tr("no answer from the pool within the time limit; stopped %1").arg(m_command);
    else if (crashed || exitCode != 0)
        error = tr("%1 failed (%2)").arg(m_command, crashed ? tr("crashed") : tr("exit status %1").arg(exitCode));
    else if (ranks.size() != m_expected)
        error = tr("%1 ranks answered, %2 expected (%3)").arg(ranks.size()).arg(m_expected).arg(m_command);
    if (!error.isEmpty() && !err.trimmed().isEmpty()) error += '\n' + tail(err);
    emit finished(error.isEmpty() ? ranks : QList<ui::RankProbe>{}, error);
}

}  // namespace clusterdesk::gui
