#include "run_controller.h"

#include "cluster_projection.h"

#include "engine/core/error.h"
#include "engine/exec/run_clustering.h"
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
    try {
        if (!job.data) throw UsageError("no dataset is loaded");
        const Topology topology = parseTopology(job.topology.toStdString());
        beginRecording(job);
        m_power->start();
        RunReport report = topology.pool ? runPool(*job.data, job.params, topology, job.threads, control, job.pool)
                                         : runClustering(*job.data, job.params, topology, job.threads, control);
        m_power->stop();
        emitNewPower(true);
        completeRecording(job, topology, report);
        const ClusterResult& r = report.result;
        outcome.cancelled = r.cancelled;
        outcome.converged = r.converged;
        outcome.k = r.k;
        outcome.iterations = r.iterations;
        outcome.inertia = r.inertia;
        outcome.sizes = r.sizes;
        outcome.backend = QString::fromStdString(report.backend);
        outcome.power = m_power->summary();
        emit projected(projectClusters(*job.data, r));
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
    if (m_power->running()) m_power->stop();
    outcome.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    endRecording(outcome);
    emit finished(outcome);
}

void RunController::beginRecording(const RunJob& job)
{
    m_recordedId.clear();
    if (job.recording.storePath.isEmpty()) return;
    try {
        m_recorder.begin(job.recording, *job.data, job.params, job.topology.toStdString(), job.threads);
        m_recordedId = QString::fromStdString(m_recorder.runId());
    } catch (const std::exception& e) {
        // The run still runs: a store that cannot be written must not cost the quant the result.
        emit recordFailed(QString("This run is not recorded: %1").arg(QString::fromStdString(e.what())));
    }
}

void RunController::completeRecording(const RunJob& job, const Topology& topology, const RunReport& report)
{
    if (!m_recorder.active()) return;
    try {
        m_recorder.complete(*job.data, job.params, topology, report, *m_power);
    } catch (const std::exception& e) {
        const std::string reason = std::string("its result could not be recorded: ") + e.what();
        const QString problem = m_recorder.fail(store::RunStatus::Failed, reason);
        emit recordFailed(QString("Run %1 %2%3").arg(m_recordedId.left(8), QString::fromStdString(reason), problem.isEmpty() ? QString() : "; " + problem));
    }
}

void RunController::endRecording(const ui::RunOutcome& outcome)
{
    if (m_recorder.active()) {  // not completed: it failed, or was cancelled before it had a result
        const bool cancelled = outcome.cancelled && outcome.error.isEmpty();
        const QString problem = m_recorder.fail(cancelled ? store::RunStatus::Cancelled : store::RunStatus::Failed,
                                                cancelled ? "cancelled by the user" : outcome.error.toStdString());
        if (!problem.isEmpty()) emit recordFailed(problem);
    }
    if (!m_recordedId.isEmpty()) emit recorded(m_recordedId);
}

}  // namespace clusterdesk::gui
