// Every data source on pool:2 gives, in exact mode, the labels and centroids of host,
// bit for bit: each rank reopens exactly the source the launcher opened (its
// SourceSpec, every option included: a tick file's bar size, a prices file's window).
// One test per source. Skipped when the build has no MPI or mpirun is not on PATH.
#include "cli_runner.h"
#include "pool_guard.h"
#include "data_files.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace clusterdesk;

class TestCliPoolSources : public QObject {
    Q_OBJECT

    // Runs the job on host and on pool:2 and compares the outputs byte for byte.
    void expectPoolEqualsHost(const QStringList& data, const QString& k = "4")
    {
        const QStringList common =
            QStringList{"run"} + data + QStringList{"--k", k, "--mode", "exact", "--threads", "2", "--no-record"};
        QByteArray outputs[2];
        const char* topologies[] = {"host", "pool:2"};
        for (int i = 0; i < 2; ++i) {
            const QString labels = m_dir.filePath(QString("labels-%1.txt").arg(i));
            const QString centroids = m_dir.filePath(QString("centroids-%1.csv").arg(i));
            const CliResult r = runCli(common + QStringList{"--topology", topologies[i], "--labels-out", labels, "--centroids-out", centroids});
            QVERIFY2(r.exitCode == 0, qPrintable(QString(topologies[i]) + ": " + r.err));
            QVERIFY2(r.out.contains(topologies[i]), qPrintable(r.out));
            QFile a(labels), b(centroids);
            QVERIFY(a.open(QIODevice::ReadOnly) && b.open(QIODevice::ReadOnly));
            outputs[i] = a.readAll() + "\n--\n" + b.readAll();
        }
        QVERIFY(outputs[0].count('\n') > 10);
        QVERIFY2(outputs[0] == outputs[1], "pool:2 answered differently from host");
    }

    QString path(const char* name) const { return m_dir.filePath(name); }

    QTemporaryDir m_dir;

private slots:
    void init()
    {
        CLUSTERDESK_REQUIRE_POOL();
        QVERIFY(m_dir.isValid());
    }

    void csvMatrix()
    {
        test::writeMatrixCsv(path("m.csv").toStdString(), 600, 5, 4, 11);
        expectPoolEqualsHost({"--data", path("m.csv")});
    }

    void widePrices()
    {
        test::writePricesCsv(path("prices.csv").toStdString(), 40, 4, 300, 12);
        expectPoolEqualsHost({"--data", path("prices.csv"), "--window", "120"});
    }

    void ticksWithBar()
    {
        // A bar size other than the default: ranks that resampled at 60 s would hold
        // other rows (the bug this guards against: "rank 0 loaded a different dataset").
        test::writeTicksCsv(path("ticks.csv").toStdString(), 24, 3, 400, 13);
        expectPoolEqualsHost({"--data", path("ticks.csv"), "--bar", "300"}, "3");
    }

    void npy()
    {
        test::writeNpy(path("m.npy").toStdString(), 700, 6, 5, 14);
        expectPoolEqualsHost({"--data", path("m.npy")});
    }

    void hdf5()
    {
#ifndef CLUSTERDESK_HAVE_HDF5
        QSKIP("built without HDF5 (libhdf5-dev not found): no hdf5 source");
#else
        QVERIFY(test::writeHdf5(path("m.h5").toStdString(), "returns", 650, 4, 3, 15));
        expectPoolEqualsHost({"--data", path("m.h5"), "--option", "dataset=/returns"}, "3");
#endif
    }

    void demos()
    {
        expectPoolEqualsHost({"--demo", "market:assets=120,sectors=6,days=300"}, "6");
        expectPoolEqualsHost({"--demo", "blobs:n=3000,d=5,k=4,seed=2"});
    }
};

QTEST_GUILESS_MAIN(TestCliPoolSources)
#include "test_cli_pool_sources.moc"
