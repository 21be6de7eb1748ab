// AdaptGrow's split criterion: the noise edge it subtracts, its degenerate cases, and
// that a 2-means split of pure noise does not clear it while two real groups do.
#include "engine/cluster/split_criterion.h"

#include "doctest_support.h"

#include <cmath>
#include <random>
#include <vector>

using namespace clusterdesk;

namespace {

// Noise of d equal columns, bulk unknown: the cluster's own variance is its noise.
NoiseModel equalColumns(double dims)
{
    NoiseModel noise;
    noise.effectiveDims = dims;
    return noise;
}

}  // namespace

TEST_CASE("edgeIsTheMarchenkoPasturShare")
{
    const NoiseModel noise = equalColumns(400);
    // 101 rows, 400 dims: (1/sqrt(100) + 1/sqrt(400))^2 = (0.1 + 0.05)^2 = 0.0225.
    CHECK(noiseEdgeShare(noise, 101, 400, 1000.0) == doctest::Approx(0.0225).epsilon(1e-12));
    // Johnstone's fluctuation scale: (10 + 20) (0.1 + 0.05)^(1/3) / (100 x 400) of the
    // sum of squares; the bar adds its Tracy-Widom 95th percentile and the floor.
    const double fluctuation = 30.0 * std::cbrt(0.15) / 40000.0;
    CHECK(noiseFluctuationShare(noise, 101, 400, 1000.0) == doctest::Approx(fluctuation).epsilon(1e-12));
    CHECK(splitThresholdShare(noise, 101, 400, 1000.0) == doctest::Approx(0.0225 + 0.9793 * fluctuation + 0.02).epsilon(1e-12));
    // It matters for small clusters only: five rows, 2000 columns, about 0.005 (0.0004 for 101 rows).
    CHECK(noiseFluctuationShare(equalColumns(2000), 5, 2000, 1.0) > 0.004);
    CHECK(noiseFluctuationShare(equalColumns(2000), 101, 2000, 1.0) < 0.0005);
    CHECK(explainedShare(1000.0, 100.0) == doctest::Approx(0.1));
    // Fewer effective columns (volatility clustering), a higher edge.
    CHECK(noiseEdgeShare(equalColumns(100), 101, 400, 1000.0) > noiseEdgeShare(noise, 101, 400, 1000.0));
    // A bulk noise below the cluster's own variance (the cluster holds structure) lowers
    // the edge by their ratio; one above it changes nothing.
    NoiseModel quiet = noise;
    quiet.bulkVariance = 0.5 * 1000.0 / (100.0 * 400.0);
    CHECK(noiseEdgeShare(quiet, 101, 400, 1000.0) == doctest::Approx(0.5 * 0.0225).epsilon(1e-12));
    CHECK(noiseFluctuationShare(quiet, 101, 400, 1000.0) == doctest::Approx(0.5 * fluctuation).epsilon(1e-12));
    quiet.bulkVariance = 2.0 * 1000.0 / (100.0 * 400.0);
    CHECK(noiseEdgeShare(quiet, 101, 400, 1000.0) == doctest::Approx(0.0225).epsilon(1e-12));
    // The bar hardly moves with the window once the window is long: it tends to 1/(rows - 1).
    CHECK(splitThresholdShare(equalColumns(250), 50, 250, 1.0) > splitThresholdShare(equalColumns(2000), 50, 2000, 1.0));
    CHECK(splitThresholdShare(equalColumns(250), 50, 250, 1.0) - splitThresholdShare(equalColumns(2000), 50, 2000, 1.0) < 0.04);
    // Hysteresis: a split just kept is never merged back.
    const NoiseModel n250 = equalColumns(250);
    CHECK(splitIsStructure(splitBars(n250, 50, 250, 1.0), splitThresholdShare(n250, 50, 250, 1.0) + 1e-9, noiseEdgeShare(n250, 50, 250, 1.0) + 1e-9));
    CHECK_FALSE(mergeIsNoise(n250, 50, 250, 1.0, noiseEdgeShare(n250, 50, 250, 1.0) + 1e-9));
    // A strong axis whose 2-means split is still noise apart is not split (it would merge back).
    CHECK_FALSE(splitIsStructure(splitBars(n250, 50, 250, 1.0), 0.9, noiseEdgeShare(n250, 50, 250, 1.0)));
}

TEST_CASE("degenerateCasesNeverPass")
{
    CHECK(std::isinf(noiseEdgeShare(equalColumns(10), 1, 10, 1.0)));
    CHECK(std::isinf(noiseEdgeShare(equalColumns(0.5), 10, 10, 1.0)));
    CHECK_FALSE(splitIsStructure(splitBars(equalColumns(10), 1, 10, 1.0), 0.9, 0.9));
    CHECK(std::isnan(explainedShare(0.0, 0.0)));
    CHECK(std::isnan(explainedShare(1.0, NAN)));
    CHECK_FALSE(splitIsStructure(splitBars(equalColumns(10), 10, 10, 0.0), explainedShare(0.0, 0.0), explainedShare(0.0, 0.0)));
}

namespace {

// Sum of squares of rows [begin, end) of x (dims columns) around their mean.
double sumOfSquares(const std::vector<double>& x, int begin, int end, int dims)
{
    std::vector<double> mean(dims, 0.0);
    for (int i = begin; i < end; ++i)
        for (int j = 0; j < dims; ++j) mean[j] += x[i * dims + j] / (end - begin);
    double ss = 0;
    for (int i = begin; i < end; ++i)
        for (int j = 0; j < dims; ++j) ss += (x[i * dims + j] - mean[j]) * (x[i * dims + j] - mean[j]);
    return ss;
}

// Lloyd's 2-means from a split on the first coordinate's sign, as AdaptGrow seeds along
// an axis: the gain of the split it converges to.
double twoMeansGain(const std::vector<double>& x, int rows, int dims)
{
    std::vector<int> side(rows);
    for (int i = 0; i < rows; ++i) side[i] = x[i * dims] > 0 ? 1 : 0;
    double gain = 0;
    for (int step = 0; step < 20; ++step) {
        std::vector<double> c[2] = {std::vector<double>(dims, 0.0), std::vector<double>(dims, 0.0)};
        int n[2] = {0, 0};
        for (int i = 0; i < rows; ++i) {
            ++n[side[i]];
            for (int j = 0; j < dims; ++j) c[side[i]][j] += x[i * dims + j];
        }
        if (n[0] == 0 || n[1] == 0) break;
        for (int s = 0; s < 2; ++s)
            for (int j = 0; j < dims; ++j) c[s][j] /= n[s];
        double d2 = 0;
        for (int j = 0; j < dims; ++j) d2 += (c[0][j] - c[1][j]) * (c[0][j] - c[1][j]);
        gain = double(n[0]) * n[1] / rows * d2;
        for (int i = 0; i < rows; ++i) {
            double e[2] = {0, 0};
            for (int s = 0; s < 2; ++s)
                for (int j = 0; j < dims; ++j) e[s] += (x[i * dims + j] - c[s][j]) * (x[i * dims + j] - c[s][j]);
            side[i] = e[1] < e[0] ? 1 : 0;
        }
    }
    return gain;
}

}  // namespace

TEST_CASE("noiseStaysBelowTheEdgeAndGroupsClearIt")
{
    std::mt19937_64 rng(11);
    std::normal_distribution<double> normal;
    struct Case {
        int rows;
        int dims;
        double shift;  // the two groups' means are 2 shift noise sd apart in every dimension
    };
    for (const Case& c : {Case{10, 250, 0.5}, Case{40, 2000, 0.4}, Case{400, 20, 1.0}, Case{2000, 2, 1.5}}) {
        const int rows = c.rows, dims = c.dims;
        CAPTURE(rows);
        CAPTURE(dims);
        std::vector<double> x(static_cast<std::size_t>(rows) * dims);
        for (double& v : x) v = normal(rng);
        const double noiseSS = sumOfSquares(x, 0, rows, dims);
        const double noiseShare = explainedShare(noiseSS, twoMeansGain(x, rows, dims));
        CHECK_FALSE(splitIsStructure(splitBars(equalColumns(dims), rows, dims, noiseSS), noiseShare, noiseShare));
        CHECK(mergeIsNoise(equalColumns(dims), rows, dims, noiseSS, noiseShare));
        // The planted split of two groups, as the split test would score it.
        for (int i = 0; i < rows; ++i)
            for (int j = 0; j < dims; ++j) x[i * dims + j] += (i < rows / 2 ? c.shift : -c.shift);
        const double ss = sumOfSquares(x, 0, rows, dims);
        const double gain = ss - sumOfSquares(x, 0, rows / 2, dims) - sumOfSquares(x, rows / 2, rows, dims);
        CHECK(splitIsStructure(splitBars(equalColumns(dims), rows, dims, ss), explainedShare(ss, gain), explainedShare(ss, gain)));
    }
}
