// The status bar's run progress: a bar, the iteration count and an ETA.
#pragma once

#include <QWidget>

#include <chrono>

class QLabel;
class QProgressBar;

namespace clusterdesk::ui {

class RunSeries;

class RunStatus : public QWidget {
    Q_OBJECT
public:
    explicit RunStatus(QWidget* parent = nullptr);

    // Called at screen rate with the live run's state.
    void refresh(const RunSeries& model, bool adaptGrow);
    // A run starts: the clock from zero, and what the run is doing until its first
    // iteration ("Initialising", "Starting the node pool (4 ranks)"), shown at once.
    void startClock(const QString& starting);
    QString text() const;

private:
    QProgressBar* m_bar = nullptr;
    QLabel* m_label = nullptr;
    std::chrono::steady_clock::time_point m_start;
    QString m_starting;
};

}  // namespace clusterdesk::ui
