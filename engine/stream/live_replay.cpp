#include "live_replay.h"

#include "live_clusterer.h"

#include "engine/cluster/metrics.h"
#include "engine/core/error.h"
#include "engine/store/run_store.h"

#include <algorithm>
#include <cstring>
#include <set>

namespace clusterdesk::stream {
namespace {

std::string shortId(const std::string& id)
{
    return id.substr(0, 8);
}

// The session's updates up to `runId`, oldest first, by their warm-start edges.
std::vector<store::RunRecord> sessionUpTo(const store::RunStore& store, const std::string& runId)
{
    std::vector<store::RunRecord> chain;
    std::set<std::string> seen;
    std::string id = runId;
    while (!id.empty()) {
        // Warm-start edges never loop unless the file was edited by hand.
        if (!seen.insert(id).second) throw UsageError("run " + shortId(id) + " warm-starts from itself through its session");
        store::RunRecord record = store.loadRun(id);
        if (record.info.dataSource.source != kLiveSource)
            throw UsageError("run " + shortId(id) + " is not an update of a live session");
        if (record.liveInput.empty())
            throw UsageError("run " + shortId(id) + " of the live session on " + record.info.dataSource.location +
                             " has no recorded input (" +
                             (record.artifactsCollected ? "removed by runs gc" : "recorded before ClusterDesk kept it") +
                             "), so the session cannot be replayed");
        id.clear();
        for (const store::LineageEdge& edge : record.lineage)
            if (edge.relation == "warm_start" && edge.dst == record.info.id && edge.srcKind == "run") id = edge.src;
        chain.push_back(std::move(record));
    }
    std::reverse(chain.begin(), chain.end());
    return chain;
}

// Each update's recorded input, oldest first; the first holds the session's options.
std::vector<LiveInput> recordedInputs(const std::vector<store::RunRecord>& chain)
{
    std::vector<LiveInput> inputs;
    for (const store::RunRecord& record : chain)
        inputs.push_back(liveInputFromJson(record.liveInput, "the recorded input of run " + shortId(record.info.id)));
    if (!inputs.front().session)
        throw UsageError("run " + shortId(chain.front().info.id) + " is the oldest update left of its live session, "
                         "but not its first (the session's options are missing)");
    return inputs;
}

// What the session's feed had said by a recorded call: every symbol named so far (bars
// refer to them by index) and the newest sectors.
struct FeedSoFar {
    std::vector<std::string> symbols;
    std::unordered_map<std::string, std::string> sectors;

    void take(const LiveInputCall& call)
    {
        symbols.insert(symbols.end(), call.newSymbols.begin(), call.newSymbols.end());
        if (call.sectors) sectors = *call.sectors;
    }
};

}  // namespace

Dataset replayLiveWindow(const store::RunStore& store, const std::string& runId)
{
    const std::vector<LiveInput> inputs = recordedInputs(sessionUpTo(store, runId));
    const LiveOptions& session = *inputs.front().session;
    // The window depends on the bars alone, not on what the updates found in it.
    ReturnWindow window(session.windowBars, session.barSeconds, session.halfLifeSeconds, session.scaleBars);
    FeedSoFar feed;
    for (const LiveInput& input : inputs) {
        for (const LiveInputCall& call : input.calls) {
            feed.take(call);
            for (const data::Bar& bar : call.bars) window.add(bar, feed.symbols);
        }
    }
    return window.matrix(session.source, feed.sectors);
}

LiveReplay replayLiveSession(const store::RunStore& store, const std::string& runId, const std::string& topology, int threads)
{
    const std::vector<store::RunRecord> chain = sessionUpTo(store, runId);
    const std::vector<LiveInput> inputs = recordedInputs(chain);

    LiveReplay replay;
    replay.session = *inputs.front().session;
    LiveOptions options = replay.session;
    if (!topology.empty()) options.topology = parseTopology(topology);
    if (threads > 0) options.threads = threads;
    replay.topology = options.topology;
    replay.threads = options.threads;
    LiveClusterer clusterer(options);
    FeedSoFar feed;
    for (std::size_t u = 0; u < chain.size(); ++u) {
        const store::RunRecord& recorded = chain[u];
        ReplayedUpdate out;
        out.runId = recorded.info.id;
        std::optional<LiveUpdate> update;
        int publications = 0;
        bool atLastCall = false;
        for (const LiveInputCall& call : inputs[u].calls) {
            feed.take(call);
            std::vector<ReceivedBar> bars;
            for (const data::Bar& bar : call.bars) bars.push_back({bar, 0});
            // The session published at its input's last call; an update anywhere else
            // means the replay took another path.
            if (auto published = clusterer.add(bars, feed.symbols, feed.sectors)) {
                ++publications;
                atLastCall = &call == &inputs[u].calls.back();
                update = std::move(published);
            }
        }
        out.published = publications == 1 && atLastCall;
        if (update && out.published && update->labels.size() == recorded.labels.size()) {
            out.identical = update->labels == recorded.labels && update->centroids.size() == recorded.centroids.size() &&
                            std::memcmp(update->centroids.data(), recorded.centroids.data(),
                                        recorded.centroids.size() * sizeof(float)) == 0;
            out.ari = adjustedRandIndex(update->labels, recorded.labels);
            for (std::size_t i = 0; i < recorded.labels.size(); ++i) out.differing += update->labels[i] != recorded.labels[i];
        }
        replay.updates.push_back(std::move(out));
    }
    return replay;
}

}  // namespace clusterdesk::stream
