#include "run_session.h"

#include "run_record.h"

#include "engine/core/error.h"
#include "engine/exec/executor.h"
#include "engine/telemetry/process_memory.h"

#include <algorithm>

namespace clusterdesk::session {
namespace {

// The exception's class decides how the record ends: a cancel is not a failure.
store::RunStatus statusOf(const std::exception& e)
{
    return dynamic_cast<const Cancelled*>(&e) ? store::RunStatus::Cancelled : store::RunStatus::Failed;
}

}  // namespace

void capGrowthBounds(KMeansParams& params, const Dataset& data)
{
    if (params.algorithm != Algorithm::AdaptGrow) return;
    params.kMax = static_cast<int>(std::min<std::int64_t>(params.kMax, data.rows));
    params.k0 = std::min(params.k0, params.kMax);
}

RunSession::RunSession(RunRequest request)
    : m_request(std::move(request))
{
    if (!m_request.data) throw UsageError("no dataset is loaded");
    capGrowthBounds(m_request.params, *m_request.data);
    // Precision is the arithmetic of a GPU's distance GEMM; every other topology computes
    // in FP32, and the run is recorded with what it computed in (the window's Engine
    // panel, a what-if's measured topologies and re-runs of older records may ask otherwise).
    if (!m_request.topology.onGpus()) m_request.params.precision = kernels::Precision::FP32;
    validate(m_request.params, *m_request.data, m_request.topology.shardCount());
    validate(m_request.threads);
}

RunSession::~RunSession() = default;

void RunSession::begin(RunResult& result)
{
    if (!m_request.store) return;
    try {
        store::NewRun run;
        run.dataset = datasetInfoFor(*m_request.data);
        run.params = m_request.params;
        run.topology = toString(m_request.topology);
        run.threads = m_request.threads;
        run.parents = m_request.parents;
        run.liveInput = m_request.liveInput;
        result.runId = m_request.store->beginRun(run);
        result.datasetHash = run.dataset.hash;
    } catch (const std::exception& e) {
        if (m_request.recordingRequired) throw;
        result.recordProblem = std::string("this run is not recorded: ") + e.what();
        return;
    }
    if (m_request.onRecorded) m_request.onRecorded(result.runId);
}

void RunSession::fail(RunResult& result, store::RunStatus status, const std::string& reason) noexcept
{
    if (result.runId.empty()) return;
    try {
        store::RunOutcome outcome;
        outcome.status = status;
        outcome.failure = reason;
        m_request.store->finishRun(result.runId, outcome);
    } catch (const std::exception& e) {
        // The run's own error matters more; the row stays `running` until the next
        // start marks it interrupted.
        result.recordProblem = "cannot record run " + result.runId.substr(0, 8) + " as " + store::toString(status) + ": " + e.what();
    }
}

RunResult RunSession::run(const RunControl& control, PowerSampler& power)
{
    RunResult result;
    begin(result);
    const Dataset& data = *m_request.data;
    try {
        const std::unique_ptr<Executor> executor = makeExecutor(m_request.topology, m_request.pool);
        power.start();
        result.report = executor->execute(data, m_request.params, m_request.threads, control);
        power.stop();
    } catch (const std::exception& e) {
        if (power.running()) power.stop();
        const store::RunStatus status = statusOf(e);
        fail(result, status, status == store::RunStatus::Cancelled ? "cancelled by the user" : e.what());
        m_recordProblem = result.recordProblem;
        throw;
    }
    result.power = power.summary();
    result.peakRssMiB = processMemory().peakMiB;
    if (result.runId.empty()) return result;
    const RunSummaryInput summary{data, m_request.params, m_request.topology, result.report, result.datasetHash, result.peakRssMiB, result.power,
                                  m_request.initCentroidsFile};
    try {
        m_request.store->finishRun(result.runId, finishedOutcome(summary, power));
    } catch (const std::exception& e) {
        // E.g. a NaN result the store refuses as ok: recorded as failed with that reason.
        const std::string reason = std::string("its result could not be recorded: ") + e.what();
        fail(result, store::RunStatus::Failed, reason);
        result.recordProblem = "run " + result.runId.substr(0, 8) + " " + reason +
                               (result.recordProblem.empty() ? "" : "; " + result.recordProblem);
    }
    return result;
}

}  // namespace clusterdesk::session
