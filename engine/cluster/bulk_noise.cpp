// Noise level of the spectrum's bulk; see bulk_noise.h.
#include "engine/cluster/bulk_noise.h"

#include "engine/cluster/symmetric_eigenvalues.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace clusterdesk {

double bulkNoiseVariance(const float* x, std::int64_t rows, std::int64_t cols, double effectiveDims)
{
    const double unknown = std::numeric_limits<double>::quiet_NaN();
    const std::int64_t rank = std::min(rows - 1, cols);  // of the centred matrix
    if (rows < 3 || cols < 1 || rank > kMaxBulkSpectrum) return unknown;
    if (static_cast<double>(rows) * static_cast<double>(cols) * static_cast<double>(std::min(rows, cols)) > kMaxBulkWork)
        return unknown;
    const auto n = static_cast<std::size_t>(rows), d = static_cast<std::size_t>(cols);

    std::vector<double> centred(n * d);
    for (std::size_t j = 0; j < d; ++j) {
        double mean = 0.0;
        for (std::size_t i = 0; i < n; ++i) mean += x[i * d + j];
        mean /= static_cast<double>(n);
        for (std::size_t i = 0; i < n; ++i) centred[i * d + j] = x[i * d + j] - mean;
    }
    // The smaller Gram matrix: rows x rows (X X^T) or cols x cols (X^T X); same non-zero spectrum.
    const bool byRows = rows <= cols;
    const std::size_t m = byRows ? n : d;
    std::vector<double> gram(m * m);
    for (std::size_t a = 0; a < m; ++a)
        for (std::size_t b = 0; b <= a; ++b) {
            double sum = 0.0;
            if (byRows)
                for (std::size_t j = 0; j < d; ++j) sum += centred[a * d + j] * centred[b * d + j];
            else
                for (std::size_t i = 0; i < n; ++i) sum += centred[i * d + a] * centred[i * d + b];
            gram[a * m + b] = gram[b * m + a] = sum;
        }
    const std::vector<double> eigen = symmetricEigenvalues(std::move(gram), static_cast<std::int64_t>(m));

    // Noise eigenvalues of n - 1 centred rows in d columns of variance sigma^2 spread up
    // to sigma^2 d (1 + sqrt((n - 1) / d_eff))^2 and sum to sigma^2 (n - 1) d.
    const double edgeFactor = static_cast<double>(cols) *
                              std::pow(1.0 + std::sqrt(static_cast<double>(rows - 1) / effectiveDims), 2.0);
    const double perEigenvalue = static_cast<double>(std::max(rows - 1, cols));  // sigma^2 times this on average
    std::int64_t signal = 0;
    double sigma2 = 0.0;
    for (int pass = 0; pass < 50; ++pass) {
        double bulk = 0.0;
        for (std::int64_t i = signal; i < rank; ++i) bulk += std::max(0.0, eigen[static_cast<std::size_t>(i)]);
        sigma2 = bulk / (static_cast<double>(rank - signal) * perEigenvalue);
        std::int64_t above = 0;
        while (above < rank && eigen[static_cast<std::size_t>(above)] > sigma2 * edgeFactor) ++above;
        if (above == signal) break;
        signal = above;
        if (2 * signal > rank) return unknown;
    }
    return sigma2 > 0.0 ? sigma2 : unknown;
}

}  // namespace clusterdesk
