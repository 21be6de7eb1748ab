#include "engine/data/demo.h"
#include "engine/data/demo_generators.h"
#include "engine/core/error.h"

#include "data_test_support.h"

#include "doctest_support.h"

#include <cstdint>
#include <string>
#include <vector>

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

TEST_CASE("marketShape")
{
    const Dataset d = makeDemo("market");
    REQUIRE_EQ(toString(d.layout), toString(Layout::Prices));
    REQUIRE_EQ(d.rows, std::int64_t{500});
    REQUIRE_EQ(d.cols, std::int64_t{749});
    REQUIRE_EQ(d.rowNames.size(), std::size_t{500});
    REQUIRE_EQ(d.colNames.size(), std::size_t{749});
    REQUIRE_EQ(d.colNames.front(), std::string("2021-01-05"));
    REQUIRE_EQ(d.rowNames[17], std::string("S07_A017"));
    REQUIRE_EQ(d.truth.size(), std::size_t{500});
    std::map<int, int> sizes;
    for (int t : d.truth) ++sizes[t];
    REQUIRE_EQ(sizes.size(), std::size_t{10});
    for (const auto& [sector, n] : sizes) REQUIRE_EQ(n, 50);
    REQUIRE_EQ(d.source, std::string("market:assets=500,sectors=10,days=750,seed=7,window=0,strong=0,corr_market=0.37,corr_sector=0.57,scale_days=1"));
    // Every row z-scored: mean 0, population sd 1.
    for (std::int64_t i = 0; i < d.rows; ++i) {
        double mean = 0, sq = 0;
        for (std::int64_t j = 0; j < d.cols; ++j) mean += d.row(i)[j];
        mean /= d.cols;
        for (std::int64_t j = 0; j < d.cols; ++j) sq += (d.row(i)[j] - mean) * (d.row(i)[j] - mean);
        REQUIRE(std::fabs(mean) < 1e-4);
        REQUIRE(std::fabs(std::sqrt(sq / d.cols) - 1.0) < 1e-3);
    }
    REQUIRE(nearestMeanAccuracy(d, 10) >= 0.95);
}

// The market factor dominates: rows from different sectors are still clearly
// positively correlated, rows of one sector more so.
TEST_CASE("marketFactorMatters")
{
    const Dataset d = makeDemo("market:assets=40,sectors=4,scale_days=0");
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
    REQUIRE_MESSAGE(other > 0.3, std::to_string(other).c_str());
    REQUIRE_MESSAGE(same > other + 0.1, (std::to_string(same) + " vs " + std::to_string(other)).c_str());
}

namespace {

// Mean correlation of two rows (z-scored rows: the mean product) within one sector and across sectors.
std::pair<double, double> meanCorrelations(const Dataset& d)
{
    double same = 0, other = 0;
    std::int64_t nSame = 0, nOther = 0;
    for (std::int64_t a = 0; a < d.rows; ++a)
        for (std::int64_t b = a + 1; b < d.rows; ++b) {
            double corr = 0;
            for (std::int64_t j = 0; j < d.cols; ++j) corr += double(d.row(a)[j]) * d.row(b)[j];
            corr /= double(d.cols);
            if (d.truth[a] == d.truth[b])
                same += corr, ++nSame;
            else
                other += corr, ++nOther;
        }
    return {same / double(nSame), other / double(nOther)};
}

// Excess kurtosis of all the rows' returns pooled (each row z-scored: mean 0, sd 1).
double excessKurtosis(const Dataset& d)
{
    double fourth = 0;
    for (float v : d.values) fourth += double(v) * v * v * v;
    return fourth / double(d.values.size()) - 3.0;
}

}  // namespace

// The default demo is calibrated to daily US large-cap returns: about 0.37 across sectors
// and 0.57 within one, fat tails, volatility clustering; the keys move those figures.
// Measured on the returns as they are (scale_days=0): scaling the days is what the
// pipeline does to them, not what the market did.
TEST_CASE("marketCalibration")
{
    const Dataset d = makeDemo("market:assets=60,sectors=6,days=2001,scale_days=0");
    const auto [same, other] = meanCorrelations(d);
    MESSAGE(test::format("realistic: within %.3f, across %.3f, excess kurtosis %.2f", same, other, excessKurtosis(d)));
    CHECK(std::fabs(other - 0.37) < 0.05);
    CHECK(std::fabs(same - 0.57) < 0.05);
    CHECK(excessKurtosis(d) > 1.0);
    // Volatility clustering: squared returns of the first asset correlate with the next day's.
    double num = 0, s2 = 0, mean = 0;
    const float* r = d.row(0);
    for (std::int64_t j = 0; j < d.cols; ++j) mean += double(r[j]) * r[j];
    mean /= double(d.cols);
    for (std::int64_t j = 0; j + 1 < d.cols; ++j) num += (double(r[j]) * r[j] - mean) * (double(r[j + 1]) * r[j + 1] - mean);
    for (std::int64_t j = 0; j < d.cols; ++j) s2 += (double(r[j]) * r[j] - mean) * (double(r[j]) * r[j] - mean);
    CHECK(num / s2 > 0.05);

    const Dataset easier = makeDemo("market:assets=60,sectors=6,days=2001,corr_market=0.2,corr_sector=0.7,scale_days=0");
    const auto [sameEasier, otherEasier] = meanCorrelations(easier);
    CHECK(std::fabs(otherEasier - 0.2) < 0.05);
    CHECK(std::fabs(sameEasier - 0.7) < 0.05);

    const Dataset noise = makeDemo("market:assets=60,sectors=6,days=2001,corr_market=0,corr_sector=0,scale_days=0");
    const auto [sameNoise, otherNoise] = meanCorrelations(noise);
    CHECK(std::fabs(sameNoise) < 0.02);
    CHECK(std::fabs(otherNoise) < 0.02);

    CHECK_THROWS_AS(makeDemo("market:corr_market=0.5,corr_sector=0.4"), UsageError);
}

TEST_CASE("marketWindowAndKeys")
{
    const Dataset d = makeDemo("market:assets=30,sectors=3,days=100,seed=11,window=20");
    REQUIRE_EQ(d.rows, std::int64_t{30});
    REQUIRE_EQ(d.cols, std::int64_t{20});
    REQUIRE_EQ(d.rowNames[4], std::string("S01_A004"));
    REQUIRE(!d.notes.empty());
}

TEST_CASE("blobsShape")
{
    const Dataset d = makeDemo("blobs");
    REQUIRE_EQ(toString(d.layout), toString(Layout::Matrix));
    REQUIRE_EQ(d.rows, std::int64_t{10000});
    REQUIRE_EQ(d.cols, std::int64_t{16});
    REQUIRE_EQ(d.values.size(), std::size_t{160000});
    REQUIRE(d.rowNames.empty());
    REQUIRE_EQ(d.truth.size(), std::size_t{10000});
    std::set<int> labels(d.truth.begin(), d.truth.end());
    REQUIRE_EQ(labels.size(), std::size_t{8});
    REQUIRE_EQ(*labels.begin(), 0);
    REQUIRE_EQ(*labels.rbegin(), 7);
    for (float v : d.values) REQUIRE(std::isfinite(v));
    REQUIRE(nearestMeanAccuracy(d, 8) > 0.999);
    REQUIRE_EQ(d.source, std::string("blobs:n=10000,d=16,k=8,seed=7,spread=1,overlap=0"));
}

TEST_CASE("blobsLowDimensionStillSeparate")
{
    const Dataset d = makeDemo("blobs:n=20000,d=2,k=64,spread=0.5");
    REQUIRE(nearestMeanAccuracy(d, 64) > 0.99);
}

// overlap keeps the centres and widens the blobs: the share of points nearer another
// blob's mean than their own grows from none to many, and 0 is the default's bits.
TEST_CASE("blobsOverlapMixesTheBlobs")
{
    REQUIRE_EQ(makeDemo("blobs:n=5000,d=4,k=6,overlap=0").contentHash(), makeDemo("blobs:n=5000,d=4,k=6").contentHash());
    REQUIRE(nearestMeanAccuracy(makeDemo("blobs:n=5000,d=4,k=6,overlap=0"), 6) > 0.999);
    const double touching = nearestMeanAccuracy(makeDemo("blobs:n=5000,d=4,k=6,overlap=0.5"), 6);
    const double mixed = nearestMeanAccuracy(makeDemo("blobs:n=5000,d=4,k=6,overlap=0.85"), 6);
    REQUIRE(touching < 0.9999);
    REQUIRE(mixed < 0.9);
    REQUIRE(mixed < touching);
    REQUIRE_THROWS_AS(makeDemo("blobs:overlap=1"), UsageError);
}

namespace {

struct DeterminismRow {
    std::string tag;
    std::string spec;
};

std::vector<DeterminismRow> determinismRows()
{
    std::vector<DeterminismRow> rows;
    rows.push_back({"market", "market:assets=50,sectors=5,days=120"});
    rows.push_back({"blobs", "blobs:n=5000,d=7,k=5"});
    return rows;
}

}  // namespace

TEST_CASE("determinism")
{
    for (const DeterminismRow& row : determinismRows()) {
        SUBCASE(row.tag.c_str())
        {
            const std::string& spec = row.spec;
            const std::string s = spec;
            const Dataset a = makeDemo(s);
            const Dataset b = makeDemo(s);
            REQUIRE_EQ(a.contentHash(), b.contentHash());
            REQUIRE_EQ(a.values, b.values);
            REQUIRE_EQ(a.truth, b.truth);
            const Dataset c = makeDemo(s + ",seed=8");
            REQUIRE(a.contentHash() != c.contentHash());
        }
    }
}

TEST_CASE("blobsIndependentOfThreadCount")
{
    const int before = omp_get_max_threads();
    omp_set_num_threads(1);
    const std::string one = makeDemo("blobs:n=30000,d=5,k=3").contentHash();
    omp_set_num_threads(3);
    const std::string three = makeDemo("blobs:n=30000,d=5,k=3").contentHash();
    omp_set_num_threads(before);
    REQUIRE_EQ(one, three);
}

namespace {

struct BlobsArePinnedRow {
    std::string tag;
    std::string spec;
    std::string hash;
};

std::vector<BlobsArePinnedRow> blobsArePinnedRows()
{
    std::vector<BlobsArePinnedRow> rows;
    rows.push_back({"default", "blobs", "59cf08848e1179b3f700ceb228d8a2927e8d9e77d28d8bdeb3b68756033ac493"});
    rows.push_back({"2-D, k = n", "blobs:n=2000,d=2,k=2000", "5ac807deae3eef40a8f3aaa9c0a5cda08f0285285642ae15ba93f5a985a8489f"});
    rows.push_back({"1-D", "blobs:n=3000,d=1,k=500", "8b1140b036fbce82eaa52e5b6f647f7f86de5b6e1b656de1c547285853d56c85"});
    rows.push_back({"40-D", "blobs:n=500,d=40,k=50", "d5828d18249170403d49e7b2a56211dbed8e4968c11d85e79e24ad74c08eac19"});
    return rows;
}

}  // namespace

// Recorded runs name demos by spec and check them by content hash: the same spec
// must give the same bits release after release (these predate the grid placement).
TEST_CASE("blobsArePinned")
{
    for (const BlobsArePinnedRow& row : blobsArePinnedRows()) {
        SUBCASE(row.tag.c_str())
        {
            const std::string& spec = row.spec;
            const std::string& hash = row.hash;
            REQUIRE_EQ(makeDemo(spec).contentHash(), hash);
        }
    }
}

// Placing k centres looks only at the centres near each candidate: the distances
// computed grow like k (a scan over all placed centres needed about k^2/2 = 5e9
// here), and every pair of centres is still at least 8 spreads apart.
TEST_CASE("blobCentrePlacementIsLinearInK")
{
    const std::int64_t k = 100000;
    const data::BlobCentres centres = data::placeBlobCentres(7, k, 2, 1.0);
    REQUIRE_MESSAGE(centres.distanceChecks < 20 * k, std::string(std::to_string(centres.distanceChecks)).c_str());
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
    REQUIRE_MESSAGE(closest2 >= 64.0, std::string(std::to_string(std::sqrt(closest2))).c_str());
    REQUIRE_EQ(makeDemo("blobs:n=100000,d=2,k=100000").rows, k);
}

// Generated straight into the matrix: no slack, no second copy.
TEST_CASE("blobsLargeHasNoSpareMemory")
{
    const Dataset d = makeDemo("blobs:n=1000000,d=32,k=64");
    REQUIRE_EQ(d.values.size(), std::size_t{32000000});
    REQUIRE_EQ(d.values.capacity(), d.values.size());
}

namespace {

struct BadSpecsRow {
    std::string tag;
    std::string spec;
    std::string fragment;
};

std::vector<BadSpecsRow> badSpecsRows()
{
    std::vector<BadSpecsRow> rows;
    rows.push_back({"unknown demo", "nope", "unknown demo 'nope'"});
    rows.push_back({"empty", "", "no name"});
    rows.push_back({"unknown key", "market:foo=1", "unknown key 'foo'"});
    rows.push_back({"not an integer", "market:assets=abc", "assets=abc"});
    rows.push_back({"fraction for integer", "blobs:n=1.5", "n=1.5"});
    rows.push_back({"no value", "blobs:n=", "needs both"});
    rows.push_back({"no equals", "blobs:n", "not key=value"});
    rows.push_back({"empty item", "blobs:n=5,,d=2", "empty item"});
    rows.push_back({"k zero", "blobs:k=0", "k=0"});
    rows.push_back({"k above n", "blobs:n=5,k=6", "k=6"});
    rows.push_back({"negative spread", "blobs:spread=-1", "spread=-1"});
    rows.push_back({"nan spread", "blobs:spread=nan", "spread=nan"});
    rows.push_back({"window too long", "market:days=50,window=50", "window=50"});
    rows.push_back({"sectors above assets", "market:assets=5,sectors=6", "sectors=6"});
    rows.push_back({"repeated key", "market:assets=5,assets=6", "given twice"});
    rows.push_back({"negative seed", "market:seed=-1", "seed=-1"});
    rows.push_back({"too big", "blobs:n=2000000000,d=100", "too large"});
    return rows;
}

}  // namespace

TEST_CASE("badSpecs")
{
    for (const BadSpecsRow& row : badSpecsRows()) {
        SUBCASE(row.tag.c_str())
        {
            const std::string& spec = row.spec;
            const std::string& fragment = row.fragment;
            try {
                makeDemo(spec);
                FAIL("expected a UsageError");
            } catch (const UsageError& e) {
                REQUIRE_MESSAGE(std::string(e.what()).find(fragment) != std::string::npos, e.what());
            }
        }
    }
}
