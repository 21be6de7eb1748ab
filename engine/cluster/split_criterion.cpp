// AdaptGrow's split criterion; see split_criterion.h for the derivation.
#include "engine/cluster/split_criterion.h"

#include <cmath>
#include <limits>

namespace clusterdesk {

double noiseEdgeShare(std::int64_t rows, double dims)
{
    if (rows < 2 || !(dims >= 1.0)) return std::numeric_limits<double>::infinity();
    const double edge = 1.0 / std::sqrt(static_cast<double>(rows - 1)) + 1.0 / std::sqrt(dims);
    return edge * edge;
}

double splitThresholdShare(std::int64_t rows, double dims)
{
    return noiseEdgeShare(rows, dims) + kMinExcessShare;
}

double explainedShare(double parentSS, double gain)
{
    if (!(parentSS > 0.0) || !std::isfinite(parentSS) || !std::isfinite(gain)) return std::numeric_limits<double>::quiet_NaN();
    return gain / parentSS;
}

}  // namespace clusterdesk
