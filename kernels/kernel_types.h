// Plain types shared by every backend. No Thrust, no CUDA, no Qt: this header is
// what the engine sees of the kernels.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace clusterdesk::kernels {

// Exact mode's fixed-point sums add modulo 2^64, as the GPU's unsigned atomicAdd does:
// the same bits on every device, thread count and rank order, and no signed overflow
// (undefined behaviour) when a sum leaves the range, as it may for values the engine
// clamps (row_functors.h toFixed).
inline std::int64_t wrappingAdd(std::int64_t a, std::int64_t b)
{
    return static_cast<std::int64_t>(static_cast<std::uint64_t>(a) + static_cast<std::uint64_t>(b));
}

// fast: GEMM distances and floating-point sums; exact: one deterministic distance
// functor and 64-bit fixed-point sums, bit-identical on every topology.
enum class Mode { Fast, Exact };

// GEMM input precision for fast mode. Host BLAS always computes FP32; CUDA can use
// tensor cores through TF32 or BF16 inputs.
enum class Precision { FP32, TF32, BF16 };

// Row-major float32 matrix that the caller owns.
struct RowsView {
    const float* data = nullptr;
    std::int64_t rows = 0;
    std::int64_t cols = 0;
};

// Which label a row is accumulated under: its cluster, or (split tests) the child
// of its cluster, i.e. label * 2 + childLabel.
enum class LabelSource { Cluster, SplitChild };

// What clusterSums adds up: everything, or only counts and squared distances (no pass
// over the coordinates: for sizes and inertia).
enum class SumParts { All, CountsAndDistances };

// Power-of-two scales that turn floats into 64-bit fixed point without overflow,
// derived from the exact global max |x| per dimension and the global row count.
struct FixedPointScales {
    std::vector<double> perDim;   // multiply x[j] by perDim[j], then round to int64
    double distance = 0;          // multiply a squared distance by this, then round
};

// Per-cluster partial sums of one shard; one all-reduce turns them into global
// sums. Fast mode fills the double fields, exact mode the fixed-point ones.
struct PartialSums {
    int groups = 0;                       // clusters (or split children)
    int dims = 0;
    std::vector<std::int64_t> counts;     // groups
    std::vector<double> sums;             // groups * dims (fast)
    std::vector<double> distSums;         // groups: squared distances (clusterSums) or squared norms (trackedSums), fast
    std::vector<std::int64_t> fixedSums;  // groups * dims (exact)
    std::vector<std::int64_t> fixedDist;  // groups: as distSums, exact

    void reset(int groupCount, int dimCount, Mode mode);
    // Adds other's fields into these (same shape and mode).
    void add(const PartialSums& other);
};

// How the centroids moved since the previous bounded assignment (same k, same
// order), for skipping rows whose nearest centroid provably did not change.
struct CentroidMotion {
    std::vector<float> shift;       // k: how far each centroid moved (rounded up)
    std::vector<float> halfGap;     // k: half the distance from each centroid to its nearest other
    std::vector<float> otherShift;  // k: the largest move among the other centroids
};

// Squared L2 norm of each row of a host matrix (the RowNorm functor's arithmetic),
// zero-padded to padTo entries when that is larger.
std::vector<float> squaredNorms(std::span<const float> rows, std::int64_t cols, std::size_t padTo = 0);

// The motion from `before` to `after` (both k x cols, row-major).
CentroidMotion measureMotion(const std::vector<float>& before, const std::vector<float>& after, std::int64_t cols);

std::string toString(Mode mode);
std::string toString(Precision precision);

}  // namespace clusterdesk::kernels
