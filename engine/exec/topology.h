// Where a run executes: `host` (one shard, all threads), `shards:N` (N host shards in
// threads, joined by the local communicator), `cuda` / `cuda:0,1,...` (one shard per
// local GPU). Later: `pool:HOSTFILE` over MPI.
#pragma once

#include <string>
#include <vector>

namespace clusterdesk {

struct Topology {
    std::string spec;                  // as the user wrote it, normalised
    std::vector<std::string> shards;   // backend name per shard: "host", "cuda:0", ...
};

// Throws UsageError naming what is wrong with the spec.
Topology parseTopology(const std::string& spec);

}  // namespace clusterdesk
