#include "run_controller.h"

#include "cluster_projection.h"

#include "engine/core/error.h"
#include "engine/session/run_session.h"
#include "engine/telemetry/power_sampler.h"

#include <chrono>
#include <new>

namespace clusterdesk::gui {
namespace {

// Power samples are sent to the window at most this often during a run.
constexpr auto kPowerPeriod = std::chrono::milliseconds(100);

}  // namespace

RunController::RunController(QObject* parent)
    : QObject(parent)
{
}

RunController::~RunController() = default;

void RunController::requestCancel()
{
    m_iterationAtCancel.store(m_lastIteration.load());
    m_cancel.store(true);
}

void RunController::resetCancel()
{
    m_cancel.store(false);
    m_iterationAtCancel.store(-1);
    m_lastIteration.store(0);
}

void RunController::emitNewPower(bool all)
{
    const std::vector<PowerSample> samples = m_power->samples();
    if (m_powerDevices.isEmpty() || all) {
        m_powerDevices.clear();
        for (const DeviceEnergy& d : m_power->summary().devices)
            m_powerDevices << QString("%1 (%2)").arg(QString::fromStdString(d.device), QString::fromStdString(toString(d.kind)));
    }
    if (samples.size() <= m_powerSent && !all) return;
    ui::PowerBatch batch;
    batch.devices = m_powerDevices;
    batch.samples.assign(samples.begin() + static_cast<std::ptrdiff_t>(std::min(m_powerSent, samples.size())), samples.end());
    m_powerSent = samples.size();
    emit powerSampled(batch);
}

store::RunStore* RunController::storeAt(const QString& path)
{
    if (path.isEmpty()) return nullptr;
    try {
        if (!m_store || m_store->path() != path.toStdString()) {
            m_store.reset();
            m_store = std::make_unique<store::RunStore>(path.toStdString());
        }
        return m_store.get();
    } catch (const std::exception& e) {
        // The run still runs: a store that cannot be opened must not cost the quant the result.
        emit recordFailed(QString("This run is not recorded: %1").arg(QString::fromStdString(e.what())));
        return nullptr;
    }
}

void RunController::run(const RunJob& job)
{
    using Clock = std::chrono::steady_clock;
    ui::RunOutcome outcome;
    const auto start = Clock::now();
    // Discovery (NVML, sysfs) once per controller, before any run is timed.
    if (!m_power) m_power = std::make_unique<PowerSampler>();
    m_powerSent = 0;
    m_powerDevices.clear();
    auto lastPower = start;

    RunControl control;
    control.cancel = &m_cancel;
    control.onIteration = [&](const IterationStats& stats) {
        m_lastIteration.store(stats.iteration);
        emit iterationDone(stats);
        if (Clock::now() - lastPower >= kPowerPeriod) {
            lastPower = Clock::now();
            emitNewPower(false);
        }
    };
    QString recordedId;
    try {
        session::RunRequest request;
        request.data = job.data;
        request.params = job.params;
        request.topology = parseTopology(job.topology.toStdString());
        request.threads = job.threads;
        request.pool = job.pool;
        request.parents = job.parents;
        request.store = storeAt(job.storePath);
        request.onRecorded = [&](const std::string& id) { recordedId = QString::fromStdString(id); };
        session::RunSession session(std::move(request));
        session::RunResult result;
        try {
            result = session.run(control, *m_power);
        } catch (...) {
            if (!session.recordProblem().empty()) emit recordFailed(QString::fromStdString(session.recordProblem()));
            throw;
        }
        if (!result.recordProblem.empty()) emit recordFailed(QString::fromStdString(result.recordProblem));
        emitNewPower(true);
        const ClusterResult& r = result.report.result;
        outcome.cancelled = r.cancelled;
        outcome.converged = r.converged;
        outcome.k = r.k;
        outcome.iterations = r.iterations;
        outcome.inertia = r.inertia;
        outcome.sizes = r.sizes;
        outcome.growth = r.growth;
        outcome.backend = QString::fromStdString(result.report.backend);
        outcome.power = result.power.value_or(PowerSummary{});
        // The run's own time, as the store records it (seconds_total): the status bar,
        // History and `runs show` give one figure.
        outcome.seconds = result.report.secondsTotal;
        emit projected(projectClusters(*job.data, r));
        if (!r.labels.empty())
            emit membersReady(std::make_shared<const report::Membership>(report::membershipOf(*job.data, r.labels, r.centroids, r.k)));
    } catch (const Cancelled&) {
        outcome.cancelled = true;
    } catch (const DataError& e) {
        outcome.error = QString("Bad data: %1").arg(QString::fromStdString(e.what()));
    } catch (const UsageError& e) {
        outcome.error = QString("Cannot run: %1").arg(QString::fromStdString(e.what()));
    } catch (const std::bad_alloc&) {
        outcome.error = "Run failed: out of memory";
    } catch (const std::exception& e) {
        outcome.error = QString("Run failed (%1): %2").arg(job.topology, QString::fromStdString(e.what()));
    }
    // A run that did not finish is timed here, up to its end.
    if (outcome.seconds == 0) outcome.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    if (!recordedId.isEmpty()) emit recorded(recordedId);
    emit finished(outcome);
}

}  // namespace clusterdesk::gui
