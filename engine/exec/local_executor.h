// Runs a job in this process: shards the rows, starts one thread per shard with its
// backend and communicator (NCCL between distinct GPUs when the plug-in offers it,
// else the local one), runs the algorithm on every shard (SPMD) and returns rank 0's
// result with timing and the hardware it ran on.
#pragma once

#include "executor.h"

namespace clusterdesk {

class LocalExecutor : public Executor {
public:
    explicit LocalExecutor(Topology topology);  // any kind but Pool
    RunReport execute(const Dataset& data, const KMeansParams& params, int threads, const RunControl& control) override;

private:
    Topology m_topology;
};

}  // namespace clusterdesk
