// One run, started the same way by every front end (the CLI's run and runs rerun,
// the window, the headless main job, and later comparisons and live sessions):
//
//   validate -> record as running -> sample power -> execute on the topology's
//   executor -> record ok/cancelled with everything it produced, or failed with why.
//
// Front ends differ only in what they do around it: where progress goes
// (RunControl::onIteration), how cancel is asked for (RunControl::cancel), what they
// print or plot. No front end assembles a run itself.
//
// Recording: a front end that must not run unrecorded (the CLI) sets
// recordingRequired, so a store that refuses the new run fails it before any work; the
// window runs anyway and reports the problem. A store that fails after the run never
// costs the result: run() returns it with recordProblem set.
#pragma once

#include "engine/cluster/params.h"
#include "engine/data/dataset.h"
#include "engine/exec/pool_launcher.h"
#include "engine/exec/run_clustering.h"
#include "engine/store/run_store.h"
#include "engine/telemetry/power_sampler.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace clusterdesk::session {

struct RunRequest {
    std::shared_ptr<const Dataset> data;  // opened from a source (data->spec is what the store records)
    KMeansParams params;
    Topology topology;
    int threads = 0;                      // host threads in all (0 = every core)
    PoolOptions pool;                     // launcher and worker, for pool topologies
    store::RunStore* store = nullptr;     // where the run is recorded; null: not recorded
    bool recordingRequired = false;       // a run the store refuses is not started
    std::vector<store::LineageEdge> parents;  // e.g. the run this one re-runs or warm-starts from
    std::string liveInput;                    // a live update: store::NewRun::liveInput
    std::string initCentroidsFile;            // where params.initialCentroids were read (absolute), if from a file
    // Called on the run's thread once the run is in the store, before it executes.
    std::function<void(const std::string& runId)> onRecorded;
};

struct RunResult {
    RunReport report;
    std::optional<PowerSummary> power;  // energy while it executed
    double peakRssMiB = 0;              // of the whole process, 0 when unknown
    std::string runId;                  // empty when not recorded
    std::string datasetHash;            // Dataset::contentHash(), once the run is recorded (it
                                        // reads every value: hashed once per run, not per use)
    std::string recordProblem;          // why the run is not, or not fully, recorded; empty when it is
};

// AdaptGrow's kmax and k0 are bounds: capped at the rows (kmax) and at kmax (k0), so a
// small dataset runs with the defaults. Called by the session; exposed for tests.
void capGrowthBounds(KMeansParams& params, const Dataset& data);

class RunSession {
public:
    // Caps the growth bounds and validates: UsageError/DataError here mean nothing was
    // recorded and nothing ran.
    explicit RunSession(RunRequest request);
    ~RunSession();
    RunSession(const RunSession&) = delete;
    RunSession& operator=(const RunSession&) = delete;

    const KMeansParams& params() const { return m_request.params; }
    // After run() threw: why its failure could not be recorded, or empty.
    const std::string& recordProblem() const { return m_recordProblem; }

    // Runs once. power: the sampler to run alongside (its discovery is the caller's,
    // done before, so samples cover the clustering only). Throws what the run threw
    // (Cancelled, UsageError, DataError, DeviceError, ...) after recording why; with
    // recordingRequired, the StoreError that kept the run from being recorded.
    RunResult run(const RunControl& control, PowerSampler& power);

private:
    void begin(RunResult& result);
    void fail(RunResult& result, store::RunStatus status, const std::string& reason) noexcept;

    RunRequest m_request;
    std::string m_recordProblem;
};

}  // namespace clusterdesk::session
