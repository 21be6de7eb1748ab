#include "pool_launcher.h"

#include "../core/error.h"
#include "pool_job.h"

#include <omp.h>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <thread>

extern char** environ;

namespace clusterdesk {
namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point t)
{
    return std::chrono::duration<double>(Clock::now() - t).count();
}

// pid -> (parent pid, start time) of every process, from /proc.
struct ProcInfo {
    pid_t ppid = 0;
    unsigned long long start = 0;
};

std::map<pid_t, ProcInfo> processTable()
{
    std::map<pid_t, ProcInfo> table;
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator("/proc", ec)) {
        const std::string name = entry.path().filename().string();
        if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos) continue;
        std::ifstream in(entry.path() / "stat");
        std::string text;
        if (!std::getline(in, text)) continue;
        const auto close = text.rfind(')');
        if (close == std::string::npos) continue;
        std::istringstream fields(text.substr(close + 2));
        std::string state;
        long long ppid = 0;
        fields >> state >> ppid;
        std::string skip;
        for (int i = 0; i < 17; ++i) fields >> skip;  // fields 5..21
        unsigned long long start = 0;
        fields >> start;                              // field 22: starttime
        table[static_cast<pid_t>(std::stoll(name))] = {static_cast<pid_t>(ppid), start};
    }
    return table;
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

std::string ownerToken(pid_t pid, const std::map<pid_t, ProcInfo>& table)
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


// The launched mpirun and everything below it. Descendants are remembered as they
// appear (with their start times, so a reused pid is never killed), because ranks
// that lose mpirun are re-parented and can no longer be found through it.
class ChildTree {
public:
    explicit ChildTree(pid_t root) : m_root(root) {}

    void refresh()
    {
        const auto table = processTable();
        std::vector<pid_t> frontier{m_root};
        while (!frontier.empty()) {
            const pid_t parent = frontier.back();
            frontier.pop_back();
            for (const auto& [pid, info] : table) {
                if (info.ppid != parent || pid == m_root) continue;
                m_known.emplace(pid, info.start);
                frontier.push_back(pid);
            }
        }
    }

    // SIGKILL to every remembered process still alive.
    void killAll()
    {
        refresh();
        const auto table = processTable();
        for (const auto& [pid, start] : m_known) {
            const auto it = table.find(pid);
            if (it != table.end() && it->second.start == start) ::kill(pid, SIGKILL);
        }
    }

    bool anyAlive() const
    {
        const auto table = processTable();
        for (const auto& [pid, start] : m_known) {
            const auto it = table.find(pid);
            if (it != table.end() && it->second.start == start) return true;
        }
        return false;
    }

private:
    pid_t m_root;
    std::map<pid_t, unsigned long long> m_known;
};

std::string describeStatus(int status)
{
    if (WIFEXITED(status)) return "exited with status " + std::to_string(WEXITSTATUS(status));
    if (WIFSIGNALED(status)) return std::string("was killed by signal ") + std::to_string(WTERMSIG(status)) + " (" + strsignal(WTERMSIG(status)) + ")";
    return "ended (status " + std::to_string(status) + ")";
}

// The last `limit` bytes of a stream, cut at a line start when possible.
class Tail {
public:
    void append(const char* data, std::size_t n)
    {
        m_text.append(data, n);
        if (m_text.size() > 2 * kLimit) m_text.erase(0, m_text.size() - kLimit);
    }
    std::string text() const
    {
        std::string t = m_text.size() > kLimit ? m_text.substr(m_text.size() - kLimit) : m_text;
        while (!t.empty() && (t.back() == '\n' || t.back() == ' ')) t.pop_back();
        return t;
    }
    const std::string& all() const { return m_text; }

private:
    static constexpr std::size_t kLimit = 3000;
    std::string m_text;
};

class Spawned {
public:
    Spawned(const std::vector<std::string>& argv, bool searchPath)
    {
        int out[2], err[2];
        if (pipe2(out, O_CLOEXEC) != 0) throw DeviceError(std::string("pool launcher: pipe: ") + std::strerror(errno));
        if (pipe2(err, O_CLOEXEC) != 0) {
            ::close(out[0]);
            ::close(out[1]);
            throw DeviceError(std::string("pool launcher: pipe: ") + std::strerror(errno));
        }
        posix_spawn_file_actions_t actions;
        posix_spawn_file_actions_init(&actions);
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
        posix_spawn_file_actions_adddup2(&actions, out[1], 1);
        posix_spawn_file_actions_adddup2(&actions, err[1], 2);
        posix_spawnattr_t attr;
        posix_spawnattr_init(&attr);
        sigset_t none, defaults;
        sigemptyset(&none);
        sigemptyset(&defaults);
        for (int sig : {SIGINT, SIGTERM, SIGPIPE, SIGHUP, SIGCHLD, SIGUSR1, SIGUSR2}) sigaddset(&defaults, sig);
        posix_spawnattr_setsigmask(&attr, &none);
        posix_spawnattr_setsigdefault(&attr, &defaults);
        posix_spawnattr_setpgroup(&attr, 0);  // its own process group: no terminal Ctrl-C, one group to kill
        posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
        std::vector<char*> cargv;
        for (const std::string& a : argv) cargv.push_back(const_cast<char*>(a.c_str()));
        cargv.push_back(nullptr);
        const int rc = searchPath ? posix_spawnp(&m_pid, cargv[0], &actions, &attr, cargv.data(), environ)
                                  : posix_spawn(&m_pid, cargv[0], &actions, &attr, cargv.data(), environ);
        posix_spawn_file_actions_destroy(&actions);
        posix_spawnattr_destroy(&attr);
        ::close(out[1]);
        ::close(err[1]);
        if (rc != 0) {
            ::close(out[0]);
            ::close(err[0]);
            throw DeviceError("cannot start the pool launcher '" + argv[0] + "': " + std::strerror(rc));
        }
        m_out = out[0];
        m_err = err[0];
    }

    ~Spawned()
    {
        if (m_out >= 0) ::close(m_out);
        if (m_err >= 0) ::close(m_err);
        if (!m_reaped) {
            ::kill(-m_pid, SIGKILL);
            ::kill(m_pid, SIGKILL);
            waitpid(m_pid, nullptr, 0);
        }
    }

    pid_t pid() const { return m_pid; }
    int& out() { return m_out; }
    int& err() { return m_err; }

    // Reaps the child if it has ended; true once reaped.
    bool poll()
    {
        if (m_reaped) return true;
        int status = 0;
        if (waitpid(m_pid, &status, WNOHANG) == m_pid) {
            m_reaped = true;
            m_status = status;
        }
        return m_reaped;
    }
    void wait()
    {
        if (m_reaped) return;
        int status = 0;
        while (waitpid(m_pid, &status, 0) < 0 && errno == EINTR) {}
        m_reaped = true;
        m_status = status;
    }
    int status() const { return m_status; }

private:
    pid_t m_pid = -1;
    int m_out = -1;
    int m_err = -1;
    bool m_reaped = false;
    int m_status = 0;
};

// Terminates the launch: SIGTERM to mpirun (it takes its ranks down), then after a
// short wait SIGKILL to its group and to every process it started.
void terminate(Spawned& child, ChildTree& tree)
{
    tree.refresh();
    if (!child.poll()) {
        ::kill(child.pid(), SIGTERM);
        const auto start = Clock::now();
        while (!child.poll() && secondsSince(start) < 2) std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    if (!child.poll()) ::kill(-child.pid(), SIGKILL);
    tree.killAll();
    child.wait();
    const auto start = Clock::now();
    while (tree.anyAlive() && secondsSince(start) < 2) {
        tree.killAll();
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
}

std::string rankList(const std::vector<int>& ranks)
{
    std::string text = ranks.size() == 1 ? "rank " : "ranks ";
    for (std::size_t i = 0; i < ranks.size(); ++i) text += (i ? ", " : "") + std::to_string(ranks[i]);
    return text;
}

// The ranks' heartbeats (see PoolOptions): has any rank hung?
class Watchdog {
public:
    Watchdog(int ranks, const PoolOptions& options)
        : m_ranks(static_cast<std::size_t>(ranks)), m_options(options), m_start(Clock::now()), m_lastProgress(m_start)
    {
    }

    void beat(const PoolMessage& m)
    {
        if (m.rank < 0 || m.rank >= static_cast<int>(m_ranks.size())) return;
        RankState& r = m_ranks[static_cast<std::size_t>(m.rank)];
        if (!r.heard || m.progress != r.progress) m_lastProgress = Clock::now();
        r = {true, Clock::now(), m.progress, m.waiting, m.finished};
    }

    // Empty while every rank is alive and the run progresses; else what hung.
    std::string verdict() const
    {
        std::vector<int> silent, notStarted, busy, waiting;
        for (std::size_t i = 0; i < m_ranks.size(); ++i) {
            const RankState& r = m_ranks[i];
            const int rank = static_cast<int>(i);
            if (r.finished) continue;  // done with the run, going quiet: nobody waits for it
            if (!r.heard && secondsSince(m_start) > m_options.startupSeconds) notStarted.push_back(rank);
            if (r.heard && secondsSince(r.lastSeen) > m_options.silenceSeconds) silent.push_back(rank);
            (r.heard && r.waiting ? waiting : busy).push_back(rank);
        }
        const auto seconds = [](double s) { return std::to_string(static_cast<long long>(s)) + " s"; };
        if (!silent.empty())
            return "pool " + rankList(silent) + " hung: no heartbeat for over " + seconds(m_options.silenceSeconds) +
                   " (the process froze or its node is unreachable)";
        if (!notStarted.empty())
            return "pool " + rankList(notStarted) + " never reported within " + seconds(m_options.startupSeconds) + " of the launch";
        if (secondsSince(m_lastProgress) > m_options.stallSeconds) {
            if (busy.empty()) return "pool ranks made no progress for " + seconds(m_options.stallSeconds) + ", all waiting in a collective";
            return "pool " + rankList(busy) + " hung: no progress for " + seconds(m_options.stallSeconds) +
                   " outside any collective" + (waiting.empty() ? std::string() : " while " + rankList(waiting) + " waited for it");
        }
        return {};
    }

private:
    struct RankState {
        bool heard = false;
        Clock::time_point lastSeen;
        std::uint64_t progress = 0;
        bool waiting = false;
        bool finished = false;
    };
    std::vector<RankState> m_ranks;
    const PoolOptions& m_options;
    Clock::time_point m_start;
    Clock::time_point m_lastProgress;
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

    Spawned child(argv, options.launcher.find('/') == std::string::npos);
    ChildTree tree(child.pid());

    RunReport report;
    bool haveResult = false;
    std::optional<PoolMessage> firstError;
    std::vector<IterationStats> history;
    std::string pending, pendingErr;  // stdout and stderr not yet split into lines
    Tail errTail, otherOut;
    std::optional<Clock::time_point> endSeen;  // when mpirun exited or its output closed
    auto lastRefresh = Clock::now();
    const std::string launcherName = options.launcher;
    Watchdog watchdog(ranks, options);
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
            watchdog.beat(m);
            break;
        case PoolMessage::Type::Other:
            otherOut.append(line.data(), line.size());
            otherOut.append("\n", 1);
            break;
        }
    };

    // stderr: the ranks' heartbeats, and whatever mpirun or a failing rank says.
    auto handleErrLine = [&](const std::string& line) {
        if (const PoolMessage m = parsePoolLine(line); m.type == PoolMessage::Type::Heartbeat) {
            watchdog.beat(m);
            return;
        }
        errTail.append(line.data(), line.size());
        errTail.append("\n", 1);
    };

    try {
        char buffer[65536];
        while (true) {
            pollfd fds[2];
            int n = 0;
            if (child.out() >= 0) fds[n++] = {child.out(), POLLIN, 0};
            if (child.err() >= 0) fds[n++] = {child.err(), POLLIN, 0};
            if (n > 0) ::poll(fds, static_cast<nfds_t>(n), 100);
            else std::this_thread::sleep_for(std::chrono::milliseconds(20));
            for (int i = 0; i < n; ++i) {
                if (!(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
                const ssize_t got = ::read(fds[i].fd, buffer, sizeof buffer);
                if (got < 0 && errno == EINTR) continue;
                const bool isOut = fds[i].fd == child.out();
                if (got <= 0) {
                    ::close(fds[i].fd);
                    (isOut ? child.out() : child.err()) = -1;
                    continue;
                }
                std::string& lines = isOut ? pending : pendingErr;
                // Bytes kept from earlier reads hold no newline: only the new ones are
                // searched, so a result line of many megabytes costs linear time.
                std::size_t searchFrom = lines.size();
                lines.append(buffer, static_cast<std::size_t>(got));
                std::size_t startLine = 0;
                for (std::size_t nl; (nl = lines.find('\n', searchFrom)) != std::string::npos; startLine = searchFrom = nl + 1) {
                    const std::string line = lines.substr(startLine, nl - startLine);
                    if (isOut) handleLine(line);
                    else handleErrLine(line);
                }
                lines.erase(0, startLine);
            }
            if (control.cancel && control.cancel->load() && !cancelSent) {
                ::kill(child.pid(), SIGUSR1);  // mpirun forwards it to every rank
                cancelSent = Clock::now();
            }
            if (cancelSent && !haveResult && secondsSince(*cancelSent) > options.cancelGraceSeconds) {
                terminate(child, tree);
                throw Cancelled("pool run cancelled; its ranks did not stop within " +
                                std::to_string(static_cast<int>(options.cancelGraceSeconds)) + " s and were killed");
            }
            if (!haveResult && !firstError && !endSeen) {
                if (const std::string hung = watchdog.verdict(); !hung.empty()) {
                    terminate(child, tree);
                    throw DeviceError(hung + "; the run was stopped and all its processes killed");
                }
            }
            if (secondsSince(lastRefresh) > 0.25) {
                tree.refresh();
                lastRefresh = Clock::now();
            }
            const bool reaped = child.poll();
            const bool outputClosed = child.out() < 0 && child.err() < 0;
            if (reaped && outputClosed) break;
            if ((reaped || outputClosed) && !endSeen) endSeen = Clock::now();
            if (endSeen && secondsSince(*endSeen) > options.exitGraceSeconds) {
                terminate(child, tree);
                break;
            }
        }
        if (!pending.empty()) handleLine(pending);
        if (!pendingErr.empty()) handleErrLine(pendingErr);
    } catch (...) {
        terminate(child, tree);
        throw;
    }
    // Anything the launch left behind (a rank that outlived mpirun) goes too.
    tree.killAll();
    child.wait();

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
    std::string what = "pool run failed: " + launcherName + " " + describeStatus(status);
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
