// Pool runs: `mpirun ... -np N [--hostfile FILE] clusterdesk-worker --rank JOB.json` as
// a child process (an argument list, never a shell string), in its own process group.
// Rank 0's JSON lines (pool_job.h) become RunControl::onIteration calls and the
// ClusterResult. A rank that dies, a launcher that cannot start, or a worker that
// reports an error become an exception naming what happened (exit status, the rank,
// the tail of stderr); every process the launch started is killed before it returns,
// and RunControl::cancel kills them too (then Cancelled is thrown).
#pragma once

#include "run_clustering.h"

#include <functional>
#include <string>
#include <vector>

namespace clusterdesk {

struct PoolOptions {
    std::string launcher = "mpirun";  // searched on PATH when it holds no '/'
    std::vector<std::string> launcherArgs = {"--allow-run-as-root", "--oversubscribe"};
    std::vector<std::string> extraArgs;  // after launcherArgs, e.g. {"--mca", "btl", "self,vader"}
    std::string workerPath;              // empty: clusterdesk-worker beside this executable
    double exitGraceSeconds = 5;         // after one side ends, how long to wait for the other before killing
};

// clusterdesk-worker in the directory of /proc/self/exe.
std::string defaultWorkerPath();

// topology.pool must be set. threads: host threads in all (0 = every core of each
// node), divided among the ranks. Throws UsageError/DataError as the ranks report
// them, DeviceError for anything else that fails, Cancelled when cancelled.
RunReport runPool(const Dataset& data, const KMeansParams& params, const Topology& topology, int threads,
                  const RunControl& control = {}, const PoolOptions& options = {});

}  // namespace clusterdesk
