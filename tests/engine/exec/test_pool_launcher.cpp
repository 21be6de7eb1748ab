// Pool runs through mpirun and clusterdesk-worker --rank: exact mode matches host
// bit for bit, fast mode agrees, a rank that dies or a missing launcher fails cleanly
// (in bounded time, no processes left behind). Skipped when the build has no MPI or
// mpirun is not on PATH.
#include "engine/cluster/metrics.h"
#include "engine/core/error.h"
#include "engine/cluster/cluster_codec.h"
#include "engine/data/demo.h"
#include "engine/data/open_source.h"
#include "engine/exec/pool_launcher.h"
#include "engine/exec/run_clustering.h"

#include "doctest_support.h"
#include "test_hooks_guard.h"
#include "temp_dir.h"

#include <cstdint>
#include <string>
#include <vector>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>

using namespace clusterdesk;

namespace {

const std::string kWorker = CLUSTERDESK_BIN_DIR "/clusterdesk-worker";

struct Proc {
    pid_t pid = 0;
    pid_t ppid = 0;
    char state = '?';
    std::string comm;
};

std::map<pid_t, Proc> processes()
{
    std::map<pid_t, Proc> all;
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator("/proc", ec)) {
        const std::string name = entry.path().filename().string();
        if (name.find_first_not_of("0123456789") != std::string::npos) continue;
        std::ifstream in(entry.path() / "stat");
        std::string text;
        if (!std::getline(in, text)) continue;
        const auto open = text.find('('), close = text.rfind(')');
        if (open == std::string::npos || close == std::string::npos) continue;
        Proc p;
        p.pid = static_cast<pid_t>(std::stol(name));
        p.comm = text.substr(open + 1, close - open - 1);
        std::istringstream rest(text.substr(close + 2));
        long long ppid = 0;
        rest >> p.state >> ppid;
        p.ppid = static_cast<pid_t>(ppid);
        all[p.pid] = p;
    }
    return all;
}

bool isWorker(const Proc& p) { return p.comm.rfind("clusterdesk-wor", 0) == 0; }

// Live (not zombie) clusterdesk-worker processes below this test process.
std::vector<pid_t> myWorkers()
{
    const auto all = processes();
    std::vector<pid_t> out;
    for (const auto& [pid, p] : all) {
        if (!isWorker(p) || p.state == 'Z') continue;
        for (pid_t up = p.ppid; up > 1;) {
            if (up == getpid()) {
                out.push_back(pid);
                break;
            }
            const auto it = all.find(up);
            if (it == all.end()) break;
            up = it->second.ppid;
        }
    }
    return out;
}

bool alive(pid_t pid)
{
    std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
    std::string text;
    if (!std::getline(in, text)) return false;
    const auto close = text.rfind(')');
    return close != std::string::npos && close + 2 < text.size() && text[close + 2] != 'Z';
}

int rankOf(pid_t pid)
{
    std::ifstream in("/proc/" + std::to_string(pid) + "/environ", std::ios::binary);
    std::string entry;
    while (std::getline(in, entry, '\0'))
        if (entry.rfind("OMPI_COMM_WORLD_RANK=", 0) == 0) return std::stoi(entry.substr(21));
    return -1;
}

PoolOptions workerOptions()
{
    PoolOptions o;
    o.workerPath = kWorker;
    return o;
}

}  // namespace

namespace {

// Tests that start ranks need a worker built with MPI and mpirun: empty where they can
// run, otherwise why not (they skip saying so). The others (parsing, missing launcher
// or worker) run everywhere.
std::string noRanksReason()
{
#ifndef CLUSTERDESK_HAVE_MPI
    return "built without MPI (CLUSTERDESK_WITH_MPI off or MPI not found): no clusterdesk-worker --rank";
#endif
    const char* path = std::getenv("PATH");
    std::istringstream dirs(path ? path : "");
    for (std::string dir; std::getline(dirs, dir, ':');)
        if (!dir.empty() && ::access((dir + "/mpirun").c_str(), X_OK) == 0) return {};
    return "mpirun is not on PATH (install openmpi-bin)";
}

// Milliseconds since start(), as ElapsedTimer gave.
class ElapsedTimer {
public:
    void start() { m_start = std::chrono::steady_clock::now(); }
    long long elapsed() const
    {
        return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - m_start).count();
    }

private:
    std::chrono::steady_clock::time_point m_start = std::chrono::steady_clock::now();
};

}  // namespace

TEST_CASE("rootFlagOnlyForRoot")
{
    // OpenMPI's --allow-run-as-root goes only to a launch that really runs as root.
    const auto args = defaultLauncherArgs();
    const bool flagged = std::find(args.begin(), args.end(), "--allow-run-as-root") != args.end();
    REQUIRE_EQ(flagged, ::geteuid() == 0);
    if (::geteuid() != 0) return;
    // As an ordinary user (a child that drops root), the flag is gone.
    const pid_t child = ::fork();
    if (child == 0) {
        if (::setgid(65534) != 0 || ::setuid(65534) != 0) ::_exit(2);
        const auto user = defaultLauncherArgs();
        ::_exit(std::find(user.begin(), user.end(), "--allow-run-as-root") == user.end() ? 0 : 1);
    }
    int status = 0;
    REQUIRE_EQ(::waitpid(child, &status, 0), child);
    REQUIRE(WIFEXITED(status));
    REQUIRE_EQ(WEXITSTATUS(status), 0);
}

TEST_CASE("abandonedJobDirectoriesAreRemoved")
{
    if (const std::string why = noRanksReason(); !why.empty()) CLUSTERDESK_SKIP(why);
    // A launcher killed outright leaves its job directory; the next launch removes
    // those whose owner process is gone, and only those.
    test::TempDir tmp;
    const char* oldTmpVar = std::getenv("TMPDIR");
    const std::optional<std::string> oldTmp = oldTmpVar ? std::optional<std::string>(oldTmpVar) : std::nullopt;
    ::setenv("TMPDIR", tmp.path().c_str(), 1);
    const pid_t dead = ::fork();
    if (dead == 0) ::_exit(0);
    ::waitpid(dead, nullptr, 0);
    std::ifstream selfStat("/proc/self/stat");
    std::string stat;
    std::getline(selfStat, stat);
    std::istringstream fields(stat.substr(stat.rfind(')') + 2));
    std::string field;
    for (int i = 3; i <= 22; ++i) fields >> field;  // field 22: start time
    const std::map<std::string, std::string> owners = {{"clusterdesk-pool-dead01", std::to_string(dead) + " " + field},
                                                   {"clusterdesk-pool-live01", std::to_string(::getpid()) + " " + field},
                                                   {"clusterdesk-pool-reused", std::to_string(::getpid()) + " 1"}};
    for (const auto& [name, token] : owners) {
        REQUIRE(std::filesystem::create_directory(tmp.filePath(name)));
        std::ofstream(tmp.filePath(name + "/owner")) << token << "\n";
        std::ofstream(tmp.filePath(name + "/job.json")) << "{}";
    }
    REQUIRE(std::filesystem::create_directory(tmp.filePath("clusterdesk-pool-noowner")));  // being created: left alone
    const Dataset small = makeDemo("blobs:n=300,d=2,k=3");
    KMeansParams params;
    params.k = 3;
    runPool(small, params, parseTopology("pool:2"), 2, {}, workerOptions());
    if (!oldTmp) ::unsetenv("TMPDIR");
    else ::setenv("TMPDIR", oldTmp->c_str(), 1);
    std::vector<std::string> left;
    for (const auto& entry : std::filesystem::directory_iterator(tmp.path()))
        if (entry.is_directory()) left.push_back(entry.path().filename().string());
    std::sort(left.begin(), left.end());
    REQUIRE_EQ(left, (std::vector<std::string>{"clusterdesk-pool-live01", "clusterdesk-pool-noowner"}));
}

TEST_CASE("parsesPoolTopologies")
{
    const Topology local = parseTopology("pool:3");
    REQUIRE(local.isPool());
    REQUIRE_EQ(local.ranks, 3);
    REQUIRE(local.hostfile.empty());
    test::TempDir dir;
    const std::string hostfile = dir.filePath("hosts");
    std::ofstream(hostfile) << "# nodes\nlocalhost slots=2\nlocalhost slots=3 max_slots=4\n\n";
    const Topology file = parseTopology("pool:" + hostfile);
    REQUIRE(file.isPool());
    REQUIRE_EQ(file.hostfile, hostfile);
    REQUIRE_EQ(file.ranks, 5);
    REQUIRE_THROWS_AS(parseTopology("pool:0"), UsageError);
    REQUIRE_THROWS_AS(parseTopology("pool:/no/such/hostfile"), UsageError);
    // A slot count out of range names its line and the range, whichever way it fails.
    for (const char* slots : {"0", "2000000"}) {
        std::ofstream(hostfile) << "localhost slots=2\nlocalhost slots=" << slots << "\n";
        REQUIRE_THROWS_WITH_AS(parseTopology("pool:" + hostfile),
                               (hostfile + ":2: slots: '" + slots + "' is not a number from 1 to 1048576").c_str(), UsageError);
    }
}

namespace {

struct ExactMatchesHostRow {
    std::string tag;
    int ranks;
};

std::vector<ExactMatchesHostRow> exactMatchesHostRows()
{
    std::vector<ExactMatchesHostRow> rows;
    rows.push_back({"pool:2", 2});
    rows.push_back({"pool:3", 3});
    rows.push_back({"pool:4", 4});
    return rows;
}

}  // namespace

TEST_CASE("exactMatchesHost")
{
    if (const std::string why = noRanksReason(); !why.empty()) CLUSTERDESK_SKIP(why);
    for (const ExactMatchesHostRow& row : exactMatchesHostRows()) {
        SUBCASE(row.tag.c_str())
        {
            const int& ranks = row.ranks;
            const Dataset data = makeDemo("blobs:n=6000,d=6,k=5,seed=3");
            KMeansParams params;
            params.k = 5;
            params.mode = kernels::Mode::Exact;
            const RunReport host = runClustering(data, params, parseTopology("host"), 2);
            // Shards in threads give the same bits too: the reference every topology meets.
            const RunReport shards = runClustering(data, params, parseTopology("shards:4"), 2);
            REQUIRE(shards.result.labels == host.result.labels);
            REQUIRE(shards.result.centroids == host.result.centroids);
            int callbacks = 0;
            RunControl control;
            control.onIteration = [&](const IterationStats& s) {
                ++callbacks;
                CHECK_EQ(s.k, 5);
            };
            const RunReport pool = runPool(data, params, parseTopology("pool:" + std::to_string(ranks)), 2, control, workerOptions());
            REQUIRE_EQ(pool.result.labels.size(), host.result.labels.size());
            REQUIRE(pool.result.labels == host.result.labels);
            REQUIRE_EQ(pool.result.centroids.size(), host.result.centroids.size());
            REQUIRE(std::memcmp(pool.result.centroids.data(), host.result.centroids.data(),
                                host.result.centroids.size() * sizeof(float)) == 0);
            REQUIRE_EQ(pool.result.inertia, host.result.inertia);
            REQUIRE_EQ(pool.result.iterations, host.result.iterations);
            REQUIRE_EQ(callbacks, static_cast<int>(pool.result.history.size()));
            REQUIRE(callbacks >= 1);
            REQUIRE(myWorkers().empty());
        }
    }
}

TEST_CASE("adaptGrowExactMatchesHost")
{
    if (const std::string why = noRanksReason(); !why.empty()) CLUSTERDESK_SKIP(why);
    const Dataset data = makeDemo("blobs:n=6000,d=5,k=6,seed=4");
    KMeansParams params;
    params.algorithm = Algorithm::AdaptGrow;
    params.kMax = 16;
    params.mode = kernels::Mode::Exact;
    const RunReport host = runClustering(data, params, parseTopology("host"), 2);
    const RunReport pool = runPool(data, params, parseTopology("pool:3"), 2, {}, workerOptions());
    REQUIRE_EQ(pool.result.k, host.result.k);
    REQUIRE(pool.result.labels == host.result.labels);
    REQUIRE(pool.result.centroids == host.result.centroids);
    REQUIRE_EQ(pool.result.history.size(), host.result.history.size());
    // Why growth stopped comes back from rank 0 whole: every test, the same values.
    REQUIRE(pool.result.growth.stop != GrowthStop::NotGrown);
    REQUIRE_EQ(codec::toJson(pool.result.growth).dump(), codec::toJson(host.result.growth).dump());
}

TEST_CASE("adaptGrowRestartsExactMatchHost")
{
    if (const std::string why = noRanksReason(); !why.empty()) CLUSTERDESK_SKIP(why);
    // k-means restarts at the k AdaptGrow chose (n-init) keep the same partition on the
    // ranks as on the host: every rank compares the same all-reduced inertias.
    const Dataset data = makeDemo("market:assets=20,sectors=5,days=2001,window=2000,seed=2");
    KMeansParams params;
    params.algorithm = Algorithm::AdaptGrow;
    params.kMax = 10;
    params.nInit = 4;
    params.mode = kernels::Mode::Exact;
    const RunReport host = runClustering(data, params, parseTopology("host"), 2);
    const RunReport pool = runPool(data, params, parseTopology("pool:3"), 2, {}, workerOptions());
    REQUIRE_EQ(pool.result.k, host.result.k);
    REQUIRE_EQ(pool.result.inertia, host.result.inertia);
    REQUIRE(pool.result.labels == host.result.labels);
    REQUIRE(pool.result.centroids == host.result.centroids);
    REQUIRE_EQ(pool.result.history.size(), host.result.history.size());
}

TEST_CASE("fileDataMatchesHost")
{
    if (const std::string why = noRanksReason(); !why.empty()) CLUSTERDESK_SKIP(why);
    // The ranks load the file themselves (same layout), and their hash must match.
    test::TempDir dir;
    const std::string path = dir.filePath("points.csv");
    const Dataset demo = makeDemo("blobs:n=500,d=3,k=4,seed=9");
    {
        std::ofstream out(path);
        out << "a,b,c\n";
        for (std::int64_t i = 0; i < demo.rows; ++i)
            out << demo.row(i)[0] << ',' << demo.row(i)[1] << ',' << demo.row(i)[2] << '\n';
    }
    const Dataset data = openSource(describeFile(path));
    KMeansParams params;
    params.k = 4;
    params.mode = kernels::Mode::Exact;
    const RunReport host = runClustering(data, params, parseTopology("host"), 2);
    const RunReport pool = runPool(data, params, parseTopology("pool:2"), 2, {}, workerOptions());
    REQUIRE(pool.result.labels == host.result.labels);
    REQUIRE(pool.result.centroids == host.result.centroids);
}

TEST_CASE("fastModeAgrees")
{
    if (const std::string why = noRanksReason(); !why.empty()) CLUSTERDESK_SKIP(why);
    const Dataset data = makeDemo("blobs:n=8000,d=8,k=6,seed=5");
    KMeansParams params;
    params.k = 6;
    const RunReport host = runClustering(data, params, parseTopology("host"), 2);
    // Every topology of the issue against the host run: shards:4 in threads, and 2, 3
    // and 4 MPI ranks.
    for (const char* spec : {"shards:4", "pool:2", "pool:3", "pool:4"}) {
        const Topology topology = parseTopology(spec);
        const RunReport other = topology.isPool() ? runPool(data, params, topology, 2, {}, workerOptions())
                                              : runClustering(data, params, topology, 2);
        const double ari = adjustedRandIndex(other.result.labels, host.result.labels);
        MESSAGE(test::format("fast mode, %s vs host: ARI %.6f", spec, ari));
        REQUIRE_MESSAGE(ari >= 0.999, spec << ": " << ari);
    }
}

TEST_CASE("killedRankFailsCleanly")
{
    if (const std::string why = noRanksReason(); !why.empty()) CLUSTERDESK_SKIP(why);
    CLUSTERDESK_REQUIRE_TEST_HOOKS();
    std::optional<clusterdesk::testhooks::EndlessRuns> endless{std::in_place};  // the run lasts until the rank dies
    const Dataset data = makeDemo("blobs:n=100000,d=16,k=8,spread=3");
    KMeansParams params;
    params.k = 64;
    std::vector<pid_t> ranks;
    pid_t victim = 0;
    ElapsedTimer sinceKill;
    RunControl control;
    control.onIteration = [&](const IterationStats&) {
        if (victim) return;
        ranks = myWorkers();
        for (pid_t pid : ranks)
            if (rankOf(pid) == 1) victim = pid;
        if (!victim) return;
        ::kill(victim, SIGKILL);
        sinceKill.start();
    };
    std::string message;
    try {
        runPool(data, params, parseTopology("pool:3"), 2, control, workerOptions());
        FAIL("the run survived a killed rank");
    } catch (const DeviceError& e) {
        message = e.what();
    }
    MESSAGE(test::format("failure reported %lld ms after the kill: %s", static_cast<long long>(sinceKill.elapsed()),
          message.substr(0, 400).c_str()));
    REQUIRE_MESSAGE(victim != 0, "no rank 1 process found");
    REQUIRE_EQ(ranks.size(), std::size_t{3});
    REQUIRE(sinceKill.elapsed() < 10000);
    REQUIRE_MESSAGE(test::contains(message, "rank"), std::string(message).c_str());
    REQUIRE_MESSAGE((test::contains(message, "signal") || test::contains(message, "exit")), std::string(message).c_str());
    for (pid_t pid : ranks) REQUIRE_MESSAGE(!alive(pid), "rank process " << pid << " is still alive");
    REQUIRE(myWorkers().empty());

    // The next run (an ordinary one) works.
    endless.reset();
    const Dataset small = makeDemo("blobs:n=3000,d=4,k=3,seed=2");
    KMeansParams quick;
    quick.k = 3;
    const RunReport after = runPool(small, quick, parseTopology("pool:2"), 2, {}, workerOptions());
    REQUIRE_EQ(after.result.labels.size(), std::size_t{3000});
}

TEST_CASE("cancelReturnsThePartialResult")
{
    if (const std::string why = noRanksReason(); !why.empty()) CLUSTERDESK_SKIP(why);
    CLUSTERDESK_REQUIRE_TEST_HOOKS();
    const clusterdesk::testhooks::EndlessRuns endless;  // the run lasts until the cancel
    // As in a local run: the ranks stop after the current iteration and rank 0's
    // partial result comes back, marked cancelled; no process is left.
    const Dataset data = makeDemo("blobs:n=100000,d=16,k=8,spread=3");
    KMeansParams params;
    params.k = 64;
    std::atomic<bool> cancel{false};
    std::vector<pid_t> ranks;
    RunControl control;
    control.cancel = &cancel;
    control.onIteration = [&](const IterationStats&) {
        if (cancel) return;
        ranks = myWorkers();
        cancel = true;
    };
    ElapsedTimer timer;
    timer.start();
    const RunReport report = runPool(data, params, parseTopology("pool:2"), 2, control, workerOptions());
    REQUIRE(timer.elapsed() < 10000);
    REQUIRE(report.result.cancelled);
    REQUIRE((report.result.iterations >= 1 && report.result.iterations < 1000));
    REQUIRE_EQ(report.result.labels.size(), std::size_t{100000});
    REQUIRE_EQ(report.result.history.size(), static_cast<std::size_t>(report.result.iterations));
    REQUIRE(!ranks.empty());
    for (pid_t pid : ranks) REQUIRE(!alive(pid));
    REQUIRE(myWorkers().empty());
}

namespace {

struct HungRankFailsNamingItRow {
    std::string tag;
    std::string mode;
};

std::vector<HungRankFailsNamingItRow> hungRankFailsNamingItRows()
{
    std::vector<HungRankFailsNamingItRow> rows;
    rows.push_back({"frozen process (no heartbeat)", "stop"});
    rows.push_back({"stuck run (heartbeat, no progress)", "sleep"});
    return rows;
}

}  // namespace

TEST_CASE("hungRankFailsNamingIt")
{
    if (const std::string why = noRanksReason(); !why.empty()) CLUSTERDESK_SKIP(why);
    for (const HungRankFailsNamingItRow& row : hungRankFailsNamingItRows()) {
        SUBCASE(row.tag.c_str())
        {
            // The worker's test hook makes rank 1 hang without dying after 40 collectives
            // (a few iterations in); the watchdog must end the run naming rank 1, in bounded
            // time, with every process gone.
            CLUSTERDESK_REQUIRE_TEST_HOOKS();
            const std::string& mode = row.mode;
            const clusterdesk::testhooks::EndlessRuns endless;  // the run reaches the hang on any machine
            const Dataset data = makeDemo("blobs:n=100000,d=16,k=8,spread=3");
            KMeansParams params;
            params.k = 64;
            params.init = InitMethod::Given;  // few collectives before the iterations
            params.initialCentroids.assign(data.values.begin(), data.values.begin() + 64 * 16);
            PoolOptions options = workerOptions();
            options.silenceSeconds = 3;
            options.stallSeconds = mode == "sleep" ? 3 : 60;
            std::vector<pid_t> ranks;
            RunControl control;
            control.onIteration = [&](const IterationStats&) {
                if (ranks.empty()) ranks = myWorkers();
            };
            ::setenv("CLUSTERDESK_WORKER_TEST_HANG", ("1:40:" + mode).c_str(), 1);
            ElapsedTimer timer;
            timer.start();
            std::string message;
            try {
                runPool(data, params, parseTopology("pool:3"), 2, control, options);
            } catch (const DeviceError& e) {
                message = e.what();
            }
            ::unsetenv("CLUSTERDESK_WORKER_TEST_HANG");
            MESSAGE(test::format("%s: failure after %lld ms: %s", std::string(mode).c_str(), static_cast<long long>(timer.elapsed()), std::string(message).c_str()));
            REQUIRE_MESSAGE(test::startsWith(message, "pool rank 1 hung"), std::string(message).c_str());
            REQUIRE(timer.elapsed() < 30000);
            REQUIRE_EQ(ranks.size(), std::size_t{3});
            for (pid_t pid : ranks) REQUIRE_MESSAGE(!alive(pid), "rank process " << pid << " is still alive");
            REQUIRE(myWorkers().empty());
        }
    }
}

TEST_CASE("progressLinesCarryEveryRanksTiming")
{
    if (const std::string why = noRanksReason(); !why.empty()) CLUSTERDESK_SKIP(why);
    const Dataset data = makeDemo("blobs:n=6000,d=6,k=5,seed=3");
    KMeansParams params;
    params.k = 5;
    std::vector<IterationStats> seen;
    RunControl control;
    control.onIteration = [&](const IterationStats& s) { seen.push_back(s); };
    const RunReport pool = runPool(data, params, parseTopology("pool:3"), 2, control, workerOptions());
    REQUIRE(!seen.empty());
    for (const IterationStats& s : seen) {
        REQUIRE_EQ(s.ranks.size(), std::size_t{3});
        REQUIRE_EQ(s.ranks[0].assignMs, s.assignMs);  // rank 0's own numbers, as gathered
        REQUIRE_EQ(s.ranks[0].reduceMs, s.reduceMs);
        for (const RankTiming& r : s.ranks) REQUIRE((r.assignMs >= 0 && r.updateMs >= 0 && r.reduceMs >= 0));
    }
    REQUIRE_EQ(pool.result.history.back().ranks.size(), std::size_t{3});
}

namespace {

struct MissingLauncherRow {
    std::string tag;
    std::string launcher;
};

std::vector<MissingLauncherRow> missingLauncherRows()
{
    std::vector<MissingLauncherRow> rows;
    rows.push_back({"path", "/nonexistent/bin/mpirun"});
    rows.push_back({"name", "no-such-mpirun-launcher"});
    return rows;
}

}  // namespace

TEST_CASE("missingLauncher")
{
    for (const MissingLauncherRow& row : missingLauncherRows()) {
        SUBCASE(row.tag.c_str())
        {
            const std::string& launcher = row.launcher;
            const Dataset data = makeDemo("blobs:n=1000,d=4,k=3");
            KMeansParams params;
            params.k = 3;
            PoolOptions options = workerOptions();
            options.launcher = launcher;
            try {
                runPool(data, params, parseTopology("pool:2"), 2, {}, options);
                FAIL("ran without a launcher");
            } catch (const DeviceError& e) {
                REQUIRE_MESSAGE(test::contains(std::string(e.what()), launcher), e.what());
            }
        }
    }
}

TEST_CASE("missingWorker")
{
    const Dataset data = makeDemo("blobs:n=1000,d=4,k=3");
    KMeansParams params;
    params.k = 3;
    PoolOptions options;
    options.workerPath = "/nonexistent/clusterdesk-worker";
    try {
        runPool(data, params, parseTopology("pool:2"), 2, {}, options);
        FAIL("ran without a worker");
    } catch (const DeviceError& e) {
        REQUIRE_MESSAGE(test::contains(std::string(e.what()), "/nonexistent/clusterdesk-worker"), e.what());
    }
}

TEST_CASE("workerErrorsKeepTheirKind")
{
    if (const std::string why = noRanksReason(); !why.empty()) CLUSTERDESK_SKIP(why);
    // k above the rows is refused by the launcher before anything starts; a job
    // whose file changed under it is refused by the ranks' hash check.
    test::TempDir dir;
    const std::string path = dir.filePath("m.csv");
    std::ofstream(path) << "1,2\n3,4\n5,6\n7,8\n";
    Dataset data = makeDemo("blobs:n=40,d=2,k=2");
    data.spec = describeFile(path);  // the ranks open the file: different numbers, different hash
    KMeansParams params;
    params.k = 2;
    try {
        runPool(data, params, parseTopology("pool:2"), 2, {}, workerOptions());
        FAIL("ran on different data");
    } catch (const DataError& e) {
        REQUIRE_MESSAGE(test::contains(std::string(e.what()), "different dataset"), e.what());
        REQUIRE_MESSAGE(test::contains(std::string(e.what()), "rank 0"), e.what());
    }
    REQUIRE(myWorkers().empty());
}
