// Clustering quality metrics: agreement between two labelings (ARI, NMI), internal
// quality of one labeling (sampled silhouette) and model selection (spherical BIC).
//
// Conventions shared by every function here:
// - Labels are arbitrary non-negative int32 values; they need not be 0..k-1 nor
//   contiguous (a cluster id is only a name). Negative labels (e.g. a "noise" -1)
//   are rejected with UsageError rather than silently treated as a cluster or
//   dropped, because either choice would change the score without the caller
//   noticing.
// - Invalid arguments (arrays of different lengths, bad sizes) throw
//   clusterdesk::UsageError with the offending values in the message.
// - Degenerate inputs follow scikit-learn's conventions (documented per function),
//   so a figure in a report can be checked against sklearn directly.
// - Memory is O(rows); counts are 64-bit. Nothing prints; nothing includes Qt.
#pragma once

#include <cstdint>
#include <span>

namespace clusterdesk {

// Adjusted Rand index between two labelings of the same rows (1 = identical up to renaming).
// Pair-counting agreement corrected for chance: about 0 for independent labelings, can be
// negative, 1 only when the two partitions are the same. Computed from the contingency
// table with exact 128-bit integer pair counts and one final division, so it matches
// sklearn.metrics.adjusted_rand_score to the last bits. sklearn's special case: when no
// pair of rows is split differently by the two labelings (empty input, one row, both
// single-cluster, both all-singletons, or identical partitions) the result is 1.
// Throws UsageError when a.size() != b.size() or a label is negative.
double adjustedRandIndex(std::span<const std::int32_t> a, std::span<const std::int32_t> b);

// Normalized mutual information, arithmetic-mean normalisation (scikit-learn's default).
// NMI = MI(a, b) / ((H(a) + H(b)) / 2), natural logarithms; in [0, 1], 1 = identical up to
// renaming. sklearn's special cases: both labelings single-cluster (or both empty) -> 1;
// otherwise MI = 0 (e.g. only one side single-cluster) -> 0.
// Throws UsageError when a.size() != b.size() or a label is negative.
double normalizedMutualInformation(std::span<const std::int32_t> a, std::span<const std::int32_t> b);

// Mean silhouette over a deterministic sample of `sampleSize` rows (all rows when sampleSize >= rows),
// distances to every row; x is row-major rows x cols. Sample chosen from `seed`.
// Euclidean distances accumulated in double. For each sampled row i, a(i) is its mean
// distance to the other rows of its cluster and b(i) the smallest mean distance to the rows
// of another cluster, both over *all* rows, so the result is an unbiased estimate of the
// full silhouette (sklearn's sample_size instead scores the sample against itself only).
// With sampleSize >= rows it equals sklearn.metrics.silhouette_score. Rows in singleton
// clusters score 0 and 0/0 (a = b = 0, duplicate points) scores 0, as in sklearn. The
// sample (Floyd's algorithm over std::mt19937_64) and the summation order depend only on
// the inputs and `seed`, never on the thread count: the result is bit-reproducible.
// Cost O(sampleSize * rows * cols), parallel over sampled rows with OpenMP.
// Throws UsageError when labels.size() != rows, rows < 0, cols < 1, x is null with rows > 0,
// sampleSize < 1, a label is negative, or the number of distinct labels is not in
// [2, rows - 1] (sklearn raises the same way: the silhouette is undefined there).
double sampledSilhouette(const float* x, std::int64_t rows, std::int64_t cols, std::span<const std::int32_t> labels,
                         std::int64_t sampleSize, std::uint64_t seed);

// BIC (higher is better) of a hard clustering under identical spherical Gaussians with pooled variance
// (Pelleg & Moore's X-means): counts and within-cluster sums of squares per cluster, d dimensions.
// sigma^2 = sum(withinSS) / ((N - K) * d); logL = sum_i n_i log(n_i / N) - N d / 2 log(2 pi sigma^2) - (N - K) d / 2;
// parameters p = (K - 1) + K d + 1; BIC = logL - p / 2 log N. Clusters with n_i = 0 are ignored.
// N is the sum of counts and K the number of clusters with n_i > 0. Returns -infinity when
// the model is degenerate: N <= K (no residual degrees of freedom, sigma^2 undefined) or
// sigma^2 = 0 (every point on its centroid: the likelihood is unbounded), so such a
// candidate never wins a comparison. Used by AdaptGrow to accept splits and merges.
// Throws UsageError when counts.size() != withinSS.size(), dims < 1, a count is negative,
// or a withinSS is negative or not finite.
double sphericalBic(std::span<const std::int64_t> counts, std::span<const double> withinSS, std::int64_t dims);

}  // namespace clusterdesk
