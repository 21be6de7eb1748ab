// SIGINT and SIGTERM (stop) and SIGUSR1 (the demo's regime change, now) as Qt signals: the handler only writes a byte to a pipe (all a
// signal handler may safely do) and the event loop reads it, so shutdown runs as
// ordinary code: close the listeners, log, exit 0.
#pragma once

#include <QObject>

class QSocketNotifier;

namespace clusterdesk::feed {

class SignalWatch : public QObject {
    Q_OBJECT
public:
    explicit SignalWatch(QObject* parent = nullptr);

signals:
    void stopRequested(int signal);
    void rotateRequested();

private:
    QSocketNotifier* m_notifier = nullptr;
};

}  // namespace clusterdesk::feed
