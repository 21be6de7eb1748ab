#include "compare_controller.h"

#include "scaling_curve.h"

#include "engine/core/error.h"
#include "engine/core/vector_state.h"
#include "ui/compare/compare_view.h"
#include "ui/compare/topology_picker.h"
#include "ui/main_window.h"
#include "ui/panels/engine_panel.h"
#include "ui/panels/topology_panel.h"

#include <chrono>
#include <memory>
#include <new>

namespace clusterdesk::gui {
namespace {

// Iteration progress reaches the window at most this often: a small job iterates in
// microseconds, and the label cannot be read faster anyway.
constexpr auto kProgressPeriod = std::chrono::milliseconds(100);

// model:ID for every catalog device, and model:IDxN for as many as a node holds
// (GPUs: 2, 4, 8; CPUs: sockets), the usual what-if questions.
QStringList modeledChoices(const HardwareCatalog& catalog)
{
    QStringList choices;
    for (const DeviceSpec& d : catalog.devices) {
        const QString id = QString::fromStdString(d.id);
        choices << "model:" + id;
        const std::vector<int> counts = d.isGpu() ? std::vector<int>{2, 4, 8} : std::vector<int>{2};
        for (int n : counts)
            if (n <= d.perNode) choices << QString("model:%1x%2").arg(id).arg(n);
    }
    return choices;
}

ui::CompareRow rowOf(const session::TopologyOutcome& o)
{
    ui::CompareRow row;
    row.topology = QString::fromStdString(o.topology);
    row.measured = o.measured;
    row.status = QString::fromStdString(o.status);
    row.failure = QString::fromStdString(o.failure);
    row.msPerIteration = o.msPerIteration;
    row.predictedMs = o.predictedMsPerIteration;
    row.bottleneck = QString::fromStdString(o.phases.bottleneck);
    row.totalS = o.totalS;
    row.energyJ = o.energyJ;
    row.energySource = QString::fromStdString(o.energySource);
    row.costUsd = o.costUsd;
    row.speedup = o.speedup;
    row.efficiency = o.efficiency;
    row.identical = o.identical;
    row.ari = o.ari;
    row.fitsInMemory = o.fitsInMemory;
    row.memoryNeededGiB = o.memoryNeededGiB;
    return row;
}

}  // namespace

// Owns the comparison thread's store connection (a RunStore belongs to one thread),
// kept open between comparisons.
class CompareController::Worker : public QObject {
public:
    explicit Worker(std::string path)
        : m_path(std::move(path))
    {
    }
    // Null when there is no store; throws StoreError when it cannot be opened.
    store::RunStore* store()
    {
        if (m_path.empty()) return nullptr;
        if (!m_store) m_store = std::make_unique<store::RunStore>(m_path);
        return m_store.get();
    }

private:
    std::string m_path;
    std::unique_ptr<store::RunStore> m_store;
};

CompareController::CompareController(ui::MainWindow& window, const QString& storePath, QObject* parent)
    : QObject(parent)
    , m_window(window)
{
    m_view = new ui::CompareView;
    m_window.addTab(m_view, tr("Compare"));
    try {
        m_catalog = loadHardwareCatalog();
    } catch (const std::exception& e) {
        // A broken user copy must not take the measured topologies with it.
        m_catalog = builtinCatalog();
        m_view->showError(tr("The hardware catalog %1 cannot be read, using the built-in one: %2")
                              .arg(QString::fromStdString(userCatalogPath().string()), QString::fromStdString(e.what())));
    }
    m_view->picker().setModeledTopologies(modeledChoices(m_catalog));
    m_worker = new Worker(storePath.toStdString());
    m_worker->moveToThread(&m_thread);
    connect(&m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
    m_thread.setObjectName("compare");
    m_thread.start();
    connect(m_view, &ui::CompareView::runRequested, this, &CompareController::start);
    connect(m_view, &ui::CompareView::cancelRequested, this, &CompareController::cancel);
    connect(&m_window, &ui::MainWindow::closing, this, &CompareController::cancel);
}

CompareController::~CompareController()
{
    m_cancel.store(true);
    m_thread.quit();
    m_thread.wait();
}

void CompareController::cancel()
{
    if (m_running) m_cancel.store(true);
}

void CompareController::fail(const QString& message)
{
    m_running = false;
    m_view->finish(tr("stopped: see the error below"));
    m_view->showError(message);
    emit failed(message);
}

void CompareController::done(const QString& comparisonId, bool cancelled, int finishedCount, int count)
{
    m_running = false;
    QString summary = cancelled ? tr("cancelled: %1 of %2 topologies finished").arg(finishedCount).arg(count)
                                : tr("done: %1 topologies").arg(count);
    summary += comparisonId.isEmpty() ? tr("; not recorded") : tr("; recorded as comparison %1").arg(comparisonId.left(12));
    m_view->finish(summary);
    emit finished(comparisonId, cancelled);
}

void CompareController::start(const QStringList& topologies)
{
    if (m_running) return;
    session::ComparisonRequest request;
    request.data = m_window.dataset();
    if (!request.data) return fail(tr("Load a file or generate a demo first: a comparison runs the loaded data"));
    if (topologies.isEmpty()) return fail(tr("Check at least one topology to compare"));
    if (const QString busy = m_busy ? m_busy() : QString(); !busy.isEmpty()) return fail(busy);
    request.params = m_window.enginePanel().params();
    request.pool = m_window.topologyPanel().poolOptions();
    request.catalog = m_catalog;
    for (const QString& t : topologies) request.topologies.push_back(t.toStdString());
    m_running = true;
    m_cancel.store(false);
    m_view->begin(static_cast<int>(topologies.size()));
    const int count = static_cast<int>(topologies.size());
    QMetaObject::invokeMethod(m_worker, [this, request = std::move(request), count]() mutable { compareOnWorker(std::move(request), count); });
}

void CompareController::compareOnWorker(session::ComparisonRequest request, int count)
{
    // Threads started after QApplication inherit its dirty AVX state, which slows
    // the SSE code the measured runs time (engine/core/vector_state.h).
    clearUpperVectorState();
    // Back on the window's thread; dropped if the controller is gone by then.
    const auto post = [this](auto then) { QMetaObject::invokeMethod(this, std::move(then)); };
    using Clock = std::chrono::steady_clock;
    Clock::time_point lastProgress{};
    std::string lastTopology;
    int finishedCount = 0;
    session::ComparisonControl control;
    control.cancel = &m_cancel;
    // A measured row appears as its run ends; every row is completed (predictions,
    // speedup) when the model has been fitted.
    control.onMeasured = [&](const session::TopologyOutcome& o) {
        ++finishedCount;
        post([this, row = rowOf(o)] { m_view->addRow(row); });
    };
    control.onTopology = [&](const session::TopologyOutcome& o) {
        if (!o.measured) ++finishedCount;
        post([this, row = rowOf(o)] { m_view->addRow(row); });
    };
    control.onIteration = [&](const std::string& topology, const IterationStats& s) {
        if (topology == lastTopology && Clock::now() - lastProgress < kProgressPeriod) return;
        lastTopology = topology;
        lastProgress = Clock::now();
        post([this, t = QString::fromStdString(topology), i = s.iteration] { m_view->showProgress(t, i); });
    };
    try {
        request.store = m_worker->store();
    } catch (const std::exception& e) {
        // The comparison still runs: an unreadable store must not cost the quant the answer.
        post([this, m = tr("This comparison is not recorded: %1").arg(QString::fromStdString(e.what()))] {
            m_view->showError(m);
            emit failed(m);
        });
    }
    try {
        const session::ComparisonResult result = session::runComparison(request, control);
        const QString id = QString::fromStdString(result.comparisonId);
        if (const std::string device = scalingDevice(request.topologies, request.catalog); !device.empty()) {
            try {
                post([this, d = QString::fromStdString(device),
                      points = scalingCurve(request.params, request.data->rows, request.data->cols, device, request.catalog, result.model)] {
                    m_view->setScaling(d, points);
                });
            } catch (const std::exception& e) {
                // The comparison stands without its curve (a user catalog's odd device).
                post([this, m = tr("No scaling curve for %1: %2").arg(QString::fromStdString(device), QString::fromStdString(e.what()))] {
                    m_view->showError(m);
                });
            }
        }
        if (!result.recordProblem.empty())
            post([this, m = tr("This comparison is not recorded: %1").arg(QString::fromStdString(result.recordProblem))] {
                m_view->showError(m);
                emit failed(m);
            });
        post([this, id, cancelled = result.cancelled, finishedCount, count] { done(id, cancelled, finishedCount, count); });
    } catch (const UsageError& e) {
        post([this, m = QString::fromStdString(e.what())] { fail(tr("Cannot compare: %1").arg(m)); });
    } catch (const DataError& e) {
        post([this, m = QString::fromStdString(e.what())] { fail(tr("Bad data: %1").arg(m)); });
    } catch (const std::bad_alloc&) {
        post([this] { fail(tr("Comparison failed: out of memory")); });
    } catch (const std::exception& e) {
        post([this, m = QString::fromStdString(e.what())] { fail(tr("Comparison failed: %1").arg(m)); });
    }
}

}  // namespace clusterdesk::gui
