// The workstation window: docked panels (Data, Engine, Topology; movable, their layout
// kept between sessions) around a central tab area of graphs, Run and Cancel in the
// toolbar, run progress in the status bar. It never runs anything: it asks through
// signals and draws what its RunSet holds, at most at screen rate. The set starts with
// the live run, the one Run starts and the status bar follows; other runs join it to
// be drawn beside it.
//
// Adding a tab is addTab(widget, title); adding a panel is addPanel(widget, title):
// a new file plus one line in the constructor.
#pragma once

#include "run_set.h"

#include "engine/core/output_file.h"

#include <QMainWindow>

#include <memory>
#include <vector>

class QAction;
class QDockWidget;
class QTabWidget;
class QTimer;

namespace clusterdesk {
struct Dataset;
}

namespace clusterdesk::ui {

class DataPanel;
class EnginePanel;
class MembersView;
class ErrorBanner;
class PlotView;
class RunStatus;
class TopologyPanel;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    void addTab(QWidget* page, const QString& title);
    QString aboutText() const;      // Help > About: versions of ClusterDesk, Qt, OpenBLAS, CUDA
    QString shortcutsText() const;  // Help > Keyboard shortcuts: every action's keys
    QDockWidget* addPanel(QWidget* panel, const QString& title, Qt::DockWidgetArea area = Qt::LeftDockWidgetArea);

    RunSet& runs() { return m_runs; }
    RunSeries& liveRun() { return *m_live; }
    DataPanel& dataPanel() { return *m_dataPanel; }
    EnginePanel& enginePanel() { return *m_enginePanel; }
    MembersView& membersView() { return *m_members; }
    TopologyPanel& topologyPanel() { return *m_topologyPanel; }
    QTabWidget& tabs() { return *m_tabs; }
    ErrorBanner& errorBanner() { return *m_errors; }
    RunStatus& runStatus() { return *m_status; }
    QAction* runAction() const { return m_run; }
    QAction* cancelAction() const { return m_cancel; }
    QAction* exportReportAction() const { return m_exportReport; }

    // The dataset the next run uses (shown in the title and the Data panel).
    void setDataset(std::shared_ptr<const Dataset> data);
    std::shared_ptr<const Dataset> dataset() const { return m_dataset; }
    // Selects the tab with this title (case-insensitive); false when there is none.
    bool showTab(const QString& title);
    QStringList tabTitles() const;

    // Redraws every graph now (screenshots, the end of a run).
    void refreshAll();
    // Files no graph export may replace (the run store's), for the graphs of every tab,
    // those added later included.
    void keepFromExports(const std::vector<ProtectedFile>& files);

public slots:
    void showError(const QString& message);
    // starting: what the run does before its first iteration, for the status bar.
    void setRunning(bool running, const QString& starting = {});

signals:
    void runRequested();
    void cancelRequested();
    void exportReportRequested();
    // The window is closing: a run in progress must stop.
    void closing();

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    void createActions();
    void refreshVisible();
    void saveLayout();

    void restoreLayout();

    RunSet m_runs;
    RunSeries* m_live = nullptr;  // a member of m_runs, never removed
    std::shared_ptr<const Dataset> m_dataset;
    QTabWidget* m_tabs = nullptr;
    ErrorBanner* m_errors = nullptr;
    RunStatus* m_status = nullptr;
    QTimer* m_clock = nullptr;  // the status bar counts while a run is on, even when nothing else changes
    DataPanel* m_dataPanel = nullptr;
    EnginePanel* m_enginePanel = nullptr;
    MembersView* m_members = nullptr;
    TopologyPanel* m_topologyPanel = nullptr;
    std::vector<PlotView*> m_plots;
    std::vector<ProtectedFile> m_keep;  // what no graph export may replace
    QTimer* m_redraw = nullptr;
    QAction* m_run = nullptr;
    QAction* m_cancel = nullptr;
    QAction* m_exportReport = nullptr;
    bool m_running = false;
};

}  // namespace clusterdesk::ui
