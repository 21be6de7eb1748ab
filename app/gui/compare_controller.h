// Wires the Compare tab to session::runComparison: the window's dataset and Engine
// panel parameters on the topologies picked, measured ones run for real (and recorded
// in the run store like any run), modeled ones predicted from the catalog. The
// comparison blocks, so it runs on a thread of its own and reports each topology as it
// finishes through queued calls; Cancel sets an atomic flag the run in progress reads
// every iteration, so the window never waits.
#pragma once

#include "engine/catalog/hardware_catalog.h"
#include "engine/session/comparison.h"

#include <QObject>
#include <QThread>

#include <atomic>
#include <functional>

namespace clusterdesk::ui {
class CompareView;
class MainWindow;
}  // namespace clusterdesk::ui

namespace clusterdesk::gui {

class CompareController : public QObject {
    Q_OBJECT
public:
    // Adds the Compare tab to the window. storePath: the run store the comparison and
    // its runs are recorded in; empty: nothing is recorded.
    CompareController(ui::MainWindow& window, const QString& storePath, QObject* parent = nullptr);
    // Cancels a comparison in progress and waits for it (it stops within an iteration).
    ~CompareController() override;

    ui::CompareView& view() { return *m_view; }
    bool running() const { return m_running; }
    // Asked before each comparison: why it cannot start now (a run of the window is
    // timing the same cores), or an empty string when it can.
    void setBusyCheck(std::function<QString()> check) { m_busy = std::move(check); }

public slots:
    // Compares on these topology spellings; an error in the view when there is no data,
    // no topology, or a spelling the engine refuses (nothing runs then).
    void start(const QStringList& topologies);
    void cancel();

signals:
    // The comparison ended, done or cancelled; comparisonId is empty when not recorded.
    void finished(const QString& comparisonId, bool cancelled);
    // It could not run, or its result could not be recorded.
    void failed(const QString& message);

private:
    class Worker;

    // On the comparison thread: runs it, and posts each outcome, the progress, the
    // scaling curve and the end back to the window's thread. Touches only the atomic
    // flag and the worker's store there.
    void compareOnWorker(session::ComparisonRequest request, int count);
    void done(const QString& comparisonId, bool cancelled, int finishedCount, int count);
    void fail(const QString& message);

    ui::MainWindow& m_window;
    ui::CompareView* m_view = nullptr;
    HardwareCatalog m_catalog;
    QThread m_thread;
    Worker* m_worker = nullptr;  // lives on m_thread
    std::function<QString()> m_busy;
    std::atomic<bool> m_cancel{false};
    bool m_running = false;
};

}  // namespace clusterdesk::gui
