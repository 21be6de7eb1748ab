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

}  // namespace clusterdesk::kernels
