// What a clustering run reports, the checks every run passes before it starts, and
// runClustering: a job on a topology's executor with default pool options (executor.h;
// front ends run jobs through session::RunSession).
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

// makeExecutor(topology)->execute(...): see Executor::execute.
RunReport runClustering(const Dataset& data, const KMeansParams& params, const Topology& topology, int threads,
                        const RunControl& control = {});

// Checks parameters against the data before any work starts (k <= rows, ...); throws
// UsageError, or DataError for data no run can handle.
void validate(const KMeansParams& params, const Dataset& data, int shards);
// threads: 0 (every core) or 1..kMaxThreads.
void validate(int threads);

}  // namespace clusterdesk
