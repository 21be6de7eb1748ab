// Clustering metrics: hand-computed values and sklearn's conventions for degenerate
// labelings, invariance to renaming, the sampled silhouette's determinism, BIC's
// split/no-split decisions, and agreement with scikit-learn where python3 has it.
#include "engine/cluster/metrics.h"
#include "engine/core/error.h"

#include "doctest_support.h"
#include "run_process.h"
#include "temp_dir.h"

#include <string>

#ifdef _OPENMP
#include <omp.h>
#endif

#include <cmath>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <limits>
#include <numbers>
#include <random>
#include <sstream>
#include <span>
#include <vector>

using namespace clusterdesk;

namespace {

using Labels = std::vector<std::int32_t>;

std::span<const std::int32_t> view(const std::vector<int>& list)
{
    return {list.data(), static_cast<std::size_t>(list.size())};
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
bool writeRaw(const std::string& path, const std::vector<T>& values)
{
    std::ofstream file(path, std::ios::binary | std::ios::trunc);
    file.write(reinterpret_cast<const char*>(values.data()), static_cast<std::streamsize>(values.size() * sizeof(T)));
    return file.good();
}

const std::string kPython = std::string("/usr/bin/python3");

// Runs an inline python script with arguments; returns stdout split on whitespace, or an
// empty list with the failure in *error.
std::vector<std::string> runPython(const std::string& script, const std::vector<std::string>& args, std::string* error)
{
    std::vector<std::string> argv{kPython, "-c", script};
    argv.insert(argv.end(), args.begin(), args.end());
    const test::ProcessResult process = test::runProcess(argv);
    if (!process.succeeded()) {
        *error = "python failed (exit " + std::to_string(process.exitCode) + "): " + process.err + process.error;
        return {};
    }
    std::istringstream words(process.out);
    return {std::istream_iterator<std::string>(words), std::istream_iterator<std::string>()};
}

}  // namespace

namespace {

// Empty where numpy and scikit-learn can be imported; otherwise why not. Asked once,
// as Qt's initTestCase did.
const std::string& noSklearnReason()
{
    static const std::string reason = [] {
        const test::ProcessResult probe = test::runProcess({kPython, "-c", "import numpy, sklearn"});
        if (!probe.started) return probe.error;
        if (probe.succeeded()) return std::string();
        return "scikit-learn/numpy not importable by " + kPython + ": " + probe.err;
    }();
    return reason;
}

}  // namespace

namespace {

struct AdjustedRandIndexKnownRow {
    std::string tag;
    std::vector<int> a;
    std::vector<int> b;
    double expected;
};

std::vector<AdjustedRandIndexKnownRow> adjustedRandIndexKnownRows()
{
    std::vector<AdjustedRandIndexKnownRow> rows;
    rows.push_back({"identical", std::vector<int>{0, 0, 1, 1, 2, 2}, std::vector<int>{0, 0, 1, 1, 2, 2}, 1.0});
    rows.push_back({"renamed, sparse ids", std::vector<int>{0, 0, 1, 1, 2, 2}, std::vector<int>{5, 5, 900000, 900000, 3, 3}, 1.0});
    // Pairs: 1 of 6 together in both, sum C(a_i,2)=2, sum C(b_j,2)=1: 2(1*6-2)/(3*6-4) = 4/7 (sklearn's doc example).
    rows.push_back({"sklearn doc example", std::vector<int>{0, 0, 1, 1}, std::vector<int>{0, 0, 1, 2}, 4.0 / 7.0});
    // sum C(n_ij,2)=2, sum C(a_i,2)=6, sum C(b_j,2)=3, C(6,2)=15: 2(2*15-18)/(9*15-36) = 24/99.
    rows.push_back({"hand computed", std::vector<int>{0, 0, 0, 1, 1, 1}, std::vector<int>{0, 0, 1, 1, 2, 2}, 24.0 / 99.0});
    rows.push_back({"anti-correlated", std::vector<int>{0, 0, 1, 1}, std::vector<int>{0, 1, 0, 1}, -0.5});
    rows.push_back({"one cluster vs singletons", std::vector<int>{0, 0, 0, 0}, std::vector<int>{0, 1, 2, 3}, 0.0});
    // sklearn's special cases: no pair split differently -> 1.
    rows.push_back({"both single-cluster", std::vector<int>{3, 3, 3}, std::vector<int>{7, 7, 7}, 1.0});
    rows.push_back({"both all singletons", std::vector<int>{0, 1, 2}, std::vector<int>{2, 0, 1}, 1.0});
    rows.push_back({"one row", std::vector<int>{4}, std::vector<int>{9}, 1.0});
    rows.push_back({"empty", std::vector<int>{}, std::vector<int>{}, 1.0});
    return rows;
}

}  // namespace

TEST_CASE("adjustedRandIndexKnown")
{
    for (const AdjustedRandIndexKnownRow& row : adjustedRandIndexKnownRows()) {
        SUBCASE(row.tag.c_str())
        {
            const std::vector<int>& a = row.a;
            const std::vector<int>& b = row.b;
            const double& expected = row.expected;
            const double ari = adjustedRandIndex(view(a), view(b));
            REQUIRE_MESSAGE(std::abs(ari - expected) <= 1e-15, "ARI " << test::exact(ari) << ", expected " << test::exact(expected));
            REQUIRE_EQ(adjustedRandIndex(view(b), view(a)), ari);  // symmetric, exactly
        }
    }
}

namespace {

struct NormalizedMutualInformationKnownRow {
    std::string tag;
    std::vector<int> a;
    std::vector<int> b;
    double expected;
};

std::vector<NormalizedMutualInformationKnownRow> normalizedMutualInformationKnownRows()
{
    std::vector<NormalizedMutualInformationKnownRow> rows;
    rows.push_back({"identical", std::vector<int>{0, 0, 1, 1, 2, 2}, std::vector<int>{0, 0, 1, 1, 2, 2}, 1.0});
    rows.push_back({"renamed, sparse ids", std::vector<int>{0, 0, 1, 1, 2, 2}, std::vector<int>{5, 5, 900000, 900000, 3, 3}, 1.0});
    // MI = log 2, H(a) = log 2, H(b) = 1.5 log 2: NMI = 1 / 1.25.
    rows.push_back({"hand computed", std::vector<int>{0, 0, 1, 1}, std::vector<int>{0, 0, 1, 2}, 0.8});
    rows.push_back({"independent exactly", std::vector<int>{0, 0, 1, 1}, std::vector<int>{0, 1, 0, 1}, 0.0});
    // sklearn's special cases: both single-cluster (or both empty) -> 1; one side single-cluster -> 0.
    rows.push_back({"both single-cluster", std::vector<int>{3, 3, 3}, std::vector<int>{7, 7, 7}, 1.0});
    rows.push_back({"one side single-cluster", std::vector<int>{0, 0, 0, 0}, std::vector<int>{0, 1, 2, 3}, 0.0});
    rows.push_back({"empty", std::vector<int>{}, std::vector<int>{}, 1.0});
    return rows;
}

}  // namespace

TEST_CASE("normalizedMutualInformationKnown")
{
    for (const NormalizedMutualInformationKnownRow& row : normalizedMutualInformationKnownRows()) {
        SUBCASE(row.tag.c_str())
        {
            const std::vector<int>& a = row.a;
            const std::vector<int>& b = row.b;
            const double& expected = row.expected;
            const double nmi = normalizedMutualInformation(view(a), view(b));
            REQUIRE_MESSAGE(std::abs(nmi - expected) <= 1e-15, "NMI " << test::exact(nmi) << ", expected " << test::exact(expected));
            REQUIRE(std::abs(normalizedMutualInformation(view(b), view(a)) - nmi) <= 1e-15);
        }
    }
}

namespace {

struct IndependentLabelingsScoreNearZeroRow {
    std::string tag;
    int ka;
    int kb;
};

std::vector<IndependentLabelingsScoreNearZeroRow> independentLabelingsScoreNearZeroRows()
{
    std::vector<IndependentLabelingsScoreNearZeroRow> rows;
    rows.push_back({"2 x 2", 2, 2});
    rows.push_back({"5 x 3", 5, 3});
    rows.push_back({"10 x 10", 10, 10});
    return rows;
}

}  // namespace

TEST_CASE("independentLabelingsScoreNearZero")
{
    for (const IndependentLabelingsScoreNearZeroRow& row : independentLabelingsScoreNearZeroRows()) {
        SUBCASE(row.tag.c_str())
        {
            const int& ka = row.ka;
            const int& kb = row.kb;
            const auto [a, b] = makeLabelings(20000, ka, kb, 0.0, 11);
            REQUIRE(std::abs(adjustedRandIndex(a, b)) < 0.01);
            const double nmi = normalizedMutualInformation(a, b);
            REQUIRE((nmi >= 0.0 && nmi < 0.01));
        }
    }
}

namespace {

struct RenamingIsBitExactRow {
    std::string tag;
    int ka;
    int kb;
    double agree;
};

std::vector<RenamingIsBitExactRow> renamingIsBitExactRows()
{
    std::vector<RenamingIsBitExactRow> rows;
    rows.push_back({"few clusters", 4, 3, 0.6});
    rows.push_back({"sparse contingency", 400, 350, 0.5});
    return rows;
}

}  // namespace

// The lookup-table and the sorting paths (small vs huge label values, small vs large
// contingency tables) must give the very same bits.
TEST_CASE("renamingIsBitExact")
{
    for (const RenamingIsBitExactRow& row : renamingIsBitExactRows()) {
        SUBCASE(row.tag.c_str())
        {
            const int& ka = row.ka;
            const int& kb = row.kb;
            const double& agree = row.agree;
            const auto [a, b] = makeLabelings(30000, ka, kb, agree, 5);
            const auto [bigA, bSame] = makeLabelings(30000, ka, kb, agree, 5, 7919, 1000000000);
            REQUIRE_EQ(bSame, b);
            REQUIRE_EQ(adjustedRandIndex(bigA, b), adjustedRandIndex(a, b));
            REQUIRE_EQ(normalizedMutualInformation(bigA, b), normalizedMutualInformation(a, b));
            REQUIRE_EQ(adjustedRandIndex(a, a), 1.0);
            // Within 1e-12 relative, as Qt's QCOMPARE on doubles (qFuzzyCompare) checked.
            REQUIRE_EQ(normalizedMutualInformation(a, a), doctest::Approx(1.0).epsilon(1e-12));
        }
    }
}

namespace {

struct SilhouetteKnownRow {
    std::string tag;
    std::vector<double> x;
    int cols;
    std::vector<int> labels;
    double expected;
};

std::vector<SilhouetteKnownRow> silhouetteKnownRows()
{
    std::vector<SilhouetteKnownRow> rows;
    // a = 1 for every row; b = 10.5, 9.5, 9.5, 10.5.
    rows.push_back({"two pairs", std::vector<double>{0, 1, 10, 11}, 1, std::vector<int>{0, 0, 1, 1}, (9.5 / 10.5 + 8.5 / 9.5) / 2.0});
    rows.push_back({"two pairs, huge ids", std::vector<double>{0, 1, 10, 11}, 1, std::vector<int>{2000000000, 2000000000, 5, 5}, (9.5 / 10.5 + 8.5 / 9.5) / 2.0});
    // Rectangle 4 x 3: a = 3, b = (4 + 5) / 2 for every corner.
    rows.push_back({"rectangle 2-D", std::vector<double>{0, 0, 0, 3, 4, 0, 4, 3}, 2, std::vector<int>{0, 0, 1, 1}, 1.0 / 3.0});
    // Singleton scores 0 (sklearn); the others 1 - 1/5 and 1 - 1/4.
    rows.push_back({"singleton cluster", std::vector<double>{0, 1, 5}, 1, std::vector<int>{0, 0, 1}, (0.8 + 0.75 + 0.0) / 3.0});
    // Row 2 sits on cluster 0's points: s = -1; row 3: a = b = 1 -> 0.
    rows.push_back({"duplicates across clusters", std::vector<double>{0, 0, 0, 1}, 1, std::vector<int>{0, 0, 1, 1}, 0.25});
    // a = b = 0 is 0/0: sklearn's nan_to_num makes it 0.
    rows.push_back({"all points equal", std::vector<double>{2, 2, 2}, 1, std::vector<int>{0, 0, 1}, 0.0});
    return rows;
}

}  // namespace

TEST_CASE("silhouetteKnown")
{
    for (const SilhouetteKnownRow& row : silhouetteKnownRows()) {
        SUBCASE(row.tag.c_str())
        {
            const std::vector<double>& x = row.x;
            const int& cols = row.cols;
            const std::vector<int>& labels = row.labels;
            const double& expected = row.expected;
            const std::vector<float> points(x.begin(), x.end());
            const auto rows = static_cast<std::int64_t>(labels.size());
            const double s = sampledSilhouette(points.data(), rows, cols, view(labels), rows, 1);
            REQUIRE_MESSAGE(std::abs(s - expected) <= 1e-15, "silhouette " << test::exact(s) << ", expected " << test::exact(expected));
            // A sample size above the row count means all rows too.
            REQUIRE_EQ(sampledSilhouette(points.data(), rows, cols, view(labels), rows + 100, 99), s);
        }
    }
}

TEST_CASE("silhouetteSampleIsDeterministic")
{
    const std::int64_t n = 3000, d = 4;
    const Blobs blobs = makeBlobs(n, d, 3, 6.0, 0.02, false, 21);
    const double full = sampledSilhouette(blobs.x.data(), n, d, blobs.labels, n, 0);
    const double sampled = sampledSilhouette(blobs.x.data(), n, d, blobs.labels, 400, 7);
    REQUIRE_EQ(sampledSilhouette(blobs.x.data(), n, d, blobs.labels, 400, 7), sampled);
    REQUIRE(sampledSilhouette(blobs.x.data(), n, d, blobs.labels, 400, 8) != sampled);
    // Each sampled row is scored against every row: an unbiased estimate of the full mean.
    REQUIRE_MESSAGE(std::abs(sampled - full) < 0.05, "sampled " << sampled << " vs full " << full);
    REQUIRE((full > 0.3 && full <= 1.0));
#ifdef _OPENMP
    // Same bits whatever the thread count.
    const int before = omp_get_max_threads();
    omp_set_num_threads(1);
    const double oneThread = sampledSilhouette(blobs.x.data(), n, d, blobs.labels, 400, 7);
    const double oneThreadFull = sampledSilhouette(blobs.x.data(), n, d, blobs.labels, n, 0);
    omp_set_num_threads(5);
    const double fiveThreads = sampledSilhouette(blobs.x.data(), n, d, blobs.labels, 400, 7);
    omp_set_num_threads(before);
    REQUIRE_EQ(oneThread, sampled);
    REQUIRE_EQ(fiveThreads, sampled);
    REQUIRE_EQ(oneThreadFull, full);
#endif
}

TEST_CASE("rejectsInvalidArguments")
{
    const Labels three{0, 1, 1}, two{0, 1}, negative{0, -1, 1};
    REQUIRE_THROWS_AS(adjustedRandIndex(three, two), UsageError);
    REQUIRE_THROWS_AS(normalizedMutualInformation(three, two), UsageError);
    REQUIRE_THROWS_AS(adjustedRandIndex(negative, three), UsageError);
    REQUIRE_THROWS_AS(normalizedMutualInformation(three, negative), UsageError);
    try {
        adjustedRandIndex(three, two);
        FAIL("no exception");
    } catch (const UsageError& e) {
        REQUIRE_MESSAGE(test::contains(std::string(e.what()), std::string("a has 3 labels, b has 2")), e.what());
    }
    try {
        adjustedRandIndex(three, negative);
        FAIL("no exception");
    } catch (const UsageError& e) {
        REQUIRE_MESSAGE(test::contains(std::string(e.what()), std::string("b[1] = -1")), e.what());
    }

    const std::vector<float> x{0, 1, 2, 3};
    const Labels pairs{0, 0, 1, 1}, one{0, 0, 0, 0}, all{0, 1, 2, 3}, negativeRows{0, 0, -1, 1};
    REQUIRE_THROWS_AS(sampledSilhouette(x.data(), 4, 1, three, 4, 0), UsageError);      // labels != rows
    REQUIRE_THROWS_AS(sampledSilhouette(x.data(), 4, 0, pairs, 4, 0), UsageError);      // cols < 1
    REQUIRE_THROWS_AS(sampledSilhouette(nullptr, 4, 1, pairs, 4, 0), UsageError);       // no data
    REQUIRE_THROWS_AS(sampledSilhouette(x.data(), 4, 1, pairs, 0, 0), UsageError);      // empty sample
    REQUIRE_THROWS_AS(sampledSilhouette(x.data(), 4, 1, one, 4, 0), UsageError);        // one cluster
    REQUIRE_THROWS_AS(sampledSilhouette(x.data(), 4, 1, all, 4, 0), UsageError);        // rows clusters
    REQUIRE_THROWS_AS(sampledSilhouette(x.data(), 4, 1, negativeRows, 4, 0), UsageError);

    const std::vector<std::int64_t> counts{3, 4}, negativeCount{3, -4};
    const std::vector<double> ss{1.0, 2.0}, ssOne{1.0}, ssNegative{1.0, -2.0},
        ssNan{1.0, std::numeric_limits<double>::quiet_NaN()};
    REQUIRE_THROWS_AS(sphericalBic(counts, ssOne, 2), UsageError);
    REQUIRE_THROWS_AS(sphericalBic(counts, ss, 0), UsageError);
    REQUIRE_THROWS_AS(sphericalBic(negativeCount, ss, 2), UsageError);
    REQUIRE_THROWS_AS(sphericalBic(counts, ssNegative, 2), UsageError);
    REQUIRE_THROWS_AS(sphericalBic(counts, ssNan, 2), UsageError);
}

TEST_CASE("bicFormulaAndDegenerateCases")
{
    // N = 4, K = 2, d = 1, sigma^2 = 2 / 2 = 1, p = 1 + 2 + 1 = 4.
    const double logL = 4.0 * std::log(0.5) - 2.0 * std::log(2.0 * std::numbers::pi) - 1.0;
    const double expected = logL - 2.0 * std::log(4.0);
    const std::vector<std::int64_t> counts{2, 2};
    const std::vector<double> ss{1.0, 1.0};
    REQUIRE(std::abs(sphericalBic(counts, ss, 1) - expected) <= 1e-12);
    // Empty clusters are ignored entirely.
    const std::vector<std::int64_t> withEmpty{2, 0, 2};
    const std::vector<double> ssWithEmpty{1.0, 0.0, 1.0};
    REQUIRE_EQ(sphericalBic(withEmpty, ssWithEmpty, 1), sphericalBic(counts, ss, 1));
    // N <= K and sigma^2 = 0 are degenerate: -inf, never preferred.
    const double minusInf = -std::numeric_limits<double>::infinity();
    const std::vector<std::int64_t> ones{1, 1}, three{3};
    const std::vector<double> zeros{0.0, 0.0}, zero{0.0};
    REQUIRE_EQ(sphericalBic(ones, zeros, 3), minusInf);
    REQUIRE_EQ(sphericalBic(three, zero, 3), minusInf);
    REQUIRE_EQ(sphericalBic({}, {}, 3), minusInf);
}

namespace {

struct BicPrefersTrueSplitRow {
    std::string tag;
    int n;
    int d;
};

std::vector<BicPrefersTrueSplitRow> bicPrefersTrueSplitRows()
{
    std::vector<BicPrefersTrueSplitRow> rows;
    rows.push_back({"n=200 d=1", 200, 1});
    rows.push_back({"n=200 d=2", 200, 2});
    rows.push_back({"n=2000 d=5", 2000, 5});
    rows.push_back({"n=5000 d=20", 5000, 20});
    return rows;
}

}  // namespace

// Two groups 10 sigma apart: two clusters must score higher than one. One blob cut in
// half through its centre: the halves must not score higher than the blob.
TEST_CASE("bicPrefersTrueSplit")
{
    for (const BicPrefersTrueSplitRow& row : bicPrefersTrueSplitRows()) {
        SUBCASE(row.tag.c_str())
        {
            const int& n = row.n;
            const int& d = row.d;
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
            REQUIRE_MESSAGE(twoGroupsAsTwo > twoGroupsAsOne, twoGroupsAsTwo << " vs " << twoGroupsAsOne);

            std::vector<int> half(static_cast<std::size_t>(n));
            for (int i = 0; i < n; ++i) {
                for (int j = 0; j < d; ++j) x[static_cast<std::size_t>(i * d + j)] = normal(rng);
                half[static_cast<std::size_t>(i)] = x[static_cast<std::size_t>(i * d)] < 0.0 ? 0 : 1;
            }
            const double blobAsOne = bic(clusterStats(x, d, none, 1), d);
            const double blobAsHalves = bic(clusterStats(x, d, half, 2), d);
            REQUIRE_MESSAGE(blobAsHalves < blobAsOne, blobAsHalves << " vs " << blobAsOne);
        }
    }
}

namespace {

struct AgreesWithSklearnAriNmiRow {
    std::string tag;
    int n;
    int ka;
    int kb;
    double agree;
    int stride;
};

std::vector<AgreesWithSklearnAriNmiRow> agreesWithSklearnAriNmiRows()
{
    std::vector<AgreesWithSklearnAriNmiRow> rows;
    rows.push_back({"tiny", 7, 3, 3, 0.5, 1});
    rows.push_back({"independent", 1000, 3, 4, 0.0, 1});
    rows.push_back({"correlated", 5000, 8, 6, 0.7, 1});
    rows.push_back({"one side single-cluster", 100, 1, 5, 0.0, 1});
    rows.push_back({"many clusters, huge ids", 20000, 300, 250, 0.5, 6000000});
    rows.push_back({"nearly identical", 50000, 12, 12, 0.999, 1});
    return rows;
}

}  // namespace

TEST_CASE("agreesWithSklearnAriNmi")
{
    for (const AgreesWithSklearnAriNmiRow& row : agreesWithSklearnAriNmiRows()) {
        SUBCASE(row.tag.c_str())
        {
            if (!noSklearnReason().empty()) CLUSTERDESK_SKIP(noSklearnReason());
            const int& n = row.n;
            const int& ka = row.ka;
            const int& kb = row.kb;
            const double& agree = row.agree;
            const int& stride = row.stride;
            const auto [a, b] = makeLabelings(n, ka, kb, agree, static_cast<std::uint64_t>(n + ka), stride, 3);
            test::TempDir dir;
            REQUIRE(dir.isValid());
            REQUIRE(writeRaw(dir.filePath(std::string("a.i32")), a));
            REQUIRE(writeRaw(dir.filePath(std::string("b.i32")), b));
            const std::string script = std::string(
                "import sys, numpy as np\n"
                "from sklearn.metrics import adjusted_rand_score, normalized_mutual_info_score\n"
                "a = np.fromfile(sys.argv[1], dtype=np.int32)\n"
                "b = np.fromfile(sys.argv[2], dtype=np.int32)\n"
                "print(repr(float(adjusted_rand_score(a, b))), repr(float(normalized_mutual_info_score(a, b))))\n");
            std::string error;
            const std::vector<std::string> out = runPython(script, {dir.filePath(std::string("a.i32")), dir.filePath(std::string("b.i32"))}, &error);
            REQUIRE_MESSAGE(out.size() == 2, std::string(error + test::join(out, ' ')).c_str());
            const double ariRef = std::stod(out[0]), nmiRef = std::stod(out[1]);
            const double ari = adjustedRandIndex(a, b), nmi = normalizedMutualInformation(a, b);
            REQUIRE_MESSAGE(std::abs(ari - ariRef) <= 1e-9, "ARI " << test::exact(ari) << ", sklearn " << test::exact(ariRef));
            REQUIRE_MESSAGE(std::abs(nmi - nmiRef) <= 1e-9, "NMI " << test::exact(nmi) << ", sklearn " << test::exact(nmiRef));
        }
    }
}

namespace {

struct AgreesWithSklearnSilhouetteRow {
    std::string tag;
    int n;
    int d;
    int k;
    double spread;
    double flip;
    bool singleton;
};

std::vector<AgreesWithSklearnSilhouetteRow> agreesWithSklearnSilhouetteRows()
{
    std::vector<AgreesWithSklearnSilhouetteRow> rows;
    rows.push_back({"2-D, 3 blobs", 500, 2, 3, 5.0, 0.0, false});
    rows.push_back({"8-D, 6 blobs, noisy labels, singleton", 1500, 8, 6, 3.0, 0.1, true});
    rows.push_back({"30-D, 2 overlapping", 300, 30, 2, 0.3, 0.0, false});
    return rows;
}

}  // namespace

// sklearn's silhouette_score on all rows (no sample_size) against ours with sampleSize >= rows.
TEST_CASE("agreesWithSklearnSilhouette")
{
    for (const AgreesWithSklearnSilhouetteRow& row : agreesWithSklearnSilhouetteRows()) {
        SUBCASE(row.tag.c_str())
        {
            if (!noSklearnReason().empty()) CLUSTERDESK_SKIP(noSklearnReason());
            const int& n = row.n;
            const int& d = row.d;
            const int& k = row.k;
            const double& spread = row.spread;
            const double& flip = row.flip;
            const bool& singleton = row.singleton;
            const Blobs blobs = makeBlobs(n, d, k, spread, flip, singleton, static_cast<std::uint64_t>(n * d));
            test::TempDir dir;
            REQUIRE(dir.isValid());
            REQUIRE(writeRaw(dir.filePath(std::string("x.f32")), blobs.x));
            REQUIRE(writeRaw(dir.filePath(std::string("labels.i32")), blobs.labels));
            const std::string script = std::string(
                "import sys, numpy as np\n"
                "from sklearn.metrics import silhouette_score\n"
                "x = np.fromfile(sys.argv[1], dtype=np.float32).reshape(-1, int(sys.argv[3]))\n"
                "labels = np.fromfile(sys.argv[2], dtype=np.int32)\n"
                "print(repr(float(silhouette_score(x, labels))))\n");
            std::string error;
            const std::vector<std::string> out = runPython(
                script, {dir.filePath(std::string("x.f32")), dir.filePath(std::string("labels.i32")), std::to_string(d)}, &error);
            REQUIRE_MESSAGE(out.size() == 1, std::string(error + test::join(out, ' ')).c_str());
            const double reference = std::stod(out[0]);
            const double s = sampledSilhouette(blobs.x.data(), n, d, blobs.labels, n, 0);
            REQUIRE_MESSAGE(std::abs(s - reference) <= 1e-5, "silhouette " << test::exact(s) << ", sklearn " << test::exact(reference));
        }
    }
}
