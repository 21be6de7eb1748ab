#include "workstation.h"

#include "compare_controller.h"
#include "data_loader.h"
#include "history_controller.h"
#include "live_controller.h"
#include "pool_probe.h"

#include "engine/core/output_file.h"
#include "engine/store/store_path.h"
#include "engine/exec/topology.h"
#include "engine/report/membership.h"
#include "kernels/backend_registry.h"
#include "ui/file_dialog.h"
#include "ui/members/members_view.h"
#include "ui/error_banner.h"
#include "ui/panels/data_panel.h"
#include "ui/panels/engine_panel.h"
#include "ui/panels/pool_editor.h"
#include "ui/panels/topology_panel.h"

#include <QAction>
#include <QFileDialog>
#include <QStatusBar>

namespace clusterdesk::gui {
namespace {

void registerMetaTypes()
{
    qRegisterMetaType<IterationStats>();
    qRegisterMetaType<ui::ClusterProjection>();
    qRegisterMetaType<ui::RunOutcome>();
    qRegisterMetaType<ui::PowerBatch>();
    qRegisterMetaType<ui::FilePreview>();
    qRegisterMetaType<std::shared_ptr<const Dataset>>();
    qRegisterMetaType<RunJob>();
    qRegisterMetaType<std::shared_ptr<const report::Membership>>();
}

// "GPU 0 NVIDIA H200, 140 GiB" per usable device, or the reason there is none. Loads
// the CUDA plug-in and creates each device's backend: seconds on a GPU machine, so it
// runs off the UI thread.
std::pair<QStringList, QString> probeGpus()
{
    QStringList gpus;
    const kernels::CudaAvailability cuda = kernels::cudaAvailability();
    for (int i = 0; i < cuda.deviceCount; ++i) {
        try {
            gpus << QString("cuda:%1  %2").arg(i).arg(QString::fromStdString(kernels::createBackend("cuda:" + std::to_string(i))->deviceName()));
        } catch (const std::exception& e) {
            gpus << QString("cuda:%1  (unusable: %2)").arg(i).arg(QString::fromStdString(e.what()));
        }
    }
    return {gpus, QString::fromStdString(cuda.reason)};
}

// What a run does before its first iteration, for the status bar: a pool's ranks are
// launched (seconds, with mpirun) before anything is computed.
QString startingText(const QString& topology)
{
    try {
        const Topology t = parseTopology(topology.toStdString());
        if (t.isPool()) return Workstation::tr("Starting the node pool (%1 ranks)").arg(t.ranks);
    } catch (const Error&) {
        // The run itself reports a topology it cannot use.
    }
    return Workstation::tr("Initialising");
}

}  // namespace

KMeansParams defaultParams()
{
    KMeansParams params;
    params.algorithm = Algorithm::AdaptGrow;
    params.k0 = 2;  // k max stays the engine's default (64), as in clusterdesk-cli
    params.mode = kernels::Mode::Exact;
    return params;
}

Workstation::Workstation(const QString& storePath)
    : m_window(std::make_unique<ui::MainWindow>())
{
    registerMetaTypes();
    m_window->enginePanel().setParams(defaultParams());
    m_controller = new RunController;
    m_controller->moveToThread(&m_runThread);
    connect(&m_runThread, &QThread::finished, m_controller, &QObject::deleteLater);
    if (!storePath.isEmpty()) m_storeFiles = store::storeFiles(storePath.toStdString());
    m_window->keepFromExports(m_storeFiles);
    m_loader = new DataLoader(m_storeFiles);
    m_loader->moveToThread(&m_dataThread);
    connect(&m_dataThread, &QThread::finished, m_loader, &QObject::deleteLater);
    m_runThread.setObjectName("run");
    m_dataThread.setObjectName("data");
    m_runThread.start();
    m_dataThread.start();
    wireData();
    wireRun();
    wirePoolProbe();
    detectGpus();
    if (!storePath.isEmpty()) wireHistory(storePath);
    wireCompare(storePath);
    m_live = std::make_unique<LiveController>(*m_window, storePath);
}

Workstation::~Workstation()
{
    shutdown();
}

void Workstation::shutdown()
{
    m_live->stop();
    m_controller->requestCancel();
    m_loader->requestCancel();
    m_runThread.quit();
    m_dataThread.quit();
    m_runThread.wait();
    m_dataThread.wait();
    if (m_gpuProbe) m_gpuProbe->wait();
}

void Workstation::wireData()
{
    ui::DataPanel& panel = m_window->dataPanel();
    connect(&panel, &ui::DataPanel::previewRequested, m_loader, &DataLoader::preview);
    connect(m_loader, &DataLoader::previewReady, &panel, &ui::DataPanel::showPreview);
    connect(&panel, &ui::DataPanel::loadRequested, this, [this](const QString& path, int returnWindow) {
        m_window->dataPanel().setLoading(true);
        m_window->statusBar()->showMessage(tr("Loading %1...").arg(path));
        m_loader->resetCancel();
        QMetaObject::invokeMethod(m_loader, [loader = m_loader, path, returnWindow] { loader->loadFile(path, returnWindow); });
    });
    connect(&panel, &ui::DataPanel::demoRequested, this, &Workstation::loadDemo);
    // The flag is atomic: set it directly, the loader thread is busy loading.
    connect(&panel, &ui::DataPanel::loadCancelRequested, this, [this] { m_loader->requestCancel(); });
    connect(m_loader, &DataLoader::progress, &panel, &ui::DataPanel::setLoadProgress);
    connect(m_loader, &DataLoader::loaded, this, [this](std::shared_ptr<const Dataset> data) {
        m_window->dataPanel().setLoading(false);
        m_window->statusBar()->showMessage(tr("Loaded %1: %2 rows x %3 columns")
                                               .arg(QString::fromStdString(data->source))
                                               .arg(data->rows)
                                               .arg(data->cols),
                                           10000);
        m_window->setDataset(std::move(data));
        emit datasetReady();
    });
    connect(m_loader, &DataLoader::failed, this, [this](const QString& message) {
        m_window->dataPanel().setLoading(false);
        m_window->showError(message);
        emit loadFailed(message);
    });
    connect(m_loader, &DataLoader::cancelled, this, [this] {
        m_window->dataPanel().setLoading(false);
        m_window->statusBar()->showMessage(tr("Loading cancelled"), 10000);
    });
}

void Workstation::loadDemo(const QString& spec)
{
    m_window->dataPanel().setLoading(true, false);
    m_window->statusBar()->showMessage(tr("Generating %1...").arg(spec));
    m_loader->resetCancel();
    QMetaObject::invokeMethod(m_loader, [loader = m_loader, spec] { loader->makeDemo(spec); });
}

void Workstation::wireRun()
{
    ui::MainWindow& w = *m_window;
    connect(&w, &ui::MainWindow::runRequested, this, &Workstation::startRun);
    connect(&w, &ui::MainWindow::cancelRequested, this, &Workstation::cancelRun);
    connect(&w, &ui::MainWindow::closing, this, &Workstation::cancelRun);
    // The controller runs one job at a time: all it reports belongs to the live run.
    connect(m_controller, &RunController::iterationDone, &w.liveRun(), &ui::RunSeries::addIteration);
    connect(m_controller, &RunController::powerSampled, &w.liveRun(), &ui::RunSeries::addPower);
    connect(m_controller, &RunController::projected, &w.liveRun(), &ui::RunSeries::setProjection);
    connect(m_controller, &RunController::membersReady, this, [this](std::shared_ptr<const report::Membership> members) {
        m_window->membersView().setMembership(std::move(members), tr("This run (%1)").arg(m_window->liveRun().name()));
    });
    connect(&w.membersView(), &ui::MembersView::exportRequested, this, &Workstation::chooseMembersFile);
    connect(m_controller, &RunController::finished, this, [this](const ui::RunOutcome& outcome) {
        m_running = false;
        m_window->setRunning(false);
        m_window->liveRun().finish(outcome);
        if (!outcome.error.isEmpty()) m_window->showError(outcome.error);
        emit runFinished(outcome);
    });
}

void Workstation::wireHistory(const QString& storePath)
{
    m_history = std::make_unique<HistoryController>(*m_window, storePath);
    connect(m_controller, &RunController::recorded, m_history.get(), &HistoryController::runRecorded);
    connect(m_controller, &RunController::recordFailed, m_window.get(), &ui::MainWindow::showError);
    connect(m_history.get(), &HistoryController::rerunReady, this, &Workstation::startRun);
}

void Workstation::wireCompare(const QString& storePath)
{
    m_compare = std::make_unique<CompareController>(*m_window, storePath);
    // The comparison's runs are recorded like any run: list them.
    if (m_history) connect(m_compare.get(), &CompareController::finished, m_history.get(), &HistoryController::refresh);
    // One job at a time: a run and a comparison on the same cores would each time the other.
    m_compare->setBusyCheck([this] {
        return m_running ? tr("A run is in progress: wait for it or cancel it, then compare (both would time the same cores)") : QString();
    });
}

void Workstation::startRun()
{
    if (m_running) return;
    if (m_compare->running()) {
        m_window->showError(tr("A comparison is in progress: wait for it or cancel it in the Compare tab, then run"));
        return;
    }
    RunJob job;
    job.data = m_window->dataset();
    if (!job.data) {
        m_window->showError(tr("Load a file or generate a demo first"));
        return;
    }
    job.params = m_window->enginePanel().params();
    QString problem;
    job.topology = m_window->topologyPanel().writeTopology(&problem);
    if (job.topology.isEmpty()) {
        m_window->showError(problem);
        return;
    }
    job.threads = m_window->topologyPanel().threads();
    job.pool = m_window->topologyPanel().poolOptions();
    if (m_history) m_history->prepare(job);
    m_running = true;
    m_window->errorBanner().hide();
    m_window->setRunning(true, startingText(job.topology));
    m_window->liveRun().setName(job.topology);  // "host", "cuda:0,1", "pool:..."
    m_window->liveRun().beginRun(job.data->rows, job.params.maxIterations);
    m_controller->resetCancel();
    QMetaObject::invokeMethod(m_controller, [controller = m_controller, job] { controller->run(job); });
}

void Workstation::chooseMembersFile()
{
    if (!m_window->membersView().model().membership()) {
        m_window->showError(tr("No clustering to export yet: run one, or select a run in History"));
        return;
    }
    auto* dialog = ui::makeFileDialog(m_window.get(), tr("Export members"), tr("CSV (*.csv)"));
    dialog->setObjectName("exportMembersDialog");
    dialog->setAcceptMode(QFileDialog::AcceptSave);
    dialog->setDefaultSuffix("csv");
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QFileDialog::fileSelected, this, [this](const QString& path) { exportMembers(path); });
    dialog->open();
}

bool Workstation::exportMembers(const QString& path)
{
    try {
        // Neither the store nor the dataset a member list came from is overwritten by it.
        std::vector<ProtectedFile> keep = m_storeFiles;
        if (const auto data = m_window->dataset()) {
            const std::vector<ProtectedFile> inputs = inputFilesOf(data->spec, "the loaded dataset");
            keep.insert(keep.end(), inputs.begin(), inputs.end());
        }
        checkOutputPath("Export members", path.toStdString(), keep);
        writeFileReplacing(path.toStdString(), m_window->membersView().model().toCsv().toStdString());
    } catch (const std::exception& e) {
        m_window->showError(tr("Members not exported: %1").arg(QString::fromStdString(e.what())));
        return false;
    }
    m_window->statusBar()->showMessage(tr("Members written to %1").arg(path), 10000);
    return true;
}

void Workstation::cancelRun()
{
    if (!m_running) return;
    m_controller->requestCancel();
    m_window->statusBar()->showMessage(tr("Cancelling after the current iteration..."));
}

void Workstation::wirePoolProbe()
{
    ui::PoolEditor& editor = m_window->topologyPanel().poolEditor();
    m_poolProbe = new PoolProbe(this);
    connect(&editor, &ui::PoolEditor::testConnectionRequested, this, [this, &editor] {
        QString problem;
        const QString spec = editor.writeTopology(problem);
        if (spec.isEmpty()) editor.showProbeResult({}, problem);
        else m_poolProbe->start(spec, editor.options());
    });
    connect(m_poolProbe, &PoolProbe::finished, &editor, &ui::PoolEditor::showProbeResult);
}

void Workstation::detectGpus()
{
    ui::MainWindow* window = m_window.get();  // outlives the probe: shutdown() joins it first
    m_gpuProbe.reset(QThread::create([window] {
        const auto [gpus, reason] = probeGpus();
        QMetaObject::invokeMethod(window, [window, gpus, reason] { window->topologyPanel().setGpus(gpus, reason); });
    }));
    m_gpuProbe->start();
}

}  // namespace clusterdesk::gui
