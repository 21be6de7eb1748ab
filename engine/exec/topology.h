// Where a run executes: `host` (one shard, all threads), `shards:N` (N host shards in
// threads, joined by the local communicator), `cuda` / `cuda:0,1,...` (one shard per
// listed GPU, joined by NCCL when the GPUs are distinct and NCCL is usable, else by the
// local communicator; `cuda:0,0` puts two shards on GPU 0), `pool:N` / `pool:HOSTFILE`
// (MPI ranks, see pool_launcher.h), optionally ending in `:cuda` (every rank on a GPU of
// its node, the ranks joined by NCCL bootstrapped through MPI) or `:host` (the default).
#pragma once

#include <string>
#include <vector>

namespace clusterdesk {

struct Topology {
    std::string spec;                  // as the user wrote it, normalised
    std::vector<std::string> shards;   // backend name per shard: "host", "cuda:0", ...
    // pool:N (N local MPI ranks) or pool:HOSTFILE (an OpenMPI hostfile; one rank per
    // slot): processes launched with mpirun, one host shard per rank.
    bool pool = false;
    std::string hostfile;              // empty for pool:N
};

// Throws UsageError naming what is wrong with the spec.
Topology parseTopology(const std::string& spec);

}  // namespace clusterdesk
