// A recorded live session replayed from the store: the updates from the session's first
// up to a given one, each run's recorded input (live_input.h) fed again through a
// LiveClusterer with the session's options, and every update compared with the run the
// session recorded. In exact mode each must be identical bit for bit.
#pragma once

#include "live_input.h"

#include <cstddef>
#include <string>
#include <vector>

namespace clusterdesk::store {
class RunStore;
}

namespace clusterdesk::stream {

struct ReplayedUpdate {
    std::string runId;           // the update the session recorded
    bool published = false;      // the replay published an update with the same input
    bool identical = false;      // labels and centroids bit for bit
    double ari = 0;              // the replay's labels against the recorded ones
    std::size_t differing = 0;   // labels that differ
};

struct LiveReplay {
    LiveOptions session;                  // as the session ran (without its store)
    Topology topology;                    // what the replay ran on: the session's, or the one asked for
    int threads = 0;
    std::vector<ReplayedUpdate> updates;  // oldest first
};

// runId: any update of the session (the replay ends there). topology: "" for the
// session's own; threads: 0 for the session's own. UsageError when the run is not a live
// update, or an update of its session has no recorded input (recorded before input was
// kept, or removed by gc).
LiveReplay replayLiveSession(const store::RunStore& store, const std::string& runId, const std::string& topology = "",
                             int threads = 0);

// The window update runId clustered (its assets and returns, as the clusterer built it),
// rebuilt from its session's recorded input without clustering anything. UsageError as
// replayLiveSession.
Dataset replayLiveWindow(const store::RunStore& store, const std::string& runId);

}  // namespace clusterdesk::stream
