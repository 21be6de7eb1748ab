// `runs rerun ID`: runs a recorded run again from its record (same data, checked by
// its content hash; same parameters, seed and topology unless overridden) and
// records the new run with a `rerun` edge from the old one. An update of a live
// session is replayed instead: the session from its first update to this one, fed
// the input recorded with each, every update compared with the recorded one.
#pragma once

#include <string>

namespace clusterdesk::cli {

struct RerunOptions {
    std::string dbPath;
    std::string runId;     // id or unique prefix
    std::string topology;  // empty: the recorded one ("what if on another topology")
    int threads = -1;      // -1: the recorded count
};

// Exact mode: exit 0 and "labels identical to run X (bit for bit)", or exit 1 naming how
// many rows differ, or saying that gc removed the labels to compare with. Fast mode:
// prints the ARI against the stored labels, exit 0. A live replay says the same per
// update, and exits 1 in exact mode unless all match.
int rerunCommand(const RerunOptions& options);

}  // namespace clusterdesk::cli
