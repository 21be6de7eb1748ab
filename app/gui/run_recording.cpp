#include "run_recording.h"

#include "engine/store/run_recording.h"
#include "engine/telemetry/power_sampler.h"

namespace clusterdesk::gui {

RunRecorder::RunRecorder() = default;
RunRecorder::~RunRecorder() = default;

void RunRecorder::begin(const RunRecording& recording, const Dataset& data, const KMeansParams& params, const std::string& topology,
                        int threads)
{
    m_id.clear();
    const std::string path = recording.storePath.toStdString();
    if (!m_store || m_store->path() != path) {
        m_store.reset();
        m_store = std::make_unique<store::RunStore>(path);
    }
    store::NewRun run;
    run.dataset = store::datasetInfoFor(data, recording.source, recording.demo, recording.loadOptionsJson);
    run.params = params;
    run.topology = topology;
    run.threads = threads;
    run.parents = recording.parents;
    m_datasetHash = run.dataset.hash;
    m_id = m_store->beginRun(run);
}

void RunRecorder::complete(const Dataset& data, const KMeansParams& params, const Topology& topology, const RunReport& report,
                           const PowerSampler& power)
{
    const RunSummaryInput summary{data, params, topology, report, m_datasetHash, 0, power.summary()};
    m_store->finishRun(m_id, store::finishedOutcome(summary, power));
    m_id.clear();
}

QString RunRecorder::fail(store::RunStatus status, const std::string& reason) noexcept
{
    const std::string id = m_id;
    m_id.clear();
    try {
        store::RunOutcome outcome;
        outcome.status = status;
        outcome.failure = reason;
        m_store->finishRun(id, outcome);
        return {};
    } catch (const std::exception& e) {
        return QString("Cannot record run %1 as %2: %3")
            .arg(QString::fromStdString(id.substr(0, 8)), QString::fromStdString(store::toString(status)), QString::fromStdString(e.what()));
    }
}

}  // namespace clusterdesk::gui
