// Pool runs: `mpirun ... -np N [--hostfile FILE] clusterdesk-worker --rank JOB.json` as
// a child process (an argument list, never a shell string), in its own process group.
// Rank 0's JSON lines (pool_job.h) become RunControl::onIteration calls and the
// ClusterResult. A rank that dies, a launcher that cannot start, or a worker that
// reports an error become an exception naming what happened (exit status, the rank,
// the tail of stderr); every process the launch started is killed before it returns.
//
// Watchdog: every rank prints a heartbeat about once a second with the number of
// collectives it has completed. A rank that goes silent (its process froze, its node
// went away) or that stops progressing outside any collective while the others wait
// for it ends the run as failed, naming the rank, and every process is killed.
//
// Cancel (RunControl::cancel): SIGUSR1 to mpirun, which forwards it to every rank; rank
// 0 stops after the current iteration and the partial result comes back with
// result.cancelled set, as in a local run. Ranks that do not answer within
// cancelGraceSeconds are killed, and then Cancelled is thrown.
#pragma once

#include "run_clustering.h"

#include <functional>
#include <string>
#include <vector>

namespace clusterdesk {

// mpirun's own arguments: --oversubscribe, and --allow-run-as-root only when this
// process runs as root.
std::vector<std::string> defaultLauncherArgs();

struct PoolOptions {
    std::string launcher = "mpirun";  // searched on PATH when it holds no '/'
    std::vector<std::string> launcherArgs = defaultLauncherArgs();
    std::vector<std::string> extraArgs;  // after launcherArgs, e.g. {"--mca", "btl", "self,vader"}
    std::string workerPath;              // empty: clusterdesk-worker beside this executable
    double exitGraceSeconds = 5;         // after one side ends, how long to wait for the other before killing
    double startupSeconds = 60;          // from the launch until every rank's first heartbeat
    double silenceSeconds = 15;          // a rank not heard from for this long has hung
    double stallSeconds = 600;           // no rank finished a collective for this long: the ranks outside one have hung
    double cancelGraceSeconds = 10;      // after a cancel, how long to wait for the partial result
};

// clusterdesk-worker in the directory of /proc/self/exe.
std::string defaultWorkerPath();

// The launcher's argument list for the pool: launcher, its arguments, -np RANKS,
// --hostfile FILE (pool:HOSTFILE), then workerCommand (the worker and its arguments).
// runPool starts it with "--rank JOB"; the GUI's connection test with "--probe".
std::vector<std::string> poolLaunchCommand(const Topology& topology, const PoolOptions& options,
                                           const std::vector<std::string>& workerCommand);

// topology must be a pool. threads: host threads in all (0 = every core of each
// node), divided among the ranks. Throws UsageError/DataError as the ranks report
// them, DeviceError for anything else that fails, Cancelled when cancelled.
RunReport runPool(const Dataset& data, const KMeansParams& params, const Topology& topology, int threads,
                  const RunControl& control = {}, const PoolOptions& options = {});

}  // namespace clusterdesk
