// AdaptGrow's split criterion; see split_criterion.h for the derivation.
#include "engine/cluster/split_criterion.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace clusterdesk {

double noiseEdgeShare(const NoiseModel& noise, std::int64_t rows, std::int64_t dims, double parentSS)
{
    if (rows < 2 || dims < 1 || !(noise.effectiveDims >= 1.0)) return std::numeric_limits<double>::infinity();
    const double edge = 1.0 / std::sqrt(static_cast<double>(rows - 1)) + 1.0 / std::sqrt(noise.effectiveDims);
    double ratio = 1.0;  // sigma^2 / sigma_hat^2
    if (std::isfinite(noise.bulkVariance) && parentSS > 0.0 && std::isfinite(parentSS))
        ratio = std::min(1.0, noise.bulkVariance * static_cast<double>(rows - 1) * static_cast<double>(dims) / parentSS);
    return ratio * edge * edge;
}

double splitThresholdShare(const NoiseModel& noise, std::int64_t rows, std::int64_t dims, double parentSS)
{
    return noiseEdgeShare(noise, rows, dims, parentSS) + kMinExcessShare;
}

double explainedShare(double parentSS, double gain)
{
    if (!(parentSS > 0.0) || !std::isfinite(parentSS) || !std::isfinite(gain)) return std::numeric_limits<double>::quiet_NaN();
    return gain / parentSS;
}

}  // namespace clusterdesk
