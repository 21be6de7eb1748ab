// The node pool's connection test: starts `mpirun ... clusterdesk-worker --probe` as a
// child process (an argument list, never a shell string) and reads rank 0's JSON lines,
// one per rank: its host, backend and device. Asynchronous on the UI thread (QProcess),
// so the window keeps drawing; a pool that does not answer within the timeout is stopped.
#pragma once

#include "engine/exec/pool_launcher.h"
#include "ui/panels/pool_editor.h"

#include <QList>
#include <QObject>
#include <QString>

class QProcess;
class QTimer;

namespace clusterdesk::gui {

class PoolProbe : public QObject {
    Q_OBJECT
public:
    explicit PoolProbe(QObject* parent = nullptr);
    // Stops a probe in progress (mpirun takes its ranks down on SIGTERM).
    ~PoolProbe() override;

    // topology: "pool:N" or "pool:HOSTFILE". A probe already running is stopped first.
    void start(const QString& topology, const PoolOptions& options, int timeoutMs = 60000);

signals:
    // Every rank's answer in rank order, or why the test failed (error non-empty).
    void finished(const QList<clusterdesk::ui::RankProbe>& ranks, const QString& error);

private:
    void done(int exitCode, bool crashed);
    void stop();

    QProcess* m_process = nullptr;
    QTimer* m_timeout = nullptr;
    QString m_command;  // for messages
    int m_expected = 0;
    bool m_timedOut = false;
};

}  // namespace clusterdesk::gui
