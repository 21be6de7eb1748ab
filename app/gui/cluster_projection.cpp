#include "cluster_projection.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace clusterdesk::gui {
namespace {

// Sampled values kept for the principal components at most (rows x cols), so a very
// wide file costs bounded memory and time.
constexpr std::size_t kMaxSampleValues = 4'000'000;

// Leading eigenvector of S^T S (S: n x d, centred sample, row-major) by power iteration,
// orthogonal to `against` when given; never forms the d x d matrix. Deterministic start,
// so the same data gives the same picture.
std::vector<double> principalAxis(const std::vector<double>& s, std::size_t n, std::size_t d,
                                  const std::vector<double>* against, double* eigenvalue)
{
    std::vector<double> v(d), next(d), w(n);
    for (std::size_t j = 0; j < d; ++j) v[j] = 1.0 + 0.01 * static_cast<double>(j % 7);
    auto orthogonalise = [&](std::vector<double>& x) {
        if (!against) return;
        const double dot = std::inner_product(x.begin(), x.end(), against->begin(), 0.0);
        for (std::size_t j = 0; j < d; ++j) x[j] -= dot * (*against)[j];
    };
    *eigenvalue = 0;
    for (int iter = 0; iter < 100; ++iter) {
        orthogonalise(v);
        for (std::size_t i = 0; i < n; ++i) w[i] = std::inner_product(v.begin(), v.end(), s.begin() + static_cast<std::ptrdiff_t>(i * d), 0.0);
        std::fill(next.begin(), next.end(), 0.0);
        for (std::size_t i = 0; i < n; ++i)
            for (std::size_t j = 0; j < d; ++j) next[j] += s[i * d + j] * w[i];
        orthogonalise(next);
        const double norm = std::sqrt(std::inner_product(next.begin(), next.end(), next.begin(), 0.0));
        if (!(norm > 0)) break;
        const double vNorm = std::sqrt(std::inner_product(v.begin(), v.end(), v.begin(), 0.0));
        *eigenvalue = norm / vNorm;
        double change = 0;
        for (std::size_t j = 0; j < d; ++j) {
            next[j] /= norm;
            change = std::max(change, std::fabs(next[j] - v[j] / vNorm));
        }
        v.swap(next);
        if (change < 1e-7) break;
    }
    const double vNorm = std::sqrt(std::inner_product(v.begin(), v.end(), v.begin(), 0.0));
    if (vNorm > 0)
        for (double& x : v) x /= vNorm;
    return v;
}

}  // namespace

ui::ClusterProjection projectClusters(const Dataset& data, const ClusterResult& result, std::size_t maxPoints)
{
    ui::ClusterProjection p;
    p.totalRows = data.rows;
    const auto rows = static_cast<std::size_t>(data.rows);
    const auto d = static_cast<std::size_t>(data.cols);
    if (rows == 0 || d == 0 || result.labels.size() != rows) return p;
    maxPoints = std::max<std::size_t>(1, std::min(maxPoints, kMaxSampleValues / d));
    const std::size_t stride = std::max<std::size_t>(1, (rows + maxPoints - 1) / maxPoints);
    std::vector<std::size_t> sample;
    for (std::size_t r = 0; r < rows; r += stride) sample.push_back(r);
    const std::size_t n = sample.size();

    std::vector<double> mean(d, 0.0);
    for (std::size_t r : sample)
        for (std::size_t j = 0; j < d; ++j) mean[j] += data.row(static_cast<std::int64_t>(r))[j];
    for (double& m : mean) m /= static_cast<double>(n);
    std::vector<double> centred(n * d);
    double trace = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const float* x = data.row(static_cast<std::int64_t>(sample[i]));
        for (std::size_t j = 0; j < d; ++j) {
            centred[i * d + j] = x[j] - mean[j];
            trace += centred[i * d + j] * centred[i * d + j];
        }
    }
    double l1 = 0, l2 = 0;
    const std::vector<double> pc1 = principalAxis(centred, n, d, nullptr, &l1);
    const std::vector<double> pc2 = principalAxis(centred, n, d, &pc1, &l2);
    if (trace > 0) {
        p.explained[0] = l1 / trace;
        p.explained[1] = l2 / trace;
    }

    auto project = [&](const float* x, double* a, double* b) {
        double s1 = 0, s2 = 0;
        for (std::size_t j = 0; j < d; ++j) {
            const double c = x[j] - mean[j];
            s1 += c * pc1[j];
            s2 += c * pc2[j];
        }
        *a = s1;
        *b = s2;
    };
    p.x.resize(n);
    p.y.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        const std::size_t r = sample[i];
        project(data.row(static_cast<std::int64_t>(r)), &p.x[i], &p.y[i]);
        p.cluster.push_back(result.labels[r]);
        p.row.push_back(static_cast<std::int64_t>(r));
        if (r < data.rowNames.size()) p.names << QString::fromStdString(data.rowNames[r]);
    }
    p.clusterRows.assign(static_cast<std::size_t>(std::max(result.k, 0)), 0);
    for (const std::int32_t label : result.labels)
        if (label >= 0 && label < result.k) ++p.clusterRows[static_cast<std::size_t>(label)];
    for (int c = 0; c < result.k; ++c) {
        double a = 0, b = 0;
        project(result.centroids.data() + static_cast<std::size_t>(c) * d, &a, &b);
        p.centroidX.push_back(a);
        p.centroidY.push_back(b);
    }
    return p;
}

}  // namespace clusterdesk::gui
