// clusterdesk-cli run --topology pool:N: the same labels as --topology host in exact
// mode. Skipped when the build has no MPI or mpirun is not on PATH.
#include "cli_runner.h"

#include <QFile>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

class TestCliPool : public QObject {
    Q_OBJECT

private slots:
    void init()
    {
#ifndef CLUSTERDESK_HAVE_MPI
        QSKIP("built without MPI (CLUSTERDESK_WITH_MPI off or MPI not found): no pool runs");
#endif
        if (QStandardPaths::findExecutable("mpirun").isEmpty()) QSKIP("mpirun is not on PATH (install openmpi-bin)");
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
        QCOMPARE(hostBytes.count('\n'), 20000);
        QVERIFY(hostBytes == b.readAll());
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
