// Initial centroids: k-means++ (D^2 sampling), k-means|| (oversampling rounds, then a
// weighted k-means++ on the candidates), or centroids the user supplied. Sampling
// draws integers from fixed-point weights summed in global row order, so the same
// seed picks the same rows on every topology.
#pragma once

#include "params.h"
#include "shard_ops.h"

#include <vector>

namespace clusterdesk {

// k x cols centroids. Leaves each row's label and distance set to its nearest chosen
// centre (for k-means++); callers assign again before using them. Checks the cancel
// flag between centres (all ranks agree) and throws Cancelled when it is set.
std::vector<float> initialCentroids(ShardContext& ctx, const KMeansParams& params, int k, const ScaleSet& scales,
                                    const RunControl& control);

}  // namespace clusterdesk
