// AdaptGrow: k-means that chooses k. Start at k0, run Lloyd to convergence, then
// test every cluster for a split at once (2-means inside the cluster, seeded along
// its principal axis, kept when it explains more of the cluster's variance than noise
// could: split_criterion.h), repeat until no split pays or k_max; then optionally merge
// neighbour pairs that noise alone could have separated.
// Every candidate of a round is evaluated in the same batched passes over the data,
// which is what keeps it GPU-friendly.
#pragma once

#include "params.h"
#include "shard_context.h"
#include "split_criterion.h"

namespace clusterdesk {

// noise: what the split and merge tests measure noise with (split_criterion.h), from the
// whole data set; the same value on every rank.
ClusterResult runAdaptGrow(ShardContext& ctx, const KMeansParams& params, const RunControl& control, const NoiseModel& noise);

}  // namespace clusterdesk
