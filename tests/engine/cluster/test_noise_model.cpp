// What AdaptGrow measures noise with: the eigenvalues it reads the spectrum's bulk
// from, the bulk noise variance, and the effective number of columns.
#include "engine/cluster/bulk_noise.h"
#include "engine/cluster/effective_dims.h"
#include "engine/cluster/symmetric_eigenvalues.h"
#include "engine/core/error.h"

#include "doctest_support.h"

#include <cmath>
#include <numbers>
#include <random>
#include <vector>

using namespace clusterdesk;

TEST_CASE("eigenvaluesOfKnownSpectra")
{
    // The path graph's Laplacian-like tridiagonal (2 on the diagonal, -1 beside it):
    // eigenvalues 2 - 2 cos(k pi / (n + 1)).
    const int n = 40;
    std::vector<double> a(n * n, 0.0);
    for (int i = 0; i < n; ++i) {
        a[i * n + i] = 2.0;
        if (i + 1 < n) a[i * n + i + 1] = a[(i + 1) * n + i] = -1.0;
    }
    const std::vector<double> eigen = symmetricEigenvalues(a, n);
    REQUIRE_EQ(eigen.size(), std::size_t(n));
    for (int k = 1; k <= n; ++k)
        CHECK(eigen[n - k] == doctest::Approx(2.0 - 2.0 * std::cos(k * std::numbers::pi / (n + 1))).epsilon(1e-10));

    // A dense random symmetric matrix keeps its trace and its Frobenius norm.
    std::mt19937_64 rng(5);
    std::normal_distribution<double> normal;
    const int m = 60;
    std::vector<double> b(m * m);
    for (int i = 0; i < m; ++i)
        for (int j = 0; j <= i; ++j) b[i * m + j] = b[j * m + i] = normal(rng);
    double trace = 0, frobenius = 0;
    for (int i = 0; i < m; ++i) trace += b[i * m + i];
    for (double v : b) frobenius += v * v;
    double sum = 0, squares = 0;
    for (double l : symmetricEigenvalues(b, m)) sum += l, squares += l * l;
    CHECK(sum == doctest::Approx(trace).epsilon(1e-10));
    CHECK(squares == doctest::Approx(frobenius).epsilon(1e-10));

    CHECK(symmetricEigenvalues({}, 0).empty());
    CHECK_THROWS_AS(symmetricEigenvalues({1.0, 2.0}, 2), UsageError);
}

TEST_CASE("bulkNoiseOfFactorData")
{
    // 200 rows x 300 columns: noise of variance 0.5 plus 5 strong factors. The bulk is
    // the noise; the factors sit above the edge and are left out.
    std::mt19937_64 rng(8);
    std::normal_distribution<double> normal;
    const int rows = 200, cols = 300, factors = 5;
    std::vector<double> f(factors * cols);
    for (double& v : f) v = normal(rng);
    std::vector<float> x(rows * cols);
    for (int i = 0; i < rows; ++i)
        for (int j = 0; j < cols; ++j) x[i * cols + j] = static_cast<float>(std::sqrt(0.5) * normal(rng) + 1.5 * f[(i % factors) * cols + j]);
    const double dEff = effectiveDimensions(x.data(), rows, cols);
    CHECK(dEff > 0.5 * cols);
    CHECK(dEff <= cols);
    const double bulk = bulkNoiseVariance(x.data(), rows, cols, dEff);
    CHECK(bulk == doctest::Approx(0.5).epsilon(0.1));
    // The same bits again: single-threaded, fixed order.
    CHECK(bulkNoiseVariance(x.data(), rows, cols, dEff) == bulk);

    // Not estimated: too few rows, or a spectrum too large to decompose on one thread.
    CHECK(std::isnan(bulkNoiseVariance(x.data(), 2, cols, dEff)));
    CHECK(std::isnan(bulkNoiseVariance(nullptr, kMaxBulkSpectrum + 2, kMaxBulkSpectrum + 1, 10.0)));
}

TEST_CASE("effectiveDimensionsCountUnequalColumns")
{
    // Two columns of variance 1 and two of variance 9: (1+1+9+9)^2 / (1+1+81+81) = 400/164.
    std::vector<float> x;
    for (int i = 0; i < 1000; ++i) {
        const float s = (i % 2) ? 1.f : -1.f;
        x.insert(x.end(), {s, -s, 3 * s, -3 * s});
    }
    CHECK(effectiveDimensions(x.data(), 1000, 4) == doctest::Approx(400.0 / 164.0).epsilon(1e-9));
    CHECK(effectiveDimensions(x.data(), 1, 4) == 4.0);
}
