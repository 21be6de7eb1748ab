// AdaptGrow chooses k: planted sectors in the market demo, planted blobs, and the
// same answer bit for bit on every topology in exact mode.
#include "engine/cluster/metrics.h"
#include "engine/data/demo.h"
#include "engine/exec/run_clustering.h"

#include <QTest>

#include <cstring>

using namespace clusterdesk;

class TestAdaptGrow : public QObject {
    Q_OBJECT

private slots:
    void findsMarketSectors_data()
    {
        QTest::addColumn<int>("mode");
        QTest::newRow("exact") << int(kernels::Mode::Exact);
        QTest::newRow("fast") << int(kernels::Mode::Fast);
    }

    void findsMarketSectors()
    {
        QFETCH(int, mode);
        const Dataset data = makeDemo("market");
        int sectors = 0;
        for (auto t : data.truth) sectors = std::max(sectors, t + 1);
        KMeansParams params;
        params.algorithm = Algorithm::AdaptGrow;
        params.k0 = 2;
        params.kMax = 40;
        params.mode = static_cast<kernels::Mode>(mode);
        const RunReport report = runClustering(data, params, parseTopology("host"), 2);
        const double ari = adjustedRandIndex(data.truth, report.result.labels);
        qInfo("market: planted %d sectors, found k=%d, ARI %.4f", sectors, report.result.k, ari);
        QVERIFY(std::abs(report.result.k - sectors) <= 1);
        QVERIFY(ari >= 0.9);
    }

    void findsPlantedBlobs_data()
    {
        QTest::addColumn<QString>("spec");
        QTest::addColumn<int>("planted");
        QTest::newRow("k=5 d=2") << "blobs:n=5000,d=2,k=5,seed=1" << 5;
        QTest::newRow("k=12 d=16") << "blobs:n=20000,d=16,k=12,seed=2" << 12;
        QTest::newRow("k=30 d=32") << "blobs:n=30000,d=32,k=30,seed=3" << 30;
    }

    void findsPlantedBlobs()
    {
        QFETCH(QString, spec);
        QFETCH(int, planted);
        const Dataset data = makeDemo(spec.toStdString());
        KMeansParams params;
        params.algorithm = Algorithm::AdaptGrow;
        params.k0 = 2;
        params.kMax = 64;
        const RunReport report = runClustering(data, params, parseTopology("host"), 2);
        const double ari = adjustedRandIndex(data.truth, report.result.labels);
        qInfo("%s: found k=%d, ARI %.4f", qPrintable(spec), report.result.k, ari);
        QCOMPARE(report.result.k, planted);
        QVERIFY(ari > 0.99);
        bool sawSplit = false;
        for (const auto& s : report.result.history) sawSplit |= s.event.rfind("split", 0) == 0;
        QVERIFY(sawSplit);
    }

    void exactModeIsBitIdenticalAcrossShards()
    {
        const Dataset data = makeDemo("blobs:n=8000,d=6,k=7,seed=4");
        KMeansParams params;
        params.algorithm = Algorithm::AdaptGrow;
        params.mode = kernels::Mode::Exact;
        params.kMax = 20;
        const RunReport reference = runClustering(data, params, parseTopology("host"), 1);
        for (const char* topology : {"shards:2", "shards:3", "shards:7"}) {
            const RunReport other = runClustering(data, params, parseTopology(topology), 2);
            QCOMPARE(other.result.k, reference.result.k);
            QCOMPARE(other.result.labels, reference.result.labels);
            QVERIFY(std::memcmp(other.result.centroids.data(), reference.result.centroids.data(),
                                reference.result.centroids.size() * sizeof(float)) == 0);
        }
    }

    void respectsKMax()
    {
        const Dataset data = makeDemo("blobs:n=5000,d=4,k=20,seed=6");
        KMeansParams params;
        params.algorithm = Algorithm::AdaptGrow;
        params.kMax = 7;
        const RunReport report = runClustering(data, params, parseTopology("host"), 2);
        QVERIFY(report.result.k <= 7);
        QVERIFY(report.result.k >= 4);
    }
};

QTEST_APPLESS_MAIN(TestAdaptGrow)
#include "test_adaptgrow.moc"
