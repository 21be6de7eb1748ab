// How a live session runs: its window, its pace, the engine's options, where updates
// are recorded. The store keeps them with the session's first update (live_input.h),
// so a replay runs with the same.
#pragma once

#include "cluster_identity.h"

#include "engine/cluster/params.h"
#include "engine/exec/pool_launcher.h"
#include "engine/exec/topology.h"

#include <cstdint>
#include <string>
#include <vector>

namespace clusterdesk::store {
class RunStore;
}

namespace clusterdesk::stream {

struct LiveOptions {
    std::string source = "live";      // the feed's URL, for the dataset's name and messages
    std::int64_t barSeconds = 1;      // the bars' length, as the feed's ticks were cut
    std::int64_t windowBars = 60;     // returns per asset in the window
    double halfLifeSeconds = 0;       // > 0: a return's weight halves every this many seconds of bar time
    bool scaleBars = true;            // each bar to unit dispersion across the assets (return_window.h)
    std::int64_t updateEveryBars = 5; // re-cluster after this many new bars
    KMeansParams params;              // k-means or AdaptGrow, mode, seed, ...
    // The symbols the session asked the feed for; empty: all it carries. Fewer than a
    // run needs (k for k-means) is refused at once: no update could ever run.
    std::vector<std::string> symbols;
    // Without a warm start (the first update, or after a cluster emptied): the best of
    // this many k-means initialisations, or for AdaptGrow this many k-means restarts at
    // the k growth chose, since every later update inherits the answer.
    int freshInitialisations = 10;
    Topology topology;
    int threads = 0;
    PoolOptions pool;
    IdentityOptions identity;
    double driftMovedShare = 0.2;     // alert when more than this share of assets moved
    double driftDispersion = 1.5;     // ... or a surviving cluster's dispersion grew this many times
    // Records every update as a run, warm-start edge to the previous one, with what the
    // session was fed since (live_input.h): the session can be replayed from the store.
    store::RunStore* store = nullptr;
};

}  // namespace clusterdesk::stream
