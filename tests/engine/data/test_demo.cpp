#include "engine/data/demo.h"
#include "engine/data/demo_generators.h"
#include "engine/core/error.h"

#include "data_test_support.h"

#include <QTest>

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>

using namespace clusterdesk;

namespace {

// Fraction of rows nearer to their own class mean than to any other class mean:
// a cheap check that the planted truth is recoverable from the features.
double nearestMeanAccuracy(const Dataset& d, int classes)
{
    std::vector<double> means(static_cast<std::size_t>(classes * d.cols), 0.0);
    std::vector<int> counts(classes, 0);
    for (std::int64_t i = 0; i < d.rows; ++i) {
        ++counts[d.truth[i]];
        for (std::int64_t j = 0; j < d.cols; ++j) means[d.truth[i] * d.cols + j] += d.row(i)[j];
    }
    for (int c = 0; c < classes; ++c)
        for (std::int64_t j = 0; j < d.cols; ++j) means[c * d.cols + j] /= std::max(1, counts[c]);
    std::int64_t right = 0;
    for (std::int64_t i = 0; i < d.rows; ++i) {
        int best = -1;
        double bestDist = 0;
        for (int c = 0; c < classes; ++c) {
            double dist = 0;
            for (std::int64_t j = 0; j < d.cols; ++j) {
                const double t = d.row(i)[j] - means[c * d.cols + j];
                dist += t * t;
            }
            if (best < 0 || dist < bestDist) {
                best = c;
                bestDist = dist;
            }
        }
        right += best == d.truth[i];
    }
    return static_cast<double>(right) / static_cast<double>(d.rows);
}

}  // namespace

class TestDemo : public QObject {
    Q_OBJECT

private slots:
    void marketShape()
    {
        const Dataset d = makeDemo("market");
        QCOMPARE(toString(d.layout), toString(Layout::Prices));
        QCOMPARE(d.rows, std::int64_t{500});
        QCOMPARE(d.cols, std::int64_t{749});
        QCOMPARE(d.rowNames.size(), std::size_t{500});
        QCOMPARE(d.colNames.size(), std::size_t{749});
        QCOMPARE(d.colNames.front(), std::string("2021-01-05"));
        QCOMPARE(d.rowNames[17], std::string("S07_A017"));
        QCOMPARE(d.truth.size(), std::size_t{500});
        std::map<int, int> sizes;
        for (int t : d.truth) ++sizes[t];
        QCOMPARE(sizes.size(), std::size_t{10});
        for (const auto& [sector, n] : sizes) QCOMPARE(n, 50);
        QCOMPARE(d.source, std::string("market:assets=500,sectors=10,days=750,seed=7,window=0"));
        // Every row z-scored: mean 0, population sd 1.
        for (std::int64_t i = 0; i < d.rows; ++i) {
            double mean = 0, sq = 0;
            for (std::int64_t j = 0; j < d.cols; ++j) mean += d.row(i)[j];
            mean /= d.cols;
            for (std::int64_t j = 0; j < d.cols; ++j) sq += (d.row(i)[j] - mean) * (d.row(i)[j] - mean);
            QVERIFY(std::fabs(mean) < 1e-4);
            QVERIFY(std::fabs(std::sqrt(sq / d.cols) - 1.0) < 1e-3);
        }
        QVERIFY(nearestMeanAccuracy(d, 10) >= 0.95);
    }

    // The market factor dominates: rows from different sectors are still clearly
    // positively correlated, rows of one sector more so.
    void marketFactorMatters()
    {
        const Dataset d = makeDemo("market:assets=40,sectors=4");
        double same = 0, other = 0;
        int nSame = 0, nOther = 0;
        for (std::int64_t a = 0; a < d.rows; ++a)
            for (std::int64_t b = a + 1; b < d.rows; ++b) {
                double corr = 0;
                for (std::int64_t j = 0; j < d.cols; ++j) corr += d.row(a)[j] * d.row(b)[j];
                corr /= d.cols;
                if (d.truth[a] == d.truth[b])
                    same += corr, ++nSame;
                else
                    other += corr, ++nOther;
            }
        same /= nSame;
        other /= nOther;
        QVERIFY2(other > 0.3, std::to_string(other).c_str());
        QVERIFY2(same > other + 0.1, (std::to_string(same) + " vs " + std::to_string(other)).c_str());
    }

    void marketWindowAndKeys()
    {
        const Dataset d = makeDemo("market:assets=30,sectors=3,days=100,seed=11,window=20");
        QCOMPARE(d.rows, std::int64_t{30});
        QCOMPARE(d.cols, std::int64_t{20});
        QCOMPARE(d.rowNames[4], std::string("S01_A004"));
        QVERIFY(!d.notes.empty());
    }

    void blobsShape()
    {
        const Dataset d = makeDemo("blobs");
        QCOMPARE(toString(d.layout), toString(Layout::Matrix));
        QCOMPARE(d.rows, std::int64_t{10000});
        QCOMPARE(d.cols, std::int64_t{16});
        QCOMPARE(d.values.size(), std::size_t{160000});
        QVERIFY(d.rowNames.empty());
        QCOMPARE(d.truth.size(), std::size_t{10000});
        std::set<int> labels(d.truth.begin(), d.truth.end());
        QCOMPARE(labels.size(), std::size_t{8});
        QCOMPARE(*labels.begin(), 0);
        QCOMPARE(*labels.rbegin(), 7);
        for (float v : d.values) QVERIFY(std::isfinite(v));
        QVERIFY(nearestMeanAccuracy(d, 8) > 0.999);
        QCOMPARE(d.source, std::string("blobs:n=10000,d=16,k=8,seed=7,spread=1"));
    }

    void blobsLowDimensionStillSeparate()
    {
        const Dataset d = makeDemo("blobs:n=20000,d=2,k=64,spread=0.5");
        QVERIFY(nearestMeanAccuracy(d, 64) > 0.99);
    }

    void determinism_data()
    {
        QTest::addColumn<QString>("spec");
        QTest::newRow("market") << "market:assets=50,sectors=5,days=120";
        QTest::newRow("blobs") << "blobs:n=5000,d=7,k=5";
    }

    void determinism()
    {
        QFETCH(QString, spec);
        const std::string s = spec.toStdString();
        const Dataset a = makeDemo(s);
        const Dataset b = makeDemo(s);
        QCOMPARE(a.contentHash(), b.contentHash());
        QCOMPARE(a.values, b.values);
        QCOMPARE(a.truth, b.truth);
        const Dataset c = makeDemo(s + ",seed=8");
        QVERIFY(a.contentHash() != c.contentHash());
    }

    void blobsIndependentOfThreadCount()
    {
        const int before = omp_get_max_threads();
        omp_set_num_threads(1);
        const std::string one = makeDemo("blobs:n=30000,d=5,k=3").contentHash();
        omp_set_num_threads(3);
        const std::string three = makeDemo("blobs:n=30000,d=5,k=3").contentHash();
        omp_set_num_threads(before);
        QCOMPARE(one, three);
    }

    // Recorded runs name demos by spec and check them by content hash: the same spec
    // must give the same bits release after release (these predate the grid placement).
    void blobsArePinned_data()
    {
        QTest::addColumn<QString>("spec");
        QTest::addColumn<QString>("hash");
        QTest::newRow("default") << "blobs" << "59cf08848e1179b3f700ceb228d8a2927e8d9e77d28d8bdeb3b68756033ac493";
        QTest::newRow("2-D, k = n") << "blobs:n=2000,d=2,k=2000"
                                    << "5ac807deae3eef40a8f3aaa9c0a5cda08f0285285642ae15ba93f5a985a8489f";
        QTest::newRow("1-D") << "blobs:n=3000,d=1,k=500" << "8b1140b036fbce82eaa52e5b6f647f7f86de5b6e1b656de1c547285853d56c85";
        QTest::newRow("40-D") << "blobs:n=500,d=40,k=50" << "d5828d18249170403d49e7b2a56211dbed8e4968c11d85e79e24ad74c08eac19";
    }

    void blobsArePinned()
    {
        QFETCH(QString, spec);
        QFETCH(QString, hash);
        QCOMPARE(QString::fromStdString(makeDemo(spec.toStdString()).contentHash()), hash);
    }

    // Placing k centres looks only at the centres near each candidate: the distances
    // computed grow like k (a scan over all placed centres needed about k^2/2 = 5e9
    // here), and every pair of centres is still at least 8 spreads apart.
    void blobCentrePlacementIsLinearInK()
    {
        const std::int64_t k = 100000;
        const data::BlobCentres centres = data::placeBlobCentres(7, k, 2, 1.0);
        QVERIFY2(centres.distanceChecks < 20 * k, qPrintable(QString::number(centres.distanceChecks)));
        // Separation by a sweep along x: only centres within 8 in x can be within 8.
        std::vector<std::pair<double, double>> points;
        for (std::int64_t c = 0; c < k; ++c) points.emplace_back(centres.values[2 * c], centres.values[2 * c + 1]);
        std::sort(points.begin(), points.end());
        double closest2 = std::numeric_limits<double>::infinity();
        for (std::size_t i = 0; i < points.size(); ++i) {
            for (std::size_t o = i + 1; o < points.size() && points[o].first - points[i].first < 8.0; ++o) {
                const double dx = points[o].first - points[i].first, dy = points[o].second - points[i].second;
                closest2 = std::min(closest2, dx * dx + dy * dy);
            }
        }
        QVERIFY2(closest2 >= 64.0, qPrintable(QString::number(std::sqrt(closest2))));
        QCOMPARE(makeDemo("blobs:n=100000,d=2,k=100000").rows, k);
    }

    // Generated straight into the matrix: no slack, no second copy.
    void blobsLargeHasNoSpareMemory()
    {
        const Dataset d = makeDemo("blobs:n=1000000,d=32,k=64");
        QCOMPARE(d.values.size(), std::size_t{32000000});
        QCOMPARE(d.values.capacity(), d.values.size());
    }

    void badSpecs_data()
    {
        QTest::addColumn<QString>("spec");
        QTest::addColumn<QString>("fragment");
        QTest::newRow("unknown demo") << "nope"
                                      << "unknown demo 'nope'";
        QTest::newRow("empty") << ""
                               << "no name";
        QTest::newRow("unknown key") << "market:foo=1"
                                     << "unknown key 'foo'";
        QTest::newRow("not an integer") << "market:assets=abc"
                                        << "assets=abc";
        QTest::newRow("fraction for integer") << "blobs:n=1.5"
                                              << "n=1.5";
        QTest::newRow("no value") << "blobs:n="
                                  << "needs both";
        QTest::newRow("no equals") << "blobs:n"
                                   << "not key=value";
        QTest::newRow("empty item") << "blobs:n=5,,d=2"
                                    << "empty item";
        QTest::newRow("k zero") << "blobs:k=0"
                                << "k=0";
        QTest::newRow("k above n") << "blobs:n=5,k=6"
                                   << "k=6";
        QTest::newRow("negative spread") << "blobs:spread=-1"
                                         << "spread=-1";
        QTest::newRow("nan spread") << "blobs:spread=nan"
                                    << "spread=nan";
        QTest::newRow("window too long") << "market:days=50,window=50"
                                         << "window=50";
        QTest::newRow("sectors above assets") << "market:assets=5,sectors=6"
                                              << "sectors=6";
        QTest::newRow("repeated key") << "market:assets=5,assets=6"
                                      << "given twice";
        QTest::newRow("negative seed") << "market:seed=-1"
                                       << "seed=-1";
        QTest::newRow("too big") << "blobs:n=2000000000,d=100"
                                 << "too large";
    }

    void badSpecs()
    {
        QFETCH(QString, spec);
        QFETCH(QString, fragment);
        try {
            makeDemo(spec.toStdString());
            QFAIL("expected a UsageError");
        } catch (const UsageError& e) {
            QVERIFY2(std::string(e.what()).find(fragment.toStdString()) != std::string::npos, e.what());
        }
    }
};

QTEST_APPLESS_MAIN(TestDemo)
#include "test_demo.moc"
