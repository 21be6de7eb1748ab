// The workstation: the main window wired to a run thread (RunController) and a data
// thread (DataLoader). The window only draws and asks; everything heavy runs on those
// threads and answers through queued signals, so the window never waits.
#pragma once

#include "run_controller.h"

#include "engine/core/output_file.h"
#include "ui/main_window.h"

#include <QObject>
#include <QThread>

#include <memory>

namespace clusterdesk::gui {

class CompareController;
class DataLoader;
class HistoryController;
class LiveController;
class PoolProbe;

// The job the window offers first: AdaptGrow in exact mode, k between 2 and 32.
KMeansParams defaultParams();

class Workstation : public QObject {
    Q_OBJECT
public:
    // storePath: the run store every run is recorded in, listed in the History tab;
    // empty: runs are not recorded and there is no History tab.
    explicit Workstation(const QString& storePath = {});
    // Cancels a run or load in progress and joins both threads (a run stops within
    // an iteration).
    ~Workstation() override;

    ui::MainWindow& window() { return *m_window; }
    RunController& controller() { return *m_controller; }
    bool running() const { return m_running; }
    HistoryController* history() { return m_history.get(); }  // null without a store
    CompareController& compare() { return *m_compare; }
    LiveController& live() { return *m_live; }

    // Generates a demo on the data thread; datasetReady() or an error follows.
    void loadDemo(const QString& spec);
    // Writes the Members table as CSV to path (checked, through a temporary file); false,
    // with the error shown, when it cannot.
    bool exportMembers(const QString& path);

public slots:
    void startRun();
    void cancelRun();
    // File > Export members: asks where, then exportMembers.
    void chooseMembersFile();

signals:
    void datasetReady();
    void loadFailed(const QString& message);
    void runFinished(const clusterdesk::ui::RunOutcome& outcome);

private:
    void wireData();
    void wireRun();
    void wireHistory(const QString& storePath);
    void wireCompare(const QString& storePath);
    void wirePoolProbe();
    void detectGpus();
    void shutdown();

    std::unique_ptr<ui::MainWindow> m_window;
    QThread m_runThread;
    QThread m_dataThread;
    RunController* m_controller = nullptr;  // lives on m_runThread, deleted when it finishes
    std::vector<ProtectedFile> m_storeFiles;  // the run store's files: no file loaded as data, none written over
    DataLoader* m_loader = nullptr;         // lives on m_dataThread, deleted when it finishes
    PoolProbe* m_poolProbe = nullptr;       // the pool editor's connection test (UI thread)
    std::unique_ptr<QThread> m_gpuProbe;  // finds the local GPUs once, at start
    bool m_running = false;
    std::unique_ptr<HistoryController> m_history;  // destroyed before the window it draws in
    std::unique_ptr<CompareController> m_compare;  // the same; it cancels and joins its comparison first
    std::unique_ptr<LiveController> m_live;        // the same; it stops a live session first
};

}  // namespace clusterdesk::gui
