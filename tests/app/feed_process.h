// A running clusterdesk-feed for the live-feed suites: started with the given
// arguments, its URLs read from its first stdout lines, stopped (SIGINT) on destruction.
#pragma once

#include <QProcess>
#include <QStringList>
#include <QTest>
#include <QUrl>

#include <csignal>
#include <memory>

namespace clusterdesk::test {

class FeedProcess {
public:
    explicit FeedProcess(const QStringList& arguments)
    {
        m_process.setProgram(QStringLiteral(CLUSTERDESK_BIN_DIR "/clusterdesk-feed"));
        m_process.setArguments(arguments);
        m_process.start();
        started = m_process.waitForStarted(10000);
        // The URLs are the first lines; a server that cannot listen prints none and exits.
        while (started && m_lines.size() < (arguments.contains("--cert") ? 1 : 2) &&
               m_process.state() == QProcess::Running) {
            if (m_process.canReadLine() || m_process.waitForReadyRead(20000)) {
                while (m_process.canReadLine()) m_lines << QString::fromUtf8(m_process.readLine()).trimmed();
            } else {
                break;
            }
        }
    }
    ~FeedProcess()
    {
        if (m_process.state() == QProcess::Running) {
            ::kill(static_cast<pid_t>(m_process.processId()), SIGKILL);
            m_process.waitForFinished(10000);
        }
    }
    QUrl webSocketUrl() const { return QUrl(m_lines.value(0)); }
    QUrl tcpUrl() const { return QUrl(m_lines.value(1)); }
    QProcess& process() { return m_process; }
    // Sends a signal and waits for the exit; the exit code, or -1 if it did not exit.
    int stop(int signal)
    {
        ::kill(static_cast<pid_t>(m_process.processId()), signal);
        if (!m_process.waitForFinished(20000)) return -1;
        return m_process.exitStatus() == QProcess::NormalExit ? m_process.exitCode() : -1;
    }
    QString log() { return QString::fromUtf8(m_process.readAllStandardError()); }
    bool started = false;

private:
    QProcess m_process;
    QStringList m_lines;
};

}  // namespace clusterdesk::test
