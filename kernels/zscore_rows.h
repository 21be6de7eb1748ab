// Data preparation, not a device primitive: loaders z-score rows in host memory before
// any shard or backend exists (correlation clustering: z-scored return windows under
// Euclidean distance are correlation distance).
#pragma once

#include <cstdint>
#include <span>

namespace clusterdesk::kernels {

// Z-scores every row of a row-major host matrix in place: mean and population variance
// in double, in index order (mean 0, population sd 1; constant rows become 0). Rows are
// processed in parallel; each row's arithmetic is fixed, so the output is the same for
// any thread count. Throws std::invalid_argument when cols is not positive or rows does
// not hold a whole number of rows.
void zscoreRows(std::span<float> rows, std::int64_t cols);

// Weighs every column (every day of a return window) alike: each column is divided by
// its root mean square across the rows. Meant for returns already divided by each
// asset's own volatility (not demeaned, so a day on which nothing moved stays zero, and
// the day's market move counts in its scale); the caller z-scores the rows afterwards.
// Daily returns cluster their volatility and have fat tails, so left alone a few
// turbulent days carry most of a row's variance and the distances between rows are
// decided by them (in the realistic market demo, 250 days count as 110 to 140 equal
// ones); dividing each day by its cross-sectional dispersion restores about 220 and with
// them the sector signal of the calm days. A column that is zero in every row stays zero;
// with fewer than two rows there is no cross-section and nothing changes. Column sums
// run in row order and each value's arithmetic is fixed: the same bits for any thread
// count. Throws std::invalid_argument as zscoreRows does.
void scaleColumnsToUnitRms(std::span<float> rows, std::int64_t cols);

}  // namespace clusterdesk::kernels
