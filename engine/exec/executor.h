// Runs one clustering job on the hardware a Topology names. Implementations side by
// side: LocalExecutor (threads in this process, one per shard, each with its backend)
// and PoolExecutor (MPI ranks launched with mpirun); adding a kind of hardware is
// adding one.
#pragma once

#include "pool_launcher.h"
#include "run_clustering.h"

#include <memory>

namespace clusterdesk {

class Executor {
public:
    virtual ~Executor() = default;
    // threads: host threads in all (0 = every core), divided among host shards.
    // Throws UsageError for impossible parameters, DeviceError when a backend fails,
    // Cancelled when a cancel could not wait for a partial result.
    virtual RunReport execute(const Dataset& data, const KMeansParams& params, int threads, const RunControl& control) = 0;
};

// The executor for the topology; pool: the launcher and worker for pool topologies.
std::unique_ptr<Executor> makeExecutor(const Topology& topology, const PoolOptions& pool = {});

}  // namespace clusterdesk
