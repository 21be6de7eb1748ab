// AdaptGrow: k-means that chooses k. Start at k0, run Lloyd to convergence, then
// test every cluster for a split at once (2-means inside the cluster, seeded along
// its principal axis, kept when the cluster's BIC improves), repeat until no split
// pays or k_max; then optionally merge neighbour pairs whose merge improves BIC.
// Every candidate of a round is evaluated in the same batched passes over the data,
// which is what keeps it GPU-friendly.
#pragma once

#include "params.h"
#include "shard_context.h"

namespace clusterdesk {

ClusterResult runAdaptGrow(ShardContext& ctx, const KMeansParams& params, const RunControl& control);

}  // namespace clusterdesk
