#include "runs_rerun.h"

#include "cli_errors.h"
#include "run_command.h"
#include "runs_view.h"

#include "engine/cluster/metrics.h"
#include "engine/store/run_codec.h"

#include <cstdio>
#include <iostream>

namespace clusterdesk::cli {
namespace {

// The options `clusterdesk-cli run` would have been given for the recorded run.
RunOptions optionsFromRecord(const store::RunRecord& record, const RerunOptions& rerun)
{
    const store::RunInfo& info = record.info;
    RunOptions o;
    o.dbPath = rerun.dbPath;
    o.recorded = info.dataSource;
    o.params = store::paramsFromJson(info.paramsJson);
    if (o.params.init == InitMethod::Given) {
        if (record.initialCentroids.empty())
            throw UsageError("run " + info.id + " started from given centroids that are no longer stored (removed by runs gc)");
        o.params.initialCentroids = record.initialCentroids;
    }
    o.kGiven = true;  // the record holds the k the run used
    o.topology = rerun.topology.empty() ? info.topology : rerun.topology;
    o.threads = rerun.threads >= 0 ? rerun.threads : info.threads;
    o.expectedDatasetHash = info.datasetHash;
    return o;
}

}  // namespace

int rerunCommand(const RerunOptions& rerun)
{
    store::RunRecord original;
    {
        store::RunStore runStore(existingStorePath(rerun.dbPath));
        original = runStore.loadRun(runStore.resolveId(rerun.runId));
    }
    if (original.info.status == store::RunStatus::Running) throw UsageError("run " + original.info.id + " is still running");
    // A live update's window was built from ticks the store does not keep.
    if (original.info.dataSource.source == "live")
        throw UsageError("run " + shortId(original.info.id) + " is an update of a live session on " +
                         original.info.dataSource.location +
                         ": its window was built from ticks the store does not keep, so it cannot be re-run");
    RunOptions options = optionsFromRecord(original, rerun);
    const ExecutedRun executed = executeRun(options, {{"run", original.info.id, "run", "", "rerun", ""}});
    if (executed.cancelled) return kExitCancelled;
    const std::string name = "run " + shortId(original.info.id);
    if (original.labels.empty()) {
        std::cout << "compare   " << name << " has no stored labels (" << store::toString(original.info.status)
                  << (original.artifactsCollected ? ", removed by gc" : "") << "): nothing to compare\n";
        return kExitOk;
    }
    if (original.labels.size() != executed.labels.size()) {
        std::cout << "compare   " << name << " labelled " << original.labels.size() << " rows, the re-run " << executed.labels.size() << '\n';
        return kExitCheckFailed;
    }
    const bool exact = options.params.mode == kernels::Mode::Exact;
    if (exact && executed.labels == original.labels) {
        std::cout << "compare   labels identical to " << name << " (bit for bit)\n";
        return kExitOk;
    }
    std::size_t differing = 0;
    for (std::size_t i = 0; i < original.labels.size(); ++i) differing += original.labels[i] != executed.labels[i];
    char line[256];
    std::snprintf(line, sizeof line, "compare   ARI vs %s: %.4f (%zu of %zu labels differ)%s\n", name.c_str(),
                  adjustedRandIndex(original.labels, executed.labels), differing, original.labels.size(),
                  exact ? "; exact mode did NOT reproduce the run" : "");
    std::cout << line;
    return exact ? kExitCheckFailed : kExitOk;
}

}  // namespace clusterdesk::cli
