// Where a run executes, as a typed value; the CLI spelling is parsed and written only
// at the edges (parseTopology, toString):
//   host            one shard, all threads
//   shards:N        N host shards in threads, joined by the local communicator
//   cuda, cuda:0,1  one shard per listed GPU, joined by NCCL when the GPUs are distinct
//                   and NCCL is usable, else by the local communicator (cuda:0,0 puts
//                   two shards on GPU 0)
//   pool:N, pool:HOSTFILE  MPI ranks (see pool_launcher.h), optionally ending in :cuda
//                   (every rank on a GPU of its node, joined by NCCL bootstrapped
//                   through MPI) or :host (the default)
#pragma once

#include <string>
#include <vector>

namespace clusterdesk {

struct Topology {
    enum class Kind { Host, Shards, Cuda, Pool };
    Kind kind = Kind::Host;
    int hostShards = 1;     // Host: 1; Shards: N
    std::vector<int> gpus;  // Cuda: the device of each shard, in shard order (a device may repeat)
    int ranks = 0;          // Pool: MPI ranks (N, or the hostfile's slots)
    std::string hostfile;   // Pool: an OpenMPI hostfile; empty for N ranks on this machine
    bool rankGpus = false;  // Pool: every rank on a GPU of its node

    bool isPool() const { return kind == Kind::Pool; }
    // Shards (threads or ranks) the rows are split over.
    int shardCount() const;
    // The backend shard `shard` runs on: "host" or "cuda:N"; a pool rank's is "host"
    // or "cuda" (its node picks the GPU).
    std::string shardBackend(int shard) const;
    // Whether the shards run on GPUs.
    bool onGpus() const { return kind == Kind::Cuda || (kind == Kind::Pool && rankGpus); }

    bool operator==(const Topology&) const = default;
};

// Throws UsageError naming what is wrong with the spelling (or the hostfile).
Topology parseTopology(const std::string& spec);
// The normalised spelling: parseTopology(toString(t)) == t.
std::string toString(const Topology& topology);
// A recorded run's topology as the what-if spells it: "host@1" for a run on one thread
// (threads > 0: the count it was given), as it is for one on every core (threads 0) and
// for GPU topologies.
std::string spelledWithThreads(const std::string& topology, int threads);
// Whether a recorded topology computes on GPUs (cuda..., pool:N:cuda), by its spelling.
bool spelledOnGpus(const std::string& topology);
// Host threads a run may use at most.
inline constexpr int kMaxThreads = 1024;

// The reverse, for what a user copies from those lists: "host@4" is topology "host" on 4
// threads; without "@", threads is 0 (none spelled). UsageError for a bad count.
struct TopologyWithThreads {
    std::string topology;
    int threads = 0;
};
TopologyWithThreads splitThreads(const std::string& spelling);
// A run's host threads as its reader wants them: "1 thread", "4 threads", and for 0,
// how a run records "every core", "up to every core" (a small run pays for fewer; its
// devices say how many it had).
std::string threadsText(int threads);

}  // namespace clusterdesk
