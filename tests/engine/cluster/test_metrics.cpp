// Clustering metrics: hand-computed values and sklearn's conventions for degenerate
// labelings, invariance to renaming, the sampled silhouette's determinism, BIC's
// split/no-split decisions, and agreement with scikit-learn where python3 has it.
#include "engine/cluster/metrics.h"
#include "engine/core/error.h"

#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#ifdef _OPENMP
#include <omp.h>
#endif

#include <cmath>
#include <cstdint>
#include <limits>
#include <numbers>
#include <random>
#include <span>
#include <vector>

using namespace clusterdesk;

namespace {

using Labels = std::vector<std::int32_t>;

std::span<const std::int32_t> view(const QList<int>& list)
{
    return {list.constData(), static_cast<std::size_t>(list.size())};
}

// Two labelings of n rows: a uniform over ka clusters; b equals a (mod kb) on a fraction
// `agree` of the rows and is uniform over kb clusters elsewhere. Labels are multiplied by
// `stride` and shifted by `offset` so that non-contiguous, large ids are exercised.
std::pair<Labels, Labels> makeLabelings(std::int64_t n, int ka, int kb, double agree, std::uint64_t seed,
                                        std::int32_t stride = 1, std::int32_t offset = 0)
{
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> coin(0.0, 1.0);
    Labels a(static_cast<std::size_t>(n)), b(static_cast<std::size_t>(n));
    for (std::size_t i = 0; i < a.size(); ++i) {
        const auto la = static_cast<std::int32_t>(rng() % static_cast<std::uint64_t>(ka));
        const auto lb = coin(rng) < agree ? la % kb : static_cast<std::int32_t>(rng() % static_cast<std::uint64_t>(kb));
        a[i] = la * stride + offset;
        b[i] = lb;
    }
    return {a, b};
}

// Gaussian blobs: k centres `spread` apart in a random direction, unit noise; a fraction
// `flip` of the labels reassigned at random (so some silhouettes are negative) and, when
// `singleton`, one extra cluster holding a single row.
struct Blobs {
    std::vector<float> x;
    Labels labels;
};

Blobs makeBlobs(std::int64_t n, std::int64_t d, int k, double spread, double flip, bool singleton, std::uint64_t seed)
{
    std::mt19937_64 rng(seed);
    std::normal_distribution<double> normal(0.0, 1.0);
    std::uniform_real_distribution<double> coin(0.0, 1.0);
    std::vector<double> centres(static_cast<std::size_t>(k * d));
    for (double& c : centres) c = spread * normal(rng);
    Blobs out;
    out.x.resize(static_cast<std::size_t>(n * d));
    out.labels.resize(static_cast<std::size_t>(n));
    for (std::int64_t i = 0; i < n; ++i) {
        const auto c = static_cast<std::int32_t>(rng() % static_cast<std::uint64_t>(k));
        for (std::int64_t j = 0; j < d; ++j) {
            out.x[static_cast<std::size_t>(i * d + j)] =
                static_cast<float>(centres[static_cast<std::size_t>(c * d + j)] + normal(rng));
        }
        out.labels[static_cast<std::size_t>(i)] =
            coin(rng) < flip ? static_cast<std::int32_t>(rng() % static_cast<std::uint64_t>(k)) : c;
    }
    if (singleton) out.labels.back() = k + 40;  // a lone, non-contiguous cluster id
    return out;
}

// Counts and within-cluster sums of squares of points x (n x d) grouped by `group`.
struct ClusterStats {
    std::vector<std::int64_t> counts;
    std::vector<double> withinSS;
};

ClusterStats clusterStats(const std::vector<double>& x, std::int64_t d, const std::vector<int>& group, int k)
{
    const auto n = static_cast<std::int64_t>(group.size());
    std::vector<double> mean(static_cast<std::size_t>(k * d), 0.0);
    ClusterStats s{std::vector<std::int64_t>(static_cast<std::size_t>(k), 0), std::vector<double>(static_cast<std::size_t>(k), 0.0)};
    for (std::int64_t i = 0; i < n; ++i) {
        const int g = group[static_cast<std::size_t>(i)];
        ++s.counts[static_cast<std::size_t>(g)];
        for (std::int64_t j = 0; j < d; ++j) mean[static_cast<std::size_t>(g * d + j)] += x[static_cast<std::size_t>(i * d + j)];
    }
    for (int g = 0; g < k; ++g)
        for (std::int64_t j = 0; j < d; ++j) mean[static_cast<std::size_t>(g * d + j)] /= static_cast<double>(s.counts[static_cast<std::size_t>(g)]);
    for (std::int64_t i = 0; i < n; ++i) {
        const int g = group[static_cast<std::size_t>(i)];
        for (std::int64_t j = 0; j < d; ++j) {
            const double diff = x[static_cast<std::size_t>(i * d + j)] - mean[static_cast<std::size_t>(g * d + j)];
            s.withinSS[static_cast<std::size_t>(g)] += diff * diff;
        }
    }
    return s;
}

double bic(const ClusterStats& s, std::int64_t d)
{
    return sphericalBic(s.counts, s.withinSS, d);
}

template <typename T>
bool writeRaw(const QString& path, const std::vector<T>& values)
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly)) return false;
    const auto bytes = static_cast<qint64>(values.size() * sizeof(T));
    return file.write(reinterpret_cast<const char*>(values.data()), bytes) == bytes;
}

const QString kPython = QStringLiteral("/usr/bin/python3");

// Runs an inline python script with arguments; returns stdout split on whitespace, or an
// empty list with the failure in *error.
QStringList runPython(const QString& script, const QStringList& args, QString* error)
{
    QProcess process;
    process.start(kPython, QStringList{QStringLiteral("-c"), script} + args);
    if (!process.waitForFinished(180000) || process.exitStatus() != QProcess::NormalExit || process.exitCode() != 0) {
        *error = QStringLiteral("python failed (exit %1): %2").arg(process.exitCode()).arg(QString::fromUtf8(process.readAllStandardError()));
        return {};
    }
    return QString::fromUtf8(process.readAllStandardOutput()).split(QRegularExpression(QStringLiteral("\\s+")), Qt::SkipEmptyParts);
}

}  // namespace

class TestMetrics : public QObject {
    Q_OBJECT

    bool m_haveSklearn = false;
    QString m_noSklearnReason;

private slots:
    void initTestCase()
    {
        QProcess probe;
        probe.start(kPython, {QStringLiteral("-c"), QStringLiteral("import numpy, sklearn")});
        if (!probe.waitForStarted(10000)) {
            m_noSklearnReason = QStringLiteral("%1 cannot be started: %2").arg(kPython, probe.errorString());
            return;
        }
        probe.waitForFinished(60000);
        m_haveSklearn = probe.exitStatus() == QProcess::NormalExit && probe.exitCode() == 0;
        if (!m_haveSklearn) {
            m_noSklearnReason = QStringLiteral("scikit-learn/numpy not importable by %1: %2")
                                    .arg(kPython, QString::fromUtf8(probe.readAllStandardError()).trimmed());
        }
    }

    void adjustedRandIndexKnown_data()
    {
        QTest::addColumn<QList<int>>("a");
        QTest::addColumn<QList<int>>("b");
        QTest::addColumn<double>("expected");
        QTest::newRow("identical") << QList<int>{0, 0, 1, 1, 2, 2} << QList<int>{0, 0, 1, 1, 2, 2} << 1.0;
        QTest::newRow("renamed, sparse ids") << QList<int>{0, 0, 1, 1, 2, 2} << QList<int>{5, 5, 900000, 900000, 3, 3} << 1.0;
        // Pairs: 1 of 6 together in both, sum C(a_i,2)=2, sum C(b_j,2)=1: 2(1*6-2)/(3*6-4) = 4/7 (sklearn's doc example).
        QTest::newRow("sklearn doc example") << QList<int>{0, 0, 1, 1} << QList<int>{0, 0, 1, 2} << 4.0 / 7.0;
        // sum C(n_ij,2)=2, sum C(a_i,2)=6, sum C(b_j,2)=3, C(6,2)=15: 2(2*15-18)/(9*15-36) = 24/99.
        QTest::newRow("hand computed") << QList<int>{0, 0, 0, 1, 1, 1} << QList<int>{0, 0, 1, 1, 2, 2} << 24.0 / 99.0;
        QTest::newRow("anti-correlated") << QList<int>{0, 0, 1, 1} << QList<int>{0, 1, 0, 1} << -0.5;
        QTest::newRow("one cluster vs singletons") << QList<int>{0, 0, 0, 0} << QList<int>{0, 1, 2, 3} << 0.0;
        // sklearn's special cases: no pair split differently -> 1.
        QTest::newRow("both single-cluster") << QList<int>{3, 3, 3} << QList<int>{7, 7, 7} << 1.0;
        QTest::newRow("both all singletons") << QList<int>{0, 1, 2} << QList<int>{2, 0, 1} << 1.0;
        QTest::newRow("one row") << QList<int>{4} << QList<int>{9} << 1.0;
        QTest::newRow("empty") << QList<int>{} << QList<int>{} << 1.0;
    }

    void adjustedRandIndexKnown()
    {
        QFETCH(QList<int>, a);
        QFETCH(QList<int>, b);
        QFETCH(double, expected);
        const double ari = adjustedRandIndex(view(a), view(b));
        QVERIFY2(std::abs(ari - expected) <= 1e-15, qPrintable(QStringLiteral("ARI %1, expected %2").arg(ari, 0, 'g', 17).arg(expected, 0, 'g', 17)));
        QCOMPARE(adjustedRandIndex(view(b), view(a)), ari);  // symmetric, exactly
    }

    void normalizedMutualInformationKnown_data()
    {
        QTest::addColumn<QList<int>>("a");
        QTest::addColumn<QList<int>>("b");
        QTest::addColumn<double>("expected");
        QTest::newRow("identical") << QList<int>{0, 0, 1, 1, 2, 2} << QList<int>{0, 0, 1, 1, 2, 2} << 1.0;
        QTest::newRow("renamed, sparse ids") << QList<int>{0, 0, 1, 1, 2, 2} << QList<int>{5, 5, 900000, 900000, 3, 3} << 1.0;
        // MI = log 2, H(a) = log 2, H(b) = 1.5 log 2: NMI = 1 / 1.25.
        QTest::newRow("hand computed") << QList<int>{0, 0, 1, 1} << QList<int>{0, 0, 1, 2} << 0.8;
        QTest::newRow("independent exactly") << QList<int>{0, 0, 1, 1} << QList<int>{0, 1, 0, 1} << 0.0;
        // sklearn's special cases: both single-cluster (or both empty) -> 1; one side single-cluster -> 0.
        QTest::newRow("both single-cluster") << QList<int>{3, 3, 3} << QList<int>{7, 7, 7} << 1.0;
        QTest::newRow("one side single-cluster") << QList<int>{0, 0, 0, 0} << QList<int>{0, 1, 2, 3} << 0.0;
        QTest::newRow("empty") << QList<int>{} << QList<int>{} << 1.0;
    }

    void normalizedMutualInformationKnown()
    {
        QFETCH(QList<int>, a);
        QFETCH(QList<int>, b);
        QFETCH(double, expected);
        const double nmi = normalizedMutualInformation(view(a), view(b));
        QVERIFY2(std::abs(nmi - expected) <= 1e-15, qPrintable(QStringLiteral("NMI %1, expected %2").arg(nmi, 0, 'g', 17).arg(expected, 0, 'g', 17)));
        QVERIFY(std::abs(normalizedMutualInformation(view(b), view(a)) - nmi) <= 1e-15);
    }

    void independentLabelingsScoreNearZero_data()
    {
        QTest::addColumn<int>("ka");
        QTest::addColumn<int>("kb");
        QTest::newRow("2 x 2") << 2 << 2;
        QTest::newRow("5 x 3") << 5 << 3;
        QTest::newRow("10 x 10") << 10 << 10;
    }

    void independentLabelingsScoreNearZero()
    {
        QFETCH(int, ka);
        QFETCH(int, kb);
        const auto [a, b] = makeLabelings(20000, ka, kb, 0.0, 11);
        QVERIFY(std::abs(adjustedRandIndex(a, b)) < 0.01);
        const double nmi = normalizedMutualInformation(a, b);
        QVERIFY(nmi >= 0.0 && nmi < 0.01);
    }

    // The lookup-table and the sorting paths (small vs huge label values, small vs large
    // contingency tables) must give the very same bits.
    void renamingIsBitExact_data()
    {
        QTest::addColumn<int>("ka");
        QTest::addColumn<int>("kb");
        QTest::addColumn<double>("agree");
        QTest::newRow("few clusters") << 4 << 3 << 0.6;
        QTest::newRow("sparse contingency") << 400 << 350 << 0.5;
    }

    void renamingIsBitExact()
    {
        QFETCH(int, ka);
        QFETCH(int, kb);
        QFETCH(double, agree);
        const auto [a, b] = makeLabelings(30000, ka, kb, agree, 5);
        const auto [bigA, bSame] = makeLabelings(30000, ka, kb, agree, 5, 7919, 1000000000);
        QCOMPARE(bSame, b);
        QCOMPARE(adjustedRandIndex(bigA, b), adjustedRandIndex(a, b));
        QCOMPARE(normalizedMutualInformation(bigA, b), normalizedMutualInformation(a, b));
        QCOMPARE(adjustedRandIndex(a, a), 1.0);
        QCOMPARE(normalizedMutualInformation(a, a), 1.0);
    }

    void silhouetteKnown_data()
    {
        QTest::addColumn<QList<double>>("x");
        QTest::addColumn<int>("cols");
        QTest::addColumn<QList<int>>("labels");
        QTest::addColumn<double>("expected");
        // a = 1 for every row; b = 10.5, 9.5, 9.5, 10.5.
        QTest::newRow("two pairs") << QList<double>{0, 1, 10, 11} << 1 << QList<int>{0, 0, 1, 1}
                                   << (9.5 / 10.5 + 8.5 / 9.5) / 2.0;
        QTest::newRow("two pairs, huge ids") << QList<double>{0, 1, 10, 11} << 1 << QList<int>{2000000000, 2000000000, 5, 5}
                                             << (9.5 / 10.5 + 8.5 / 9.5) / 2.0;
        // Rectangle 4 x 3: a = 3, b = (4 + 5) / 2 for every corner.
        QTest::newRow("rectangle 2-D") << QList<double>{0, 0, 0, 3, 4, 0, 4, 3} << 2 << QList<int>{0, 0, 1, 1} << 1.0 / 3.0;
        // Singleton scores 0 (sklearn); the others 1 - 1/5 and 1 - 1/4.
        QTest::newRow("singleton cluster") << QList<double>{0, 1, 5} << 1 << QList<int>{0, 0, 1} << (0.8 + 0.75 + 0.0) / 3.0;
        // Row 2 sits on cluster 0's points: s = -1; row 3: a = b = 1 -> 0.
        QTest::newRow("duplicates across clusters") << QList<double>{0, 0, 0, 1} << 1 << QList<int>{0, 0, 1, 1} << 0.25;
        // a = b = 0 is 0/0: sklearn's nan_to_num makes it 0.
        QTest::newRow("all points equal") << QList<double>{2, 2, 2} << 1 << QList<int>{0, 0, 1} << 0.0;
    }

    void silhouetteKnown()
    {
        QFETCH(QList<double>, x);
        QFETCH(int, cols);
        QFETCH(QList<int>, labels);
        QFETCH(double, expected);
        const std::vector<float> points(x.begin(), x.end());
        const auto rows = static_cast<std::int64_t>(labels.size());
        const double s = sampledSilhouette(points.data(), rows, cols, view(labels), rows, 1);
        QVERIFY2(std::abs(s - expected) <= 1e-15, qPrintable(QStringLiteral("silhouette %1, expected %2").arg(s, 0, 'g', 17).arg(expected, 0, 'g', 17)));
        // A sample size above the row count means all rows too.
        QCOMPARE(sampledSilhouette(points.data(), rows, cols, view(labels), rows + 100, 99), s);
    }

    void silhouetteSampleIsDeterministic()
    {
        const std::int64_t n = 3000, d = 4;
        const Blobs blobs = makeBlobs(n, d, 3, 6.0, 0.02, false, 21);
        const double full = sampledSilhouette(blobs.x.data(), n, d, blobs.labels, n, 0);
        const double sampled = sampledSilhouette(blobs.x.data(), n, d, blobs.labels, 400, 7);
        QCOMPARE(sampledSilhouette(blobs.x.data(), n, d, blobs.labels, 400, 7), sampled);
        QVERIFY(sampledSilhouette(blobs.x.data(), n, d, blobs.labels, 400, 8) != sampled);
        // Each sampled row is scored against every row: an unbiased estimate of the full mean.
        QVERIFY2(std::abs(sampled - full) < 0.05, qPrintable(QStringLiteral("sampled %1 vs full %2").arg(sampled).arg(full)));
        QVERIFY(full > 0.3 && full <= 1.0);
#ifdef _OPENMP
        // Same bits whatever the thread count.
        const int before = omp_get_max_threads();
        omp_set_num_threads(1);
        const double oneThread = sampledSilhouette(blobs.x.data(), n, d, blobs.labels, 400, 7);
        const double oneThreadFull = sampledSilhouette(blobs.x.data(), n, d, blobs.labels, n, 0);
        omp_set_num_threads(5);
        const double fiveThreads = sampledSilhouette(blobs.x.data(), n, d, blobs.labels, 400, 7);
        omp_set_num_threads(before);
        QCOMPARE(oneThread, sampled);
        QCOMPARE(fiveThreads, sampled);
        QCOMPARE(oneThreadFull, full);
#endif
    }

    void rejectsInvalidArguments()
    {
        const Labels three{0, 1, 1}, two{0, 1}, negative{0, -1, 1};
        QVERIFY_THROWS_EXCEPTION(UsageError, adjustedRandIndex(three, two));
        QVERIFY_THROWS_EXCEPTION(UsageError, normalizedMutualInformation(three, two));
        QVERIFY_THROWS_EXCEPTION(UsageError, adjustedRandIndex(negative, three));
        QVERIFY_THROWS_EXCEPTION(UsageError, normalizedMutualInformation(three, negative));
        try {
            adjustedRandIndex(three, two);
            QFAIL("no exception");
        } catch (const UsageError& e) {
            QVERIFY2(QString::fromUtf8(e.what()).contains(QStringLiteral("a has 3 labels, b has 2")), e.what());
        }
        try {
            adjustedRandIndex(three, negative);
            QFAIL("no exception");
        } catch (const UsageError& e) {
            QVERIFY2(QString::fromUtf8(e.what()).contains(QStringLiteral("b[1] = -1")), e.what());
        }

        const std::vector<float> x{0, 1, 2, 3};
        const Labels pairs{0, 0, 1, 1}, one{0, 0, 0, 0}, all{0, 1, 2, 3}, negativeRows{0, 0, -1, 1};
        QVERIFY_THROWS_EXCEPTION(UsageError, sampledSilhouette(x.data(), 4, 1, three, 4, 0));      // labels != rows
        QVERIFY_THROWS_EXCEPTION(UsageError, sampledSilhouette(x.data(), 4, 0, pairs, 4, 0));      // cols < 1
        QVERIFY_THROWS_EXCEPTION(UsageError, sampledSilhouette(nullptr, 4, 1, pairs, 4, 0));       // no data
        QVERIFY_THROWS_EXCEPTION(UsageError, sampledSilhouette(x.data(), 4, 1, pairs, 0, 0));      // empty sample
        QVERIFY_THROWS_EXCEPTION(UsageError, sampledSilhouette(x.data(), 4, 1, one, 4, 0));        // one cluster
        QVERIFY_THROWS_EXCEPTION(UsageError, sampledSilhouette(x.data(), 4, 1, all, 4, 0));        // rows clusters
        QVERIFY_THROWS_EXCEPTION(UsageError, sampledSilhouette(x.data(), 4, 1, negativeRows, 4, 0));

        const std::vector<std::int64_t> counts{3, 4}, negativeCount{3, -4};
        const std::vector<double> ss{1.0, 2.0}, ssOne{1.0}, ssNegative{1.0, -2.0},
            ssNan{1.0, std::numeric_limits<double>::quiet_NaN()};
        QVERIFY_THROWS_EXCEPTION(UsageError, sphericalBic(counts, ssOne, 2));
        QVERIFY_THROWS_EXCEPTION(UsageError, sphericalBic(counts, ss, 0));
        QVERIFY_THROWS_EXCEPTION(UsageError, sphericalBic(negativeCount, ss, 2));
        QVERIFY_THROWS_EXCEPTION(UsageError, sphericalBic(counts, ssNegative, 2));
        QVERIFY_THROWS_EXCEPTION(UsageError, sphericalBic(counts, ssNan, 2));
    }

    void bicFormulaAndDegenerateCases()
    {
        // N = 4, K = 2, d = 1, sigma^2 = 2 / 2 = 1, p = 1 + 2 + 1 = 4.
        const double logL = 4.0 * std::log(0.5) - 2.0 * std::log(2.0 * std::numbers::pi) - 1.0;
        const double expected = logL - 2.0 * std::log(4.0);
        const std::vector<std::int64_t> counts{2, 2};
        const std::vector<double> ss{1.0, 1.0};
        QVERIFY(std::abs(sphericalBic(counts, ss, 1) - expected) <= 1e-12);
        // Empty clusters are ignored entirely.
        const std::vector<std::int64_t> withEmpty{2, 0, 2};
        const std::vector<double> ssWithEmpty{1.0, 0.0, 1.0};
        QCOMPARE(sphericalBic(withEmpty, ssWithEmpty, 1), sphericalBic(counts, ss, 1));
        // N <= K and sigma^2 = 0 are degenerate: -inf, never preferred.
        const double minusInf = -std::numeric_limits<double>::infinity();
        const std::vector<std::int64_t> ones{1, 1}, three{3};
        const std::vector<double> zeros{0.0, 0.0}, zero{0.0};
        QCOMPARE(sphericalBic(ones, zeros, 3), minusInf);
        QCOMPARE(sphericalBic(three, zero, 3), minusInf);
        QCOMPARE(sphericalBic({}, {}, 3), minusInf);
    }

    void bicPrefersTrueSplit_data()
    {
        QTest::addColumn<int>("n");
        QTest::addColumn<int>("d");
        QTest::newRow("n=200 d=1") << 200 << 1;
        QTest::newRow("n=200 d=2") << 200 << 2;
        QTest::newRow("n=2000 d=5") << 2000 << 5;
        QTest::newRow("n=5000 d=20") << 5000 << 20;
    }

    // Two groups 10 sigma apart: two clusters must score higher than one. One blob cut in
    // half through its centre: the halves must not score higher than the blob.
    void bicPrefersTrueSplit()
    {
        QFETCH(int, n);
        QFETCH(int, d);
        std::mt19937_64 rng(static_cast<std::uint64_t>(n * 31 + d));
        std::normal_distribution<double> normal(0.0, 1.0);

        std::vector<double> x(static_cast<std::size_t>(n) * static_cast<std::size_t>(d));
        std::vector<int> group(static_cast<std::size_t>(n)), none(static_cast<std::size_t>(n), 0);
        for (int i = 0; i < n; ++i) {
            group[static_cast<std::size_t>(i)] = i % 2;
            for (int j = 0; j < d; ++j)
                x[static_cast<std::size_t>(i * d + j)] = normal(rng) + (j == 0 ? (i % 2 == 0 ? -5.0 : 5.0) : 0.0);
        }
        const double twoGroupsAsOne = bic(clusterStats(x, d, none, 1), d);
        const double twoGroupsAsTwo = bic(clusterStats(x, d, group, 2), d);
        QVERIFY2(twoGroupsAsTwo > twoGroupsAsOne, qPrintable(QStringLiteral("%1 vs %2").arg(twoGroupsAsTwo).arg(twoGroupsAsOne)));

        std::vector<int> half(static_cast<std::size_t>(n));
        for (int i = 0; i < n; ++i) {
            for (int j = 0; j < d; ++j) x[static_cast<std::size_t>(i * d + j)] = normal(rng);
            half[static_cast<std::size_t>(i)] = x[static_cast<std::size_t>(i * d)] < 0.0 ? 0 : 1;
        }
        const double blobAsOne = bic(clusterStats(x, d, none, 1), d);
        const double blobAsHalves = bic(clusterStats(x, d, half, 2), d);
        QVERIFY2(blobAsHalves < blobAsOne, qPrintable(QStringLiteral("%1 vs %2").arg(blobAsHalves).arg(blobAsOne)));
    }

    void agreesWithSklearnAriNmi_data()
    {
        QTest::addColumn<int>("n");
        QTest::addColumn<int>("ka");
        QTest::addColumn<int>("kb");
        QTest::addColumn<double>("agree");
        QTest::addColumn<int>("stride");
        QTest::newRow("tiny") << 7 << 3 << 3 << 0.5 << 1;
        QTest::newRow("independent") << 1000 << 3 << 4 << 0.0 << 1;
        QTest::newRow("correlated") << 5000 << 8 << 6 << 0.7 << 1;
        QTest::newRow("one side single-cluster") << 100 << 1 << 5 << 0.0 << 1;
        QTest::newRow("many clusters, huge ids") << 20000 << 300 << 250 << 0.5 << 6000000;
        QTest::newRow("nearly identical") << 50000 << 12 << 12 << 0.999 << 1;
    }

    void agreesWithSklearnAriNmi()
    {
        if (!m_haveSklearn) QSKIP(qPrintable(m_noSklearnReason));
        QFETCH(int, n);
        QFETCH(int, ka);
        QFETCH(int, kb);
        QFETCH(double, agree);
        QFETCH(int, stride);
        const auto [a, b] = makeLabelings(n, ka, kb, agree, static_cast<std::uint64_t>(n + ka), stride, 3);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QVERIFY(writeRaw(dir.filePath(QStringLiteral("a.i32")), a));
        QVERIFY(writeRaw(dir.filePath(QStringLiteral("b.i32")), b));
        const QString script = QStringLiteral(
            "import sys, numpy as np\n"
            "from sklearn.metrics import adjusted_rand_score, normalized_mutual_info_score\n"
            "a = np.fromfile(sys.argv[1], dtype=np.int32)\n"
            "b = np.fromfile(sys.argv[2], dtype=np.int32)\n"
            "print(repr(float(adjusted_rand_score(a, b))), repr(float(normalized_mutual_info_score(a, b))))\n");
        QString error;
        const QStringList out = runPython(script, {dir.filePath(QStringLiteral("a.i32")), dir.filePath(QStringLiteral("b.i32"))}, &error);
        QVERIFY2(out.size() == 2, qPrintable(error + out.join(u' ')));
        const double ariRef = out[0].toDouble(), nmiRef = out[1].toDouble();
        const double ari = adjustedRandIndex(a, b), nmi = normalizedMutualInformation(a, b);
        QVERIFY2(std::abs(ari - ariRef) <= 1e-9, qPrintable(QStringLiteral("ARI %1, sklearn %2").arg(ari, 0, 'g', 17).arg(ariRef, 0, 'g', 17)));
        QVERIFY2(std::abs(nmi - nmiRef) <= 1e-9, qPrintable(QStringLiteral("NMI %1, sklearn %2").arg(nmi, 0, 'g', 17).arg(nmiRef, 0, 'g', 17)));
    }

    void agreesWithSklearnSilhouette_data()
    {
        QTest::addColumn<int>("n");
        QTest::addColumn<int>("d");
        QTest::addColumn<int>("k");
        QTest::addColumn<double>("spread");
        QTest::addColumn<double>("flip");
        QTest::addColumn<bool>("singleton");
        QTest::newRow("2-D, 3 blobs") << 500 << 2 << 3 << 5.0 << 0.0 << false;
        QTest::newRow("8-D, 6 blobs, noisy labels, singleton") << 1500 << 8 << 6 << 3.0 << 0.1 << true;
        QTest::newRow("30-D, 2 overlapping") << 300 << 30 << 2 << 0.3 << 0.0 << false;
    }

    // sklearn's silhouette_score on all rows (no sample_size) against ours with sampleSize >= rows.
    void agreesWithSklearnSilhouette()
    {
        if (!m_haveSklearn) QSKIP(qPrintable(m_noSklearnReason));
        QFETCH(int, n);
        QFETCH(int, d);
        QFETCH(int, k);
        QFETCH(double, spread);
        QFETCH(double, flip);
        QFETCH(bool, singleton);
        const Blobs blobs = makeBlobs(n, d, k, spread, flip, singleton, static_cast<std::uint64_t>(n * d));
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QVERIFY(writeRaw(dir.filePath(QStringLiteral("x.f32")), blobs.x));
        QVERIFY(writeRaw(dir.filePath(QStringLiteral("labels.i32")), blobs.labels));
        const QString script = QStringLiteral(
            "import sys, numpy as np\n"
            "from sklearn.metrics import silhouette_score\n"
            "x = np.fromfile(sys.argv[1], dtype=np.float32).reshape(-1, int(sys.argv[3]))\n"
            "labels = np.fromfile(sys.argv[2], dtype=np.int32)\n"
            "print(repr(float(silhouette_score(x, labels))))\n");
        QString error;
        const QStringList out = runPython(
            script, {dir.filePath(QStringLiteral("x.f32")), dir.filePath(QStringLiteral("labels.i32")), QString::number(d)}, &error);
        QVERIFY2(out.size() == 1, qPrintable(error + out.join(u' ')));
        const double reference = out[0].toDouble();
        const double s = sampledSilhouette(blobs.x.data(), n, d, blobs.labels, n, 0);
        QVERIFY2(std::abs(s - reference) <= 1e-5,
                 qPrintable(QStringLiteral("silhouette %1, sklearn %2").arg(s, 0, 'g', 17).arg(reference, 0, 'g', 17)));
    }
};

QTEST_APPLESS_MAIN(TestMetrics)
#include "test_metrics.moc"
