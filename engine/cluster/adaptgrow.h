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

// Fewer rows than this make a split test meaningless: such a cluster is never split, and
// is no evidence for the k that holds it (shard_run.cpp tests one cluster fewer).
inline constexpr std::int64_t kMinRowsToTest = 4;

// Which pairs the merge round may merge: those noise could separate (and lone rows), or
// lone rows only, for growth that goes on from a partition already chosen once (merges
// must not cascade across tests: the separation of two clusters that each hold several
// groups is a weak statistic).
enum class MergeScope { NoisePairs, LoneRows };

// noise: what the split and merge tests measure noise with (split_criterion.h), from the
// whole data set; the same value on every rank.
ClusterResult runAdaptGrow(ShardContext& ctx, const KMeansParams& params, const RunControl& control, const NoiseModel& noise,
                           MergeScope merges = MergeScope::NoisePairs);

}  // namespace clusterdesk
