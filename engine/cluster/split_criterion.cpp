// AdaptGrow's split criterion; see split_criterion.h for the derivation.
#include "engine/cluster/split_criterion.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace clusterdesk {

namespace {

// sigma^2 / sigma_hat^2: the bulk's variance over the cluster's own, at most 1 (1 when
// the bulk is unknown).
double noiseRatio(const NoiseModel& noise, std::int64_t rows, std::int64_t dims, double parentSS)
{
    if (std::isfinite(noise.bulkVariance) && parentSS > 0.0 && std::isfinite(parentSS))
        return std::min(1.0, noise.bulkVariance * static_cast<double>(rows - 1) * static_cast<double>(dims) / parentSS);
    return 1.0;
}

bool measurable(const NoiseModel& noise, std::int64_t rows, std::int64_t dims)
{
    return rows >= 2 && dims >= 1 && noise.effectiveDims >= 1.0;
}

}  // namespace

double noiseEdgeShare(const NoiseModel& noise, std::int64_t rows, std::int64_t dims, double parentSS)
{
    if (!measurable(noise, rows, dims)) return std::numeric_limits<double>::infinity();
    const double edge = 1.0 / std::sqrt(static_cast<double>(rows - 1)) + 1.0 / std::sqrt(noise.effectiveDims);
    return noiseRatio(noise, rows, dims, parentSS) * edge * edge;
}

double noiseFluctuationShare(const NoiseModel& noise, std::int64_t rows, std::int64_t dims, double parentSS)
{
    if (!measurable(noise, rows, dims)) return std::numeric_limits<double>::infinity();
    // Johnstone: sigma = (sqrt(n) + sqrt(p)) (1/sqrt(n) + 1/sqrt(p))^(1/3) in units of the
    // noise variance; over (n p) units, a share like the edge.
    const double a = std::sqrt(static_cast<double>(rows - 1));
    const double b = std::sqrt(noise.effectiveDims);
    return noiseRatio(noise, rows, dims, parentSS) * (a + b) * std::cbrt(1.0 / a + 1.0 / b) / (a * a * b * b);
}

double splitThresholdShare(const NoiseModel& noise, std::int64_t rows, std::int64_t dims, double parentSS)
{
    return noiseEdgeShare(noise, rows, dims, parentSS) + kTracyWidom95 * noiseFluctuationShare(noise, rows, dims, parentSS) +
           kMinExcessShare;
}

double explainedShare(double parentSS, double gain)
{
    if (!(parentSS > 0.0) || !std::isfinite(parentSS) || !std::isfinite(gain)) return std::numeric_limits<double>::quiet_NaN();
    return gain / parentSS;
}

}  // namespace clusterdesk
