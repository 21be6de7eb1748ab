// Householder tridiagonalisation and implicit QL; see symmetric_eigenvalues.h.
#include "engine/cluster/symmetric_eigenvalues.h"

#include "engine/core/error.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <string>

namespace clusterdesk {

std::vector<double> symmetricEigenvalues(std::vector<double> a, std::int64_t n)
{
    if (n < 0 || static_cast<std::int64_t>(a.size()) != n * n)
        throw UsageError("symmetricEigenvalues: need an n x n matrix (n=" + std::to_string(n) +
                         ", values=" + std::to_string(a.size()) + ")");
    if (n == 0) return {};
    const auto at = [&a, n](std::int64_t i, std::int64_t j) -> double& { return a[static_cast<std::size_t>(i * n + j)]; };
    std::vector<double> d(static_cast<std::size_t>(n)), e(static_cast<std::size_t>(n), 0.0);

    // Householder: a becomes tridiagonal with diagonal d and sub-diagonal e.
    for (std::int64_t i = n - 1; i > 0; --i) {
        const std::int64_t l = i - 1;
        double h = 0.0;
        if (l > 0) {
            double scale = 0.0;
            for (std::int64_t k = 0; k <= l; ++k) scale += std::fabs(at(i, k));
            if (scale == 0.0) {
                e[i] = at(i, l);
            } else {
                for (std::int64_t k = 0; k <= l; ++k) {
                    at(i, k) /= scale;
                    h += at(i, k) * at(i, k);
                }
                double f = at(i, l);
                double g = f >= 0.0 ? -std::sqrt(h) : std::sqrt(h);
                e[i] = scale * g;
                h -= f * g;
                at(i, l) = f - g;
                f = 0.0;
                for (std::int64_t j = 0; j <= l; ++j) {
                    g = 0.0;
                    for (std::int64_t k = 0; k <= j; ++k) g += at(j, k) * at(i, k);
                    for (std::int64_t k = j + 1; k <= l; ++k) g += at(k, j) * at(i, k);
                    e[j] = g / h;
                    f += e[j] * at(i, j);
                }
                const double hh = f / (h + h);
                for (std::int64_t j = 0; j <= l; ++j) {
                    f = at(i, j);
                    e[j] = g = e[j] - hh * f;
                    for (std::int64_t k = 0; k <= j; ++k) at(j, k) -= f * e[k] + g * at(i, k);
                }
            }
        } else {
            e[i] = at(i, l);
        }
    }
    for (std::int64_t i = 0; i < n; ++i) d[i] = at(i, i);

    // Implicit QL with Wilkinson shifts on the tridiagonal matrix.
    for (std::int64_t i = 1; i < n; ++i) e[i - 1] = e[i];
    e[n - 1] = 0.0;
    for (std::int64_t l = 0; l < n; ++l) {
        int iterations = 0;
        std::int64_t m = l;
        do {
            for (m = l; m < n - 1; ++m) {
                const double dd = std::fabs(d[m]) + std::fabs(d[m + 1]);
                if (std::fabs(e[m]) <= std::numeric_limits<double>::epsilon() * dd) break;
            }
            if (m == l) break;
            if (++iterations > 60) throw Error("symmetricEigenvalues: QL did not converge (n=" + std::to_string(n) + ")");
            double g = (d[l + 1] - d[l]) / (2.0 * e[l]);
            double r = std::hypot(g, 1.0);
            g = d[m] - d[l] + e[l] / (g + std::copysign(r, g));
            double s = 1.0, c = 1.0, p = 0.0;
            std::int64_t i = m - 1;
            bool underflow = false;
            for (; i >= l; --i) {
                double f = s * e[i];
                const double b = c * e[i];
                e[i + 1] = (r = std::hypot(f, g));
                if (r == 0.0) {
                    d[i + 1] -= p;
                    e[m] = 0.0;
                    underflow = true;
                    break;
                }
                s = f / r;
                c = g / r;
                g = d[i + 1] - p;
                r = (d[i] - g) * s + 2.0 * c * b;
                d[i + 1] = g + (p = s * r);
                g = c * r - b;
            }
            if (underflow) continue;
            d[l] -= p;
            e[l] = g;
            e[m] = 0.0;
        } while (true);
    }
    std::sort(d.begin(), d.end(), std::greater<>());
    return d;
}

}  // namespace clusterdesk
