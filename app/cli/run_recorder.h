// Records one CLI run in the run store: inserted as running before the clustering
// starts, completed with everything it produced, or marked failed/cancelled with the
// reason. A recorder destroyed before either (an exception nobody expected) marks the
// run failed, so no run of a live process is left `running`.
#pragma once

#include "cli_options.h"

#include "engine/exec/run_summary.h"
#include "engine/store/run_store.h"
#include "engine/telemetry/power_sampler.h"

#include <string>
#include <vector>

namespace clusterdesk::cli {

class RunRecorder {
public:
    RunRecorder(store::RunStore& store, const RunOptions& options, const Dataset& data,
                const std::vector<store::LineageEdge>& parents);
    ~RunRecorder();
    RunRecorder(const RunRecorder&) = delete;
    RunRecorder& operator=(const RunRecorder&) = delete;

    const std::string& runId() const { return m_id; }
    void complete(const RunSummaryInput& summary, const PowerSampler& power);  // throws StoreError
    // On an error path: a store error here is reported on stderr, never thrown over
    // the error that ended the run.
    void fail(store::RunStatus status, const std::string& reason) noexcept;

private:
    store::RunStore& m_store;
    std::string m_id;
    bool m_finished = false;
};

}  // namespace clusterdesk::cli
