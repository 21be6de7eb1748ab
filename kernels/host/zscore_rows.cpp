// Compiled with the kernels' -ffp-contract=off: the variance loop (var += t * t) must not
// be fused, or the z-scored rows, and so every content hash of prices data, would change.
#include "kernels/zscore_rows.h"

#include <thrust/for_each.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/system/omp/execution_policy.h>

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

namespace clusterdesk::kernels {
namespace {

// Z-scores row i in place: mean and population variance in double, in index order.
struct ZscoreRow {
    float* x;
    std::int64_t d;

    void operator()(std::int64_t i) const
    {
        float* xi = x + i * d;
        double mean = 0.0;
        for (std::int64_t j = 0; j < d; ++j) mean += xi[j];
        mean /= static_cast<double>(d);
        double var = 0.0;
        for (std::int64_t j = 0; j < d; ++j) {
            const double t = xi[j] - mean;
            var += t * t;
        }
        var /= static_cast<double>(d);
        const double inv = var > 0.0 ? 1.0 / std::sqrt(var) : 0.0;
        for (std::int64_t j = 0; j < d; ++j) xi[j] = static_cast<float>((xi[j] - mean) * inv);
    }
};

// Scales row i's columns by factor.
struct ScaleRow {
    float* x;
    std::int64_t d;
    const double* factor;

    void operator()(std::int64_t i) const
    {
        float* xi = x + i * d;
        for (std::int64_t j = 0; j < d; ++j) xi[j] = static_cast<float>(xi[j] * factor[j]);
    }
};

void checkShape(const char* what, std::span<const float> rows, std::int64_t cols)
{
    if (cols <= 0) throw std::invalid_argument(std::string(what) + ": cols must be positive (cols=" + std::to_string(cols) + ")");
    if (static_cast<std::int64_t>(rows.size()) % cols != 0)
        throw std::invalid_argument(std::string(what) + ": " + std::to_string(rows.size()) + " values are not whole rows of " +
                                    std::to_string(cols) + " columns");
}

}  // namespace

void zscoreRows(std::span<float> rows, std::int64_t cols)
{
    checkShape("zscoreRows", rows, cols);
    thrust::for_each(thrust::omp::par, thrust::counting_iterator<std::int64_t>(0),
                     thrust::counting_iterator<std::int64_t>(static_cast<std::int64_t>(rows.size()) / cols),
                     ZscoreRow{rows.data(), cols});
}

void scaleColumnsToUnitRms(std::span<float> rows, std::int64_t cols)
{
    checkShape("scaleColumnsToUnitRms", rows, cols);
    const std::int64_t n = static_cast<std::int64_t>(rows.size()) / cols;
    if (n < 2) return;
    const auto columns = static_cast<std::size_t>(cols);
    std::vector<double> squares(columns, 0.0);
    for (std::int64_t i = 0; i < n; ++i) {
        const float* xi = rows.data() + i * cols;
        for (std::size_t j = 0; j < columns; ++j) squares[j] += static_cast<double>(xi[j]) * xi[j];
    }
    std::vector<double> factor(columns);
    for (std::size_t j = 0; j < columns; ++j) {
        const double rms = std::sqrt(squares[j] / static_cast<double>(n));
        factor[j] = rms > 0.0 ? 1.0 / rms : 0.0;
    }
    thrust::for_each(thrust::omp::par, thrust::counting_iterator<std::int64_t>(0), thrust::counting_iterator<std::int64_t>(n),
                     ScaleRow{rows.data(), cols, factor.data()});
}

}  // namespace clusterdesk::kernels
