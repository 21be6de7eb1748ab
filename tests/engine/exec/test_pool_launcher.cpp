// Pool runs through mpirun and clusterdesk-worker --rank: exact mode matches host
// bit for bit, fast mode agrees, a rank that dies or a missing launcher fails cleanly
// (in bounded time, no processes left behind). Skipped when the build has no MPI or
// mpirun is not on PATH.
#include "engine/cluster/metrics.h"
#include "engine/core/error.h"
#include "engine/data/demo.h"
#include "engine/data/open_source.h"
#include "engine/exec/pool_launcher.h"
#include "engine/exec/run_clustering.h"
#include "test_hooks_guard.h"

#include <QDir>
#include <QElapsedTimer>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
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

class TestPoolLauncher : public QObject {
    Q_OBJECT

private slots:
    // Tests that start ranks need a worker built with MPI and mpirun; the others
    // (parsing, missing launcher or worker) run everywhere.
    void init()
    {
        const QByteArray test = QTest::currentTestFunction();
        if (test == "parsesPoolTopologies" || test == "missingLauncher" || test == "missingWorker" ||
            test == "rootFlagOnlyForRoot")
            return;
#ifndef CLUSTERDESK_HAVE_MPI
        QSKIP("built without MPI (CLUSTERDESK_WITH_MPI off or MPI not found): no clusterdesk-worker --rank");
#endif
        if (QStandardPaths::findExecutable("mpirun").isEmpty()) QSKIP("mpirun is not on PATH (install openmpi-bin)");
    }

    void rootFlagOnlyForRoot()
    {
        // OpenMPI's --allow-run-as-root goes only to a launch that really runs as root.
        const auto args = defaultLauncherArgs();
        const bool flagged = std::find(args.begin(), args.end(), "--allow-run-as-root") != args.end();
        QCOMPARE(flagged, ::geteuid() == 0);
        if (::geteuid() != 0) return;
        // As an ordinary user (a child that drops root), the flag is gone.
        const pid_t child = ::fork();
        if (child == 0) {
            if (::setgid(65534) != 0 || ::setuid(65534) != 0) ::_exit(2);
            const auto user = defaultLauncherArgs();
            ::_exit(std::find(user.begin(), user.end(), "--allow-run-as-root") == user.end() ? 0 : 1);
        }
        int status = 0;
        QCOMPARE(::waitpid(child, &status, 0), child);
        QVERIFY(WIFEXITED(status));
        QCOMPARE(WEXITSTATUS(status), 0);
    }

    void abandonedJobDirectoriesAreRemoved()
    {
        // A launcher killed outright leaves its job directory; the next launch removes
        // those whose owner process is gone, and only those.
        QTemporaryDir tmp;
        const QByteArray oldTmp = qgetenv("TMPDIR");
        qputenv("TMPDIR", tmp.path().toUtf8());
        const pid_t dead = ::fork();
        if (dead == 0) ::_exit(0);
        ::waitpid(dead, nullptr, 0);
        std::ifstream selfStat("/proc/self/stat");
        std::string stat;
        std::getline(selfStat, stat);
        std::istringstream fields(stat.substr(stat.rfind(')') + 2));
        std::string field;
        for (int i = 3; i <= 22; ++i) fields >> field;  // field 22: start time
        const std::map<QString, std::string> owners = {{"clusterdesk-pool-dead01", std::to_string(dead) + " " + field},
                                                       {"clusterdesk-pool-live01", std::to_string(::getpid()) + " " + field},
                                                       {"clusterdesk-pool-reused", std::to_string(::getpid()) + " 1"}};
        for (const auto& [name, token] : owners) {
            QVERIFY(QDir(tmp.path()).mkdir(name));
            std::ofstream(tmp.filePath(name + "/owner").toStdString()) << token << "\n";
            std::ofstream(tmp.filePath(name + "/job.json").toStdString()) << "{}";
        }
        QVERIFY(QDir(tmp.path()).mkdir("clusterdesk-pool-noowner"));  // being created: left alone
        const Dataset small = makeDemo("blobs:n=300,d=2,k=3");
        KMeansParams params;
        params.k = 3;
        runPool(small, params, parseTopology("pool:2"), 2, {}, workerOptions());
        if (oldTmp.isNull()) qunsetenv("TMPDIR");
        else qputenv("TMPDIR", oldTmp);
        QStringList left = QDir(tmp.path()).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
        QCOMPARE(left, (QStringList{"clusterdesk-pool-live01", "clusterdesk-pool-noowner"}));
    }

    void parsesPoolTopologies()
    {
        const Topology local = parseTopology("pool:3");
        QVERIFY(local.isPool());
        QCOMPARE(local.ranks, 3);
        QVERIFY(local.hostfile.empty());
        QTemporaryDir dir;
        const std::string hostfile = dir.filePath("hosts").toStdString();
        std::ofstream(hostfile) << "# nodes\nlocalhost slots=2\nlocalhost slots=3 max_slots=4\n\n";
        const Topology file = parseTopology("pool:" + hostfile);
        QVERIFY(file.isPool());
        QCOMPARE(file.hostfile, hostfile);
        QCOMPARE(file.ranks, 5);
        QVERIFY_THROWS_EXCEPTION(UsageError, parseTopology("pool:0"));
        QVERIFY_THROWS_EXCEPTION(UsageError, parseTopology("pool:/no/such/hostfile"));
    }

    void exactMatchesHost_data()
    {
        QTest::addColumn<int>("ranks");
        QTest::newRow("pool:2") << 2;
        QTest::newRow("pool:3") << 3;
        QTest::newRow("pool:4") << 4;
    }

    void exactMatchesHost()
    {
        QFETCH(int, ranks);
        const Dataset data = makeDemo("blobs:n=6000,d=6,k=5,seed=3");
        KMeansParams params;
        params.k = 5;
        params.mode = kernels::Mode::Exact;
        const RunReport host = runClustering(data, params, parseTopology("host"), 2);
        // Shards in threads give the same bits too: the reference every topology meets.
        const RunReport shards = runClustering(data, params, parseTopology("shards:4"), 2);
        QVERIFY(shards.result.labels == host.result.labels);
        QVERIFY(shards.result.centroids == host.result.centroids);
        int callbacks = 0;
        RunControl control;
        control.onIteration = [&](const IterationStats& s) {
            ++callbacks;
            QCOMPARE(s.k, 5);
        };
        const RunReport pool = runPool(data, params, parseTopology("pool:" + std::to_string(ranks)), 2, control, workerOptions());
        QCOMPARE(pool.result.labels.size(), host.result.labels.size());
        QVERIFY(pool.result.labels == host.result.labels);
        QCOMPARE(pool.result.centroids.size(), host.result.centroids.size());
        QVERIFY(std::memcmp(pool.result.centroids.data(), host.result.centroids.data(),
                            host.result.centroids.size() * sizeof(float)) == 0);
        QCOMPARE(pool.result.inertia, host.result.inertia);
        QCOMPARE(pool.result.iterations, host.result.iterations);
        QCOMPARE(callbacks, static_cast<int>(pool.result.history.size()));
        QVERIFY(callbacks >= 1);
        QVERIFY(myWorkers().empty());
    }

    void adaptGrowExactMatchesHost()
    {
        const Dataset data = makeDemo("blobs:n=6000,d=5,k=6,seed=4");
        KMeansParams params;
        params.algorithm = Algorithm::AdaptGrow;
        params.kMax = 16;
        params.mode = kernels::Mode::Exact;
        const RunReport host = runClustering(data, params, parseTopology("host"), 2);
        const RunReport pool = runPool(data, params, parseTopology("pool:3"), 2, {}, workerOptions());
        QCOMPARE(pool.result.k, host.result.k);
        QVERIFY(pool.result.labels == host.result.labels);
        QVERIFY(pool.result.centroids == host.result.centroids);
        QCOMPARE(pool.result.history.size(), host.result.history.size());
    }

    void fileDataMatchesHost()
    {
        // The ranks load the file themselves (same layout), and their hash must match.
        QTemporaryDir dir;
        const std::string path = dir.filePath("points.csv").toStdString();
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
        QVERIFY(pool.result.labels == host.result.labels);
        QVERIFY(pool.result.centroids == host.result.centroids);
    }

    void fastModeAgrees()
    {
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
            qInfo("fast mode, %s vs host: ARI %.6f", spec, ari);
            QVERIFY2(ari >= 0.999, qPrintable(QString("%1: %2").arg(spec).arg(ari)));
        }
    }

    void killedRankFailsCleanly()
    {
        CLUSTERDESK_REQUIRE_TEST_HOOKS();
        std::optional<clusterdesk::testhooks::EndlessRuns> endless{std::in_place};  // the run lasts until the rank dies
        const Dataset data = makeDemo("blobs:n=100000,d=16,k=8,spread=3");
        KMeansParams params;
        params.k = 64;
        std::vector<pid_t> ranks;
        pid_t victim = 0;
        QElapsedTimer sinceKill;
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
        QString message;
        try {
            runPool(data, params, parseTopology("pool:3"), 2, control, workerOptions());
            QFAIL("the run survived a killed rank");
        } catch (const DeviceError& e) {
            message = e.what();
        }
        qInfo("failure reported %lld ms after the kill: %s", static_cast<long long>(sinceKill.elapsed()),
              qPrintable(message.left(400)));
        QVERIFY2(victim != 0, "no rank 1 process found");
        QCOMPARE(ranks.size(), std::size_t{3});
        QVERIFY(sinceKill.elapsed() < 10000);
        QVERIFY2(message.contains("rank"), qPrintable(message));
        QVERIFY2(message.contains("signal") || message.contains("exit"), qPrintable(message));
        for (pid_t pid : ranks) QVERIFY2(!alive(pid), qPrintable(QString("rank process %1 is still alive").arg(pid)));
        QVERIFY(myWorkers().empty());

        // The next run (an ordinary one) works.
        endless.reset();
        const Dataset small = makeDemo("blobs:n=3000,d=4,k=3,seed=2");
        KMeansParams quick;
        quick.k = 3;
        const RunReport after = runPool(small, quick, parseTopology("pool:2"), 2, {}, workerOptions());
        QCOMPARE(after.result.labels.size(), std::size_t{3000});
    }

    void cancelReturnsThePartialResult()
    {
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
        QElapsedTimer timer;
        timer.start();
        const RunReport report = runPool(data, params, parseTopology("pool:2"), 2, control, workerOptions());
        QVERIFY(timer.elapsed() < 10000);
        QVERIFY(report.result.cancelled);
        QVERIFY(report.result.iterations >= 1 && report.result.iterations < 1000);
        QCOMPARE(report.result.labels.size(), std::size_t{100000});
        QCOMPARE(report.result.history.size(), static_cast<std::size_t>(report.result.iterations));
        QVERIFY(!ranks.empty());
        for (pid_t pid : ranks) QVERIFY(!alive(pid));
        QVERIFY(myWorkers().empty());
    }

    void hungRankFailsNamingIt_data()
    {
        QTest::addColumn<QString>("mode");
        QTest::newRow("frozen process (no heartbeat)") << "stop";
        QTest::newRow("stuck run (heartbeat, no progress)") << "sleep";
    }

    void hungRankFailsNamingIt()
    {
        // The worker's test hook makes rank 1 hang without dying after 40 collectives
        // (a few iterations in); the watchdog must end the run naming rank 1, in bounded
        // time, with every process gone.
        CLUSTERDESK_REQUIRE_TEST_HOOKS();
        QFETCH(QString, mode);
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
        qputenv("CLUSTERDESK_WORKER_TEST_HANG", ("1:40:" + mode).toUtf8());
        QElapsedTimer timer;
        timer.start();
        QString message;
        try {
            runPool(data, params, parseTopology("pool:3"), 2, control, options);
        } catch (const DeviceError& e) {
            message = e.what();
        }
        qunsetenv("CLUSTERDESK_WORKER_TEST_HANG");
        qInfo("%s: failure after %lld ms: %s", qPrintable(mode), static_cast<long long>(timer.elapsed()), qPrintable(message));
        QVERIFY2(message.startsWith("pool rank 1 hung"), qPrintable(message));
        QVERIFY(timer.elapsed() < 30000);
        QCOMPARE(ranks.size(), std::size_t{3});
        for (pid_t pid : ranks) QVERIFY2(!alive(pid), qPrintable(QString("rank process %1 is still alive").arg(pid)));
        QVERIFY(myWorkers().empty());
    }

    void progressLinesCarryEveryRanksTiming()
    {
        const Dataset data = makeDemo("blobs:n=6000,d=6,k=5,seed=3");
        KMeansParams params;
        params.k = 5;
        std::vector<IterationStats> seen;
        RunControl control;
        control.onIteration = [&](const IterationStats& s) { seen.push_back(s); };
        const RunReport pool = runPool(data, params, parseTopology("pool:3"), 2, control, workerOptions());
        QVERIFY(!seen.empty());
        for (const IterationStats& s : seen) {
            QCOMPARE(s.ranks.size(), std::size_t{3});
            QCOMPARE(s.ranks[0].assignMs, s.assignMs);  // rank 0's own numbers, as gathered
            QCOMPARE(s.ranks[0].reduceMs, s.reduceMs);
            for (const RankTiming& r : s.ranks) QVERIFY(r.assignMs >= 0 && r.updateMs >= 0 && r.reduceMs >= 0);
        }
        QCOMPARE(pool.result.history.back().ranks.size(), std::size_t{3});
    }

    void missingLauncher_data()
    {
        QTest::addColumn<QString>("launcher");
        QTest::newRow("path") << "/nonexistent/bin/mpirun";
        QTest::newRow("name") << "no-such-mpirun-launcher";
    }

    void missingLauncher()
    {
        QFETCH(QString, launcher);
        const Dataset data = makeDemo("blobs:n=1000,d=4,k=3");
        KMeansParams params;
        params.k = 3;
        PoolOptions options = workerOptions();
        options.launcher = launcher.toStdString();
        try {
            runPool(data, params, parseTopology("pool:2"), 2, {}, options);
            QFAIL("ran without a launcher");
        } catch (const DeviceError& e) {
            QVERIFY2(QString(e.what()).contains(launcher), e.what());
        }
    }

    void missingWorker()
    {
        const Dataset data = makeDemo("blobs:n=1000,d=4,k=3");
        KMeansParams params;
        params.k = 3;
        PoolOptions options;
        options.workerPath = "/nonexistent/clusterdesk-worker";
        try {
            runPool(data, params, parseTopology("pool:2"), 2, {}, options);
            QFAIL("ran without a worker");
        } catch (const DeviceError& e) {
            QVERIFY2(QString(e.what()).contains("/nonexistent/clusterdesk-worker"), e.what());
        }
    }

    void workerErrorsKeepTheirKind()
    {
        // k above the rows is refused by the launcher before anything starts; a job
        // whose file changed under it is refused by the ranks' hash check.
        QTemporaryDir dir;
        const std::string path = dir.filePath("m.csv").toStdString();
        std::ofstream(path) << "1,2\n3,4\n5,6\n7,8\n";
        Dataset data = makeDemo("blobs:n=40,d=2,k=2");
        data.spec = describeFile(path);  // the ranks open the file: different numbers, different hash
        KMeansParams params;
        params.k = 2;
        try {
            runPool(data, params, parseTopology("pool:2"), 2, {}, workerOptions());
            QFAIL("ran on different data");
        } catch (const DataError& e) {
            QVERIFY2(QString(e.what()).contains("different dataset"), e.what());
            QVERIFY2(QString(e.what()).contains("rank 0"), e.what());
        }
        QVERIFY(myWorkers().empty());
    }
};

QTEST_GUILESS_MAIN(TestPoolLauncher)
#include "test_pool_launcher.moc"
