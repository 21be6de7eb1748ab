#include "main_window.h"

#include "error_banner.h"
#include "members/members_view.h"
#include "panels/data_panel.h"
#include "panels/engine_panel.h"
#include "panels/topology_panel.h"
#include "plots/clusters_plot.h"
#include "plots/evolution_plot.h"
#include "plots/latency_plot.h"
#include "plots/power_plot.h"
#include "run_status.h"
#include "wheel_guard.h"

#include "engine/cluster/cluster_codec.h"
#include "engine/data/dataset.h"
#include "engine/report/report_content.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>
#include <QStatusBar>
#include <QTabWidget>
#include <QTimer>
#include <QToolBar>
#include <QVBoxLayout>

namespace clusterdesk::ui {
namespace {

// Screen rate: new iterations and samples are drawn at most this often.
constexpr int kRedrawMs = 40;

}  // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent)
{
    setObjectName("mainWindow");
    setWindowTitle(tr("ClusterDesk"));
    // One guard for the whole application (dialogs' boxes too), owned by it.
    if (qApp && !qApp->findChild<WheelGuard*>()) qApp->installEventFilter(new WheelGuard(qApp));
    setDockOptions(AnimatedDocks | AllowTabbedDocks);

    auto* central = new QWidget(this);
    auto* layout = new QVBoxLayout(central);
    layout->setContentsMargins(4, 4, 4, 4);
    m_errors = new ErrorBanner(central);
    m_tabs = new QTabWidget(central);
    m_tabs->setObjectName("tabs");
    layout->addWidget(m_errors);
    layout->addWidget(m_tabs, 1);
    setCentralWidget(central);

    m_live = &m_runs.add("live", tr("this run"));
    addTab(new ClustersPlot(m_tabs), tr("Clusters"));
    m_members = new MembersView(m_tabs);
    m_tabs->addTab(m_members, tr("Members"));
    addTab(new EvolutionPlot(m_tabs), tr("Evolution"));
    addTab(new LatencyPlot(m_tabs), tr("Latency"));
    addTab(new PowerPlot(m_tabs), tr("Power"));

    m_dataPanel = new DataPanel(this);
    m_enginePanel = new EnginePanel(this);
    m_topologyPanel = new TopologyPanel(this);
    connect(m_topologyPanel, &TopologyPanel::onGpusChanged, m_enginePanel, &EnginePanel::setOnGpus);
    m_enginePanel->setOnGpus(m_topologyPanel->onGpus());
    addPanel(m_dataPanel, tr("Data"));
    QDockWidget* engine = addPanel(m_enginePanel, tr("Engine"));
    QDockWidget* topology = addPanel(m_topologyPanel, tr("Topology"));
    tabifyDockWidget(engine, topology);
    engine->raise();

    m_status = new RunStatus(this);
    statusBar()->addPermanentWidget(m_status, 1);
    createActions();

    // Every change of the model restarts nothing: the first one arms a single-shot
    // timer, later ones within the same frame ride along.
    m_redraw = new QTimer(this);
    m_redraw->setSingleShot(true);
    m_redraw->setInterval(kRedrawMs);
    connect(m_redraw, &QTimer::timeout, this, &MainWindow::refreshVisible);
    m_clock = new QTimer(this);
    m_clock->setInterval(250);
    connect(m_clock, &QTimer::timeout, this,
            [this] { m_status->refresh(*m_live, m_enginePanel->params().algorithm == Algorithm::AdaptGrow); });
    connect(&m_runs, &RunSet::changed, this, [this] {
        if (!m_redraw->isActive()) m_redraw->start();
    });
    connect(&m_runs, &RunSet::runFinished, this, &MainWindow::refreshAll);
    connect(m_tabs, &QTabWidget::currentChanged, this, &MainWindow::refreshVisible);

    resize(1280, 800);
    restoreLayout();
    setRunning(false);
}

MainWindow::~MainWindow() = default;

void MainWindow::addTab(QWidget* page, const QString& title)
{
    m_tabs->addTab(page, title);
    if (auto* plot = qobject_cast<PlotView*>(page)) m_plots.push_back(plot);
    keepFromExports(m_keep);
}

void MainWindow::keepFromExports(const std::vector<ProtectedFile>& files)
{
    m_keep = files;
    for (PlotView* plot : findChildren<PlotView*>()) plot->keepFromExports(m_keep);
}

QDockWidget* MainWindow::addPanel(QWidget* panel, const QString& title, Qt::DockWidgetArea area)
{
    auto* dock = new QDockWidget(title, this);
    dock->setObjectName(panel->objectName() + "Dock");  // saveState() finds docks by name
    dock->setWidget(panel);
    dock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable | QDockWidget::DockWidgetClosable);
    addDockWidget(area, dock);
    if (QMenu* view = menuBar()->findChild<QMenu*>("viewMenu")) view->addAction(dock->toggleViewAction());
    return dock;
}

void MainWindow::createActions()
{
    QMenu* fileMenu = menuBar()->addMenu(tr("&File"));
    m_exportReport = new QAction(QIcon::fromTheme("document-export"), tr("Export &report..."), this);
    m_exportReport->setObjectName("exportReportAction");
    m_exportReport->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    m_exportReport->setToolTip(tr("A report of the runs selected in History, as HTML or PDF (Ctrl+E)"));
    connect(m_exportReport, &QAction::triggered, this, &MainWindow::exportReportRequested);
    fileMenu->addAction(m_exportReport);
    auto* exportMembers = new QAction(tr("Export &members..."), this);
    exportMembers->setObjectName("exportMembersAction");
    exportMembers->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_M));
    exportMembers->setToolTip(tr("Every asset of the clustering shown, with its cluster, as CSV (Ctrl+M)"));
    connect(exportMembers, &QAction::triggered, m_members, &MembersView::exportRequested);
    fileMenu->addAction(exportMembers);

    QMenu* runMenu = menuBar()->addMenu(tr("&Run"));
    m_run = new QAction(QIcon::fromTheme("media-playback-start"), tr("&Run"), this);
    m_run->setObjectName("runAction");
    m_run->setShortcuts({QKeySequence(Qt::CTRL | Qt::Key_R), QKeySequence(Qt::Key_F5)});
    m_run->setToolTip(tr("Cluster the loaded dataset with the Engine and Topology settings (Ctrl+R, F5)"));
    connect(m_run, &QAction::triggered, this, &MainWindow::runRequested);
    m_cancel = new QAction(QIcon::fromTheme("process-stop"), tr("&Cancel"), this);
    m_cancel->setObjectName("cancelAction");
    m_cancel->setShortcuts({QKeySequence(Qt::Key_Escape), QKeySequence(Qt::CTRL | Qt::Key_Period)});
    m_cancel->setToolTip(tr("Stop the run after the current iteration (Esc)"));
    connect(m_cancel, &QAction::triggered, this, &MainWindow::cancelRequested);
    auto* quit = new QAction(tr("&Quit"), this);
    quit->setShortcut(QKeySequence::Quit);
    connect(quit, &QAction::triggered, this, &QWidget::close);
    runMenu->addAction(m_run);
    runMenu->addAction(m_cancel);
    runMenu->addSeparator();
    runMenu->addAction(quit);

    QMenu* view = menuBar()->addMenu(tr("&View"));
    view->setObjectName("viewMenu");
    for (QDockWidget* dock : findChildren<QDockWidget*>()) view->addAction(dock->toggleViewAction());

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->setObjectName("helpMenu");
    auto* shortcuts = help->addAction(tr("&Keyboard shortcuts"));
    shortcuts->setObjectName("shortcutsAction");
    shortcuts->setShortcut(QKeySequence::HelpContents);
    connect(shortcuts, &QAction::triggered, this, [this] {
        QMessageBox::information(this, tr("Keyboard shortcuts"), shortcutsText());
    });
    auto* about = help->addAction(tr("&About ClusterDesk"));
    about->setObjectName("aboutAction");
    connect(about, &QAction::triggered, this, [this] { QMessageBox::about(this, tr("About ClusterDesk"), aboutText()); });

    QToolBar* toolbar = addToolBar(tr("Run"));
    toolbar->setObjectName("runToolbar");
    toolbar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    toolbar->addAction(m_run);
    toolbar->addAction(m_cancel);
}

void MainWindow::setDataset(std::shared_ptr<const Dataset> data)
{
    m_dataset = std::move(data);
    if (!m_dataset) return;
    setWindowTitle(tr("ClusterDesk - %1 (%2 x %3)")
                       .arg(QString::fromStdString(m_dataset->source))
                       .arg(m_dataset->rows)
                       .arg(m_dataset->cols));
    m_dataPanel->showDataset(m_dataset);
    setRunning(m_running);
}

bool MainWindow::showTab(const QString& title)
{
    for (int i = 0; i < m_tabs->count(); ++i) {
        if (m_tabs->tabText(i).compare(title, Qt::CaseInsensitive) == 0) {
            m_tabs->setCurrentIndex(i);
            return true;
        }
    }
    return false;
}

QStringList MainWindow::tabTitles() const
{
    QStringList titles;
    for (int i = 0; i < m_tabs->count(); ++i) titles << m_tabs->tabText(i);
    return titles;
}

void MainWindow::showError(const QString& message)
{
    m_errors->showMessage(message);
    statusBar()->showMessage(message, 10000);
}

void MainWindow::setRunning(bool running, const QString& starting)
{
    m_running = running;
    m_run->setEnabled(!running && m_dataset != nullptr);
    m_cancel->setEnabled(running);
    m_enginePanel->setEnabled(!running);
    m_topologyPanel->setEnabled(!running);
    m_dataPanel->setEnabled(!running);
    if (running && !m_clock->isActive()) {
        m_status->startClock(starting.isEmpty() ? tr("Initialising") : starting);
        m_clock->start();
    } else if (!running) {
        m_clock->stop();
    }
}

void MainWindow::refreshVisible()
{
    if (auto* plot = qobject_cast<PlotView*>(m_tabs->currentWidget())) plot->refresh(m_runs);
    m_status->refresh(*m_live, m_enginePanel->params().algorithm == Algorithm::AdaptGrow);
}

void MainWindow::refreshAll()
{
    for (PlotView* plot : m_plots) plot->refresh(m_runs);
    m_status->refresh(*m_live, m_enginePanel->params().algorithm == Algorithm::AdaptGrow);
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    emit closing();
    saveLayout();
    event->accept();
}

QString MainWindow::aboutText() const
{
    // The versions a bug report needs, the same the reports print.
    QString text = tr("<p><b>ClusterDesk</b>: clustering workstation for quants, exact answers on every topology.</p><table>");
    for (const auto& [name, value] : report::exportEnvironment())
        text += "<tr><td>" + QString::fromStdString(name).toHtmlEscaped() + "</td><td>" + QString::fromStdString(value).toHtmlEscaped() + "</td></tr>";
    text += "<tr><td>Qt</td><td>" + QString::fromLatin1(qVersion()) + "</td></tr></table>";
    return text;
}

QString MainWindow::shortcutsText() const
{
    // Read from the actions themselves, so the list never drifts from what the keys do.
    QStringList lines;
    for (const QAction* action : findChildren<QAction*>()) {
        if (action->shortcuts().isEmpty() || action->text().isEmpty()) continue;
        QStringList keys;
        for (const QKeySequence& key : action->shortcuts()) keys << key.toString(QKeySequence::NativeText);
        lines << QString("%1\t%2").arg(keys.join(", "), QString(action->text()).remove('&'));
    }
    lines.sort();
    return lines.join('\n');
}

void MainWindow::saveLayout()
{
    QSettings settings;
    settings.setValue("window/geometry", saveGeometry());
    settings.setValue("window/state", saveState());
    // The Engine panel as it was left: a quant's usual k, mode and seed come back.
    settings.setValue("engine/params", QString::fromStdString(codec::toJson(m_enginePanel->params()).dump()));
}

void MainWindow::restoreLayout()
{
    QSettings settings;
    restoreGeometry(settings.value("window/geometry").toByteArray());
    restoreState(settings.value("window/state").toByteArray());
    const QString params = settings.value("engine/params").toString();
    if (params.isEmpty()) return;
    try {
        m_enginePanel->setParams(codec::paramsFromJson(nlohmann::json::parse(params.toStdString())));
    } catch (const std::exception&) {
        // Settings from another version, or edited by hand: the defaults stay.
    }
}

}  // namespace clusterdesk::ui
