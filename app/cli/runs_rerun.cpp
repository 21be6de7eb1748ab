#include "runs_rerun.h"

#include "cli_errors.h"
#include "cli_options.h"
#include "run_command.h"
#include "runs_view.h"

#include "engine/cluster/metrics.h"
#include "engine/session/run_record.h"
#include "engine/store/run_codec.h"
#include "engine/stream/live_replay.h"

#include <algorithm>
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
    // A topology spelled with its threads (host@2) replaces the recorded count too.
    const bool threadsSpelled = splitThreads(rerun.topology).threads > 0;
    o.threads = rerun.threads >= 0 ? rerun.threads : threadsSpelled ? 0 : info.threads;
    o.expectedDatasetHash = info.datasetHash;
    o.expectedRowNamesHash = session::recordedRowNamesHash(info);
    return o;
}

// A live update: its session replayed from the input recorded with each update, from
// the first to this one, every update compared with the recorded one. Nothing is
// recorded: the replay is a check, not a session.
int replayCommand(const store::RunRecord& original, const RerunOptions& rerun)
{
    std::string topology = rerun.topology;
    int threads = std::max(rerun.threads, 0);
    takeSpelledThreads(topology, threads);
    stream::LiveReplay replay;
    {
        store::RunStore runStore(existingStorePath(rerun.dbPath));
        replay = stream::replayLiveSession(runStore, original.info.id, topology, threads);
    }
    const bool exact = replay.session.params.mode == kernels::Mode::Exact;
    const int total = static_cast<int>(replay.updates.size());
    std::cout << "replay    the live session on " << original.info.dataSource.location << ", " << total
              << (total == 1 ? " update" : " updates") << " up to run " << shortId(original.info.id) << ", "
              << kernels::toString(replay.session.params.mode) << " mode"
              << (rerun.topology.empty() && threads == 0
                      ? std::string()
                      : ", on " + spelledWithThreads(toString(replay.topology), replay.threads))
              << '\n';
    int reproduced = 0;
    char line[256];
    for (int u = 0; u < total; ++u) {
        const stream::ReplayedUpdate& update = replay.updates[static_cast<std::size_t>(u)];
        if (!update.published)
            std::snprintf(line, sizeof line, "update %-3d run %s  the replay published no update where the session did\n", u + 1,
                          shortId(update.runId).c_str());
        else if (update.identical)
            std::snprintf(line, sizeof line, "update %-3d run %s  labels and centroids identical (bit for bit)\n", u + 1,
                          shortId(update.runId).c_str());
        else
            std::snprintf(line, sizeof line, "update %-3d run %s  ARI %.4f (%zu labels differ)\n", u + 1,
                          shortId(update.runId).c_str(), update.ari, update.differing);
        reproduced += update.identical ? 1 : 0;
        std::cout << line;
    }
    std::cout << "compare   " << reproduced << " of " << total << " updates reproduced bit for bit"
              << (exact && reproduced < total ? "; exact mode did NOT reproduce the session" : "") << '\n';
    return exact && reproduced < total ? kExitCheckFailed : kExitOk;
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
    if (original.info.dataSource.source == kLiveSource) return replayCommand(original, rerun);
    RunOptions options = optionsFromRecord(original, rerun);
    const ExecutedRun executed = executeRun(options, {{"run", original.info.id, "run", "", "rerun", ""}});
    if (executed.cancelled) return kExitCancelled;
    const std::string name = "run " + shortId(original.info.id);
    const bool exact = options.params.mode == kernels::Mode::Exact;
    if (original.labels.empty()) {
        // A result gc removed cannot be checked, so exact mode's check did not pass (a
        // script reads exit 1); a run that failed or was cancelled had none to check.
        const bool unchecked = exact && original.artifactsCollected;
        std::cout << "compare   " << name << " has no stored labels (" << store::toString(original.info.status)
                  << (original.artifactsCollected ? ", removed by gc" : "") << "): nothing to compare"
                  << (unchecked ? "; the exact reproduction is NOT checked" : "") << '\n';
        return unchecked ? kExitCheckFailed : kExitOk;
    }
    if (original.labels.size() != executed.labels.size()) {
        std::cout << "compare   " << name << " labelled " << original.labels.size() << " rows, the re-run " << executed.labels.size() << '\n';
        return kExitCheckFailed;
    }
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
