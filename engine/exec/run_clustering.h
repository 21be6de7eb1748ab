// Runs one clustering job on a topology: shards the rows, starts one thread per shard
// with its backend and communicator (NCCL between distinct GPUs when the plug-in
// offers it, else the local one), runs the algorithm on every shard (SPMD) and
// returns rank 0's result with timing and the hardware it ran on.
// Pool topologies (pool:N, pool:HOSTFILE) run as MPI processes through runPool
// (pool_launcher.h).
#pragma once

#include "../cluster/params.h"
#include "../cluster/shard_context.h"
#include "../data/dataset.h"
#include "topology.h"

#include <string>
#include <vector>

namespace clusterdesk {

struct RunReport {
    ClusterResult result;
    std::string backend;               // "host" or "cuda"
    std::vector<std::string> devices;  // what each distinct device is
    double secondsTotal = 0;           // upload, initialisation, iterations, labels
    // How the shards combined their sums: "NCCL over local threads", "local threads", "MPI" (empty for one
    // shard), with why NCCL was not used where it could have been.
    std::string communicator;
};

// threads: host threads in all (0 = every core), divided among host shards.
// Throws UsageError for impossible parameters, DeviceError when a backend fails.
RunReport runClustering(const Dataset& data, const KMeansParams& params, const Topology& topology, int threads,
                        const RunControl& control = {});

// Host threads a run may use at most.
inline constexpr int kMaxThreads = 1024;

// Checks parameters against the data before any work starts (k <= rows, ...); throws
// UsageError, or DataError for data no run can handle.
void validate(const KMeansParams& params, const Dataset& data, const Topology& topology);
// threads: 0 (every core) or 1..kMaxThreads.
void validate(int threads);

}  // namespace clusterdesk
