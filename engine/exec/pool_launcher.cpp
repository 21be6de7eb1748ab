#include "pool_launcher.h"

#include "../core/error.h"
#include "child_process.h"
#include "heartbeat_watchdog.h"
#include "pool_job.h"

#include <omp.h>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>

namespace clusterdesk {
namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point t)
{
    return std::chrono::duration<double>(Clock::now() - t).count();
}

// Pool job directories live under $TMPDIR (or /tmp) as clusterdesk-pool-XXXXXX, each
// with an `owner` file: the launching process's pid and start time. A launcher killed
// outright (SIGKILL, a crash) cannot remove its own, so every launch first removes
// those whose owner is gone.
std::string jobDirBase()
{
    const char* base = std::getenv("TMPDIR");
    return base && *base ? base : "/tmp";
}

std::string ownerToken(pid_t pid, const std::map<pid_t, ProcessInfo>& table)
{
    const auto it = table.find(pid);
    return std::to_string(pid) + " " + std::to_string(it == table.end() ? 0 : it->second.start);
}

void removeAbandonedJobDirs()
{
    const auto table = processTable();
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(jobDirBase(), ec)) {
        if (entry.path().filename().string().rfind("clusterdesk-pool-", 0) != 0) continue;
        std::ifstream owner(entry.path() / "owner");
        long long pid = 0;
        if (!(owner >> pid) || pid <= 0) continue;  // not ours, or still being created: leave it
        std::string token;
        owner.seekg(0);
        std::getline(owner, token);
        if (token == ownerToken(static_cast<pid_t>(pid), table)) continue;  // its launcher runs
        std::error_code ignored;
        std::filesystem::remove_all(entry.path(), ignored);
    }
}

// A job directory, removed with everything in it.
class TempDir {
public:
    TempDir()
    {
        removeAbandonedJobDirs();
        std::string pattern = jobDirBase() + "/clusterdesk-pool-XXXXXX";
        if (!mkdtemp(pattern.data())) throw DeviceError("cannot create a pool job directory " + pattern + ": " + std::strerror(errno));
        m_path = pattern;
        std::ofstream owner(m_path + "/owner");
        owner << ownerToken(::getpid(), processTable()) << '\n';
    }
    ~TempDir()
    {
        std::error_code ec;
        std::filesystem::remove_all(m_path, ec);
    }
    const std::string& path() const { return m_path; }

private:
    std::string m_path;
};


}  // namespace

std::string defaultWorkerPath()
{
    std::error_code ec;
    const auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (ec) return "clusterdesk-worker";
    return (self.parent_path() / "clusterdesk-worker").string();
}

std::vector<std::string> defaultLauncherArgs()
{
    // OpenMPI refuses to start as root unless told; only a launcher that really runs as
    // root says so. --oversubscribe: pool:N may ask for more ranks than this machine has cores.
    std::vector<std::string> args;
    if (::geteuid() == 0) args.push_back("--allow-run-as-root");
    args.push_back("--oversubscribe");
    return args;
}

std::vector<std::string> poolLaunchCommand(const Topology& topology, const PoolOptions& options,
                                           const std::vector<std::string>& workerCommand)
{
    std::vector<std::string> argv{options.launcher};
    argv.insert(argv.end(), options.launcherArgs.begin(), options.launcherArgs.end());
    argv.insert(argv.end(), options.extraArgs.begin(), options.extraArgs.end());
    argv.insert(argv.end(), {"-np", std::to_string(topology.ranks)});
    if (!topology.hostfile.empty()) argv.insert(argv.end(), {"--hostfile", topology.hostfile});
    argv.insert(argv.end(), workerCommand.begin(), workerCommand.end());
    return argv;
}

RunReport runPool(const Dataset& data, const KMeansParams& params, const Topology& topology, int threads,
                  const RunControl& control, const PoolOptions& options)
{
    if (!topology.isPool()) throw UsageError("topology '" + toString(topology) + "' is not a pool");
    validate(params, data, topology.shardCount());
    validate(threads);
    const auto startTime = Clock::now();
    const int ranks = topology.ranks;
    const std::string worker = options.workerPath.empty() ? defaultWorkerPath() : options.workerPath;
    if (access(worker.c_str(), X_OK) != 0)
        throw DeviceError("pool worker not found or not executable: " + worker + " (" + std::strerror(errno) + ")");

    // Threads per rank: for pool:N the ranks share this machine's cores; on a hostfile
    // each node's ranks share that node's cores (0 lets the worker decide).
    int threadsPerRank = 0;
    if (threads > 0) threadsPerRank = std::max(1, threads / ranks);
    else if (topology.hostfile.empty()) threadsPerRank = std::max(1, omp_get_num_procs() / ranks);

    TempDir dir;
    const std::string jobPath = dir.path() + "/job.json";
    {
        std::ofstream job(jobPath);
        PoolJob spec = poolJobFor(data, params, threadsPerRank);
        spec.rankBackend = topology.shardBackend(0);  // "host" or "cuda", the same for every rank
        job << poolJobToJson(spec);
        if (!job) throw DeviceError("cannot write the pool job " + jobPath);
    }

    const std::vector<std::string> argv = poolLaunchCommand(topology, options, {worker, "--rank", jobPath});

    ChildProcess child(argv, options.launcher.find('/') == std::string::npos, "the pool launcher");

    RunReport report;
    bool haveResult = false;
    std::optional<PoolMessage> firstError;
    std::vector<IterationStats> history;
    OutputTail errTail, otherOut;
    std::optional<Clock::time_point> endSeen;  // when mpirun exited or its output closed
    auto lastRefresh = Clock::now();
    const std::string launcherName = options.launcher;
    HeartbeatWatchdog watchdog(ranks, {options.startupSeconds, options.silenceSeconds, options.stallSeconds});
    const auto beat = [&](const PoolMessage& m) { watchdog.beat({m.rank, m.progress, m.waiting, m.finished}); };
    std::optional<Clock::time_point> cancelSent;

    auto handleLine = [&](const std::string& line) {
        PoolMessage m = parsePoolLine(line);
        switch (m.type) {
        case PoolMessage::Type::Iteration:
            history.push_back(m.iteration);
            if (control.onIteration) control.onIteration(m.iteration);
            break;
        case PoolMessage::Type::Result:
            report.result = std::move(m.result);
            report.communicator = std::move(m.communicator);
            haveResult = true;
            break;
        case PoolMessage::Type::Error:
            if (!firstError) firstError = std::move(m);
            break;
        case PoolMessage::Type::Heartbeat:
            beat(m);
            break;
        case PoolMessage::Type::Other:
            otherOut.appendLine(line);
            break;
        }
    };

    // stderr: the ranks' heartbeats, and whatever mpirun or a failing rank says.
    auto handleErrLine = [&](const std::string& line) {
        if (const PoolMessage m = parsePoolLine(line); m.type == PoolMessage::Type::Heartbeat) {
            beat(m);
            return;
        }
        errTail.appendLine(line);
    };

    try {
        while (true) {
            child.readLines(100, handleLine, handleErrLine);
            if (control.cancel && control.cancel->load() && !cancelSent) {
                child.signal(SIGUSR1);  // mpirun forwards it to every rank
                cancelSent = Clock::now();
            }
            if (cancelSent && !haveResult && secondsSince(*cancelSent) > options.cancelGraceSeconds) {
                child.terminate();
                throw Cancelled("pool run cancelled; its ranks did not stop within " +
                                std::to_string(static_cast<int>(options.cancelGraceSeconds)) + " s and were killed");
            }
            if (!haveResult && !firstError && !endSeen) {
                if (const std::string hung = watchdog.verdict(); !hung.empty()) {
                    child.terminate();
                    throw DeviceError(hung + "; the run was stopped and all its processes killed");
                }
            }
            if (secondsSince(lastRefresh) > 0.25) {
                child.refreshDescendants();
                lastRefresh = Clock::now();
            }
            const bool reaped = child.poll();
            const bool outputClosed = child.outputClosed();
            if (reaped && outputClosed) break;
            if ((reaped || outputClosed) && !endSeen) endSeen = Clock::now();
            if (endSeen && secondsSince(*endSeen) > options.exitGraceSeconds) {
                child.terminate();
                break;
            }
        }
        child.flushPartialLines(handleLine, handleErrLine);
    } catch (...) {
        child.terminate();
        throw;
    }
    // Anything the launch left behind (a rank that outlived mpirun) goes too, and is gone
    // before this returns: on a machine whose cores are busy a killed rank can take
    // seconds to be scheduled to die (test_pool_launcher's killed rank outlived the
    // failure report under a loaded suite).
    child.terminate();

    const int status = child.status();
    const bool ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
    if (cancelSent && !haveResult) throw Cancelled("pool run cancelled; its processes were stopped");
    if (ok && haveResult && !firstError) {
        report.result.history = std::move(history);
        report.backend = topology.shardBackend(0);
        if (report.communicator.empty()) report.communicator = "MPI";
        report.devices = {"MPI pool of " + std::to_string(ranks) + " " + report.backend + " ranks" +
                          (topology.hostfile.empty() ? std::string(" on this machine") : " from " + topology.hostfile)};
        report.secondsTotal = secondsSince(startTime);
        return report;
    }
    if (firstError) {
        const std::string where = "pool rank " + std::to_string(firstError->rank) + ": ";
        if (firstError->kind == "usage") throw UsageError(firstError->message);
        if (firstError->kind == "data")
            throw DataError(firstError->file, firstError->line, firstError->column, firstError->message);
        throw DeviceError(where + firstError->message);
    }
    std::string what = "pool run failed: " + launcherName + " " + describeExitStatus(status);
    if (ok && !haveResult) what = "pool run failed: " + launcherName + " exited without a result from rank 0";
    // mpirun names the rank that died: "... process rank 1 with PID 123 on node x exited on signal 9 (Killed)."
    const std::string err = errTail.all() + "\n" + otherOut.all();
    if (const auto at = err.find("process rank"); at != std::string::npos) {
        const auto lineStart = err.rfind('\n', at);
        const auto lineEnd = err.find('\n', at);
        std::string line = err.substr(lineStart == std::string::npos ? 0 : lineStart + 1,
                                      lineEnd == std::string::npos ? std::string::npos : lineEnd - (lineStart == std::string::npos ? 0 : lineStart + 1));
        what += "; " + line;
    }
    const std::string tail = errTail.text();
    if (!tail.empty()) what += "\nstderr (last lines):\n" + tail;
    const std::string other = otherOut.text();
    if (!other.empty()) what += "\nstdout (last lines):\n" + other;
    throw DeviceError(what);
}

}  // namespace clusterdesk
