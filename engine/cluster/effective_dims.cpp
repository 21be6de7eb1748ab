// Effective number of dimensions; see effective_dims.h.
#include "engine/cluster/effective_dims.h"

#include <algorithm>
#include <vector>

namespace clusterdesk {

double effectiveDimensions(const float* x, std::int64_t rows, std::int64_t cols)
{
    if (rows < 2 || cols < 1) return static_cast<double>(std::max<std::int64_t>(cols, 1));
    const auto d = static_cast<std::size_t>(cols);
    std::vector<double> mean(d, 0.0), variance(d, 0.0);
    for (std::int64_t i = 0; i < rows; ++i)
        for (std::size_t j = 0; j < d; ++j) mean[j] += x[static_cast<std::size_t>(i) * d + j];
    for (double& m : mean) m /= static_cast<double>(rows);
    for (std::int64_t i = 0; i < rows; ++i)
        for (std::size_t j = 0; j < d; ++j) {
            const double t = x[static_cast<std::size_t>(i) * d + j] - mean[j];
            variance[j] += t * t;
        }
    double sum = 0.0, sumSquares = 0.0;
    for (double v : variance) {
        sum += v;
        sumSquares += v * v;
    }
    if (!(sumSquares > 0.0)) return static_cast<double>(cols);
    return std::max(1.0, sum * sum / sumSquares);
}

}  // namespace clusterdesk
