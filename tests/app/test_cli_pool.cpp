// clusterdesk-cli run --topology pool:N: the same labels as --topology host in exact
// mode; a rank that hangs ends the run with exit 4 naming it. Skipped when the build
// has no MPI or mpirun is not on PATH.
#include "cli_runner.h"
#include "pool_guard.h"
#include "test_hooks_guard.h"

#include "kernels/backend_registry.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <unistd.h>

namespace {

// Live processes (other than this one) whose environment holds `entry`: what a run
// started with it left behind, wherever it was re-parented.
QStringList processesWithEnvironment(const QByteArray& entry)
{
    QStringList found;
    for (const QString& pid : QDir("/proc").entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        if (pid.toLongLong() <= 0 || pid.toLongLong() == getpid()) continue;
        QFile environ("/proc/" + pid + "/environ");
        if (!environ.open(QIODevice::ReadOnly)) continue;
        if (environ.readAll().split('\0').contains(entry)) found << pid;
    }
    return found;
}

}  // namespace

class TestCliPool : public QObject {
    Q_OBJECT

private slots:
    void init()
    {
        CLUSTERDESK_REQUIRE_POOL();
    }

    void poolEqualsHost()
    {
        QTemporaryDir dir;
        const QString hostLabels = dir.filePath("host.txt"), poolLabels = dir.filePath("pool.txt");
        const QStringList common{"run", "--demo", "blobs:n=20000,d=8,k=6", "--k", "6", "--mode", "exact", "--threads", "2"};
        const CliResult host = runCli(common + QStringList{"--topology", "host", "--labels-out", hostLabels});
        QVERIFY2(host.exitCode == 0, qPrintable(host.err));
        const CliResult pool = runCli(common + QStringList{"--topology", "pool:3", "--labels-out", poolLabels});
        QVERIFY2(pool.exitCode == 0, qPrintable(pool.err));
        QVERIFY2(pool.out.contains("pool:3"), qPrintable(pool.out));
        QFile a(hostLabels), b(poolLabels);
        QVERIFY(a.open(QIODevice::ReadOnly) && b.open(QIODevice::ReadOnly));
        const QByteArray hostBytes = a.readAll();
        QCOMPARE(hostBytes.count('\n'), 20001);  // "id,cluster", then a line per row
        QVERIFY(hostBytes == b.readAll());
    }

    void hungRankFailsNamingIt()
    {
        // The worker's test hook freezes rank 1 (SIGSTOP: heartbeats stop too) dozens of
        // iterations in; the launcher's watchdog ends the run within its silence limit
        // (15 s), exit 4 naming rank 1, and no process of the run is left.
        CLUSTERDESK_REQUIRE_TEST_HOOKS();
        const QByteArray hook = "1:400:stop";
        const clusterdesk::testhooks::EndlessRuns endless;  // the run reaches the hang on any machine
        qputenv("CLUSTERDESK_WORKER_TEST_HANG", hook);
        QElapsedTimer timer;
        timer.start();
        const CliResult r = runCli({"run", "--demo", "blobs:n=100000,d=16,k=8,spread=3", "--k", "64", "--topology", "pool:3", "--threads", "2", "--no-record"},
                                   120000);
        qunsetenv("CLUSTERDESK_WORKER_TEST_HANG");
        qInfo("failed after %lld ms: %s", static_cast<long long>(timer.elapsed()), qPrintable(r.err.trimmed()));
        QCOMPARE(r.exitCode, 4);
        QVERIFY2(r.err.contains("pool rank 1 hung"), qPrintable(r.err));
        QVERIFY(timer.elapsed() < 60000);
        const QStringList left = processesWithEnvironment("CLUSTERDESK_WORKER_TEST_HANG=" + hook);
        QVERIFY2(left.isEmpty(), qPrintable("processes left behind: " + left.join(' ')));
    }

    void gpuRanksWithoutAGpuFailClearly()
    {
        // pool:2:cuda asks every rank for a GPU of its node; this machine may have none.
        if (clusterdesk::kernels::cudaAvailability().deviceCount > 0) QSKIP("a GPU is present: the failure path needs a machine without one");
        QElapsedTimer timer;
        timer.start();
        const CliResult r = runCli({"run", "--demo", "blobs:n=1000", "--k", "4", "--topology", "pool:2:cuda", "--no-record"}, 60000);
        QCOMPARE(r.exitCode, 4);
        QVERIFY2(r.err.contains("pool rank 0") && r.err.contains("CUDA"), qPrintable(r.err));
        QVERIFY(timer.elapsed() < 30000);
    }

    void badPoolTopologyExit2()
    {
        const CliResult r = runCli({"run", "--demo", "blobs:n=1000", "--topology", "pool:/no/such/hostfile"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("hostfile"), qPrintable(r.err));
    }
};

QTEST_GUILESS_MAIN(TestCliPool)
#include "test_cli_pool.moc"
