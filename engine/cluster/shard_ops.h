// Steps every algorithm shares on a sharded dataset: the fixed-point scales, fetching
// rows by global index, reducing partial sums, gathering labels.
#pragma once

#include "shard_context.h"

#include <cstdint>
#include <span>
#include <vector>

namespace clusterdesk {

// Scales derived from the exact global max |x| per column and the global row count,
// so that a sum over all rows of any term fits in a signed 64-bit integer.
struct ScaleSet {
    kernels::FixedPointScales sums;       // coordinates and squared distances
    kernels::FixedPointScales projected;  // power-iteration terms ((x-m).v)(x-m_j); perDim only
};

ScaleSet computeScales(ShardContext& ctx);

// Per-cluster totals over every rank, as doubles (exact mode: converted from the
// integer sums, so every topology gets the same bits).
struct GlobalSums {
    std::vector<std::int64_t> counts;
    std::vector<double> sums;      // groups x cols
    std::vector<double> withinSS;  // groups: sum of squared distances (clusterSums) or of |x|^2 (trackedSums)
    bool cancel = false;           // some rank asked to stop
    std::int64_t rowsSearched = 0; // rows that needed a full nearest-centroid search
};

// Per-rank facts that ride along with the partial sums in the same all-reduce.
struct ReduceExtras {
    bool cancelRequested = false;  // so that all ranks stop in the same iteration
    std::int64_t rowsSearched = 0;
};

// One all-reduce of a shard's partial sums.
GlobalSums reduceSums(ShardContext& ctx, const kernels::PartialSums& partial, kernels::Mode mode,
                      const kernels::FixedPointScales& scales, ReduceExtras extras = {});


// Rows of the whole dataset by global index, in the order asked, on every rank.
std::vector<float> fetchRows(ShardContext& ctx, std::span<const std::int64_t> globalRows);

// Every row's label, in row order, on every rank.
std::vector<std::int32_t> gatherLabels(ShardContext& ctx);

// Sum of squared distances of each group's rows to `centroids`, from the sums of a
// trackedSums reduction (withinSS holding sum |x|^2 there).
std::vector<double> withinFromNorms(const GlobalSums& sums, const std::vector<float>& centroids, std::int64_t cols);

// Mean of each group (sums / counts) as float centroids; groups with no rows keep
// the value already in centroids.
void centroidsFromSums(const GlobalSums& sums, std::int64_t cols, std::vector<float>& centroids);

}  // namespace clusterdesk
