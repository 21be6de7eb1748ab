#include "run_recorder.h"

#include "engine/store/run_codec.h"
#include "engine/store/run_recording.h"

#include <iostream>

namespace clusterdesk::cli {

RunRecorder::RunRecorder(store::RunStore& store, const RunOptions& options, const Dataset& data,
                         const std::vector<store::LineageEdge>& parents)
    : m_store(store)
{
    store::NewRun run;
    const bool demo = !options.demoSpec.empty();
    run.dataset = store::datasetInfoFor(data, demo ? data.source : options.dataPath, demo, store::loadOptionsToJson(options.load));
    run.params = options.params;
    run.topology = options.topology;
    run.threads = options.threads;
    run.parents = parents;
    m_id = store.beginRun(run);
}

RunRecorder::~RunRecorder()
{
    if (!m_finished) fail(store::RunStatus::Failed, "clusterdesk-cli stopped before the run ended");
}

void RunRecorder::complete(const RunSummaryInput& summary, const PowerSampler& power)
{
    try {
        m_store.finishRun(m_id, store::finishedOutcome(summary, power));
    } catch (const std::exception& e) {
        // E.g. a NaN result the store refuses as ok: the run is recorded as failed with
        // that reason, and the command still fails with it.
        fail(store::RunStatus::Failed, std::string("its result could not be recorded: ") + e.what());
        throw;
    }
    m_finished = true;
}

void RunRecorder::fail(store::RunStatus status, const std::string& reason) noexcept
{
    store::RunOutcome outcome;
    outcome.status = status;
    outcome.failure = reason;
    try {
        m_store.finishRun(m_id, outcome);
        m_finished = true;
    } catch (const std::exception& e) {
        // The run's own error matters more: say this one and leave the row `running`,
        // which the next start marks interrupted.
        std::cerr << "clusterdesk-cli: cannot record run " << m_id << " as " << store::toString(status) << ": " << e.what() << '\n';
    }
}

}  // namespace clusterdesk::cli
