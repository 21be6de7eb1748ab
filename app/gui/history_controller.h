// Wires the History tab and the Lineage view to the run store. Every store call runs
// on a thread of its own (listing, loading a run's rows, regenerating or reloading its
// dataset for the Clusters graph, deleting, comparing), so the window never waits on
// SQLite; answers come back as queued calls. It also says how the next run is
// recorded: which store, where its dataset came from, and, for a re-run, the run it
// re-runs (a `rerun` lineage edge) with that run's recorded parameters and topology.
#pragma once

#include "run_controller.h"

#include "engine/store/run_store.h"

#include <QObject>
#include <QThread>

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>

namespace clusterdesk::ui {
class CompareDialog;
class HistoryView;
class MainWindow;
}  // namespace clusterdesk::ui

namespace clusterdesk::gui {

class HistoryController : public QObject {
    Q_OBJECT
public:
    // Adds the History tab to the window; storePath is the run store every run is
    // recorded in (created when missing).
    HistoryController(ui::MainWindow& window, const QString& storePath, QObject* parent = nullptr);
    // Waits for the store call in progress.
    ~HistoryController() override;

    const QString& storePath() const { return m_storePath; }
    ui::HistoryView& view() { return *m_view; }
    // The compare dialog, once a comparison was asked for.
    ui::CompareDialog* compareDialog() const { return m_compare; }

    // Fills job's store path for the job about to start; when a re-run is pending, also
    // the re-run run's parameters, topology and threads (then the re-run is done).
    void prepare(RunJob& job);

public slots:
    void refresh();
    // A run of this window is in the store: the list refreshes, and a re-run is held
    // to the run it repeats (rerunChecked says how it compares).
    void runRecorded(const QString& runId);
    void showRun(const QString& runId);
    void rerun(const QString& runId);
    void deleteRun(const QString& runId);
    void compare(const QString& first, const QString& second);
    // A report of these runs written to path (.html or .pdf) and recorded in the store;
    // an empty path asks for one. On the window's thread: the report draws the graphs,
    // which are widgets (a report of 10,000 assets takes about a second).
    void exportReport(const QStringList& runIds, const QString& path = QString());

signals:
    void refreshed();
    // A recorded run is in the graphs (runId), or could not be shown (message).
    void runShown(const QString& runId);
    // The re-run's dataset is in the window: start it.
    void rerunReady();
    void deleted(const QString& runId);
    void compared(const QString& first, const QString& second);
    // A re-run against its original: "reproduced bit for bit", or the ARI of its labels.
    void rerunChecked(const QString& message);
    void reportExported(const QString& path);
    void failed(const QString& message);

private:
    struct Rerun {
        std::string fromRunId;
        KMeansParams params;
        std::string topology;
        int threads = 0;
        std::shared_ptr<const Dataset> data;  // the re-run is of this dataset only
    };
    class Worker;

    // Runs work(store) on the store thread; a StoreError or other failure becomes
    // failed() with what was being done.
    void onStore(const QString& doing, std::function<void(store::RunStore&)> work);
    // Back on the window's thread.
    void post(std::function<void()> then);

    ui::MainWindow& m_window;
    ui::HistoryView* m_view = nullptr;
    ui::CompareDialog* m_compare = nullptr;
    QString m_storePath;
    QThread m_thread;
    Worker* m_worker = nullptr;  // lives on m_thread
    std::optional<Rerun> m_pendingRerun;
    QString m_runningRerunOf;  // the run the run in progress repeats, if it is a re-run
    bool m_warnedLost = false;  // what the store lost since this machine wrote it is shown once
};

}  // namespace clusterdesk::gui
