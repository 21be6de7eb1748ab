// The compute interface the engine runs on. One implementation per device family
// (host: g++ + Thrust OMP; cuda: nvcc, a plug-in loaded at run time), both built
// from the same row functors in row_functors.h.
//
// A shard's rows are uploaded once; every per-iteration call then works on the
// resident copy and keeps per-row labels and squared distances beside it, so only
// centroids go in and k x d partial sums come out.
#pragma once

#include "kernel_types.h"

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace clusterdesk::kernels {

// Rows of one shard living in a backend's memory, with their per-row state.
class ResidentShard {
public:
    virtual ~ResidentShard() = default;
    virtual std::int64_t rows() const = 0;
    virtual std::int64_t cols() const = 0;
    // Index of this shard's first row in the whole dataset: random streams are keyed
    // by global row so that sampling does not depend on how rows are sharded.
    virtual std::int64_t firstGlobalRow() const = 0;
};

class Backend {
public:
    virtual ~Backend() = default;

    // Short identifier used in topologies and reports: "host", "cuda:0".
    virtual std::string name() const = 0;
    // What the hardware is: CPU model or GPU name with memory.
    virtual std::string deviceName() const = 0;

    // Makes rows resident (the host backend reads the caller's memory in place, so
    // rows must outlive the shard). Labels start at 0, distances at +inf.
    virtual std::unique_ptr<ResidentShard> upload(RowsView rows, std::int64_t firstGlobalRow) = 0;

    // --- per-row primitives ---------------------------------------------------
    // Max |x| per column over the shard (out has cols entries).
    virtual void columnMaxAbs(ResidentShard& shard, std::span<float> out) = 0;
    // Squared L2 norm of every row (out has rows entries).
    virtual void rowNorms(ResidentShard& shard, std::span<float> out) = 0;

    // Nearest of k centroids (k x cols, row-major) for every row; stores label and
    // squared distance. Never materialises the rows x k matrix.
    virtual void assign(ResidentShard& shard, std::span<const float> centroids, int k, Mode mode,
                        Precision precision) = 0;
    // The same labels as assign() (exact mode: bit for bit; fast mode: up to its own
    // rounding), faster once the centroids settle: each row keeps Hamerly bounds
    // (distance to its centroid, to the second nearest), rounded outward, and with
    // `motion` (the move since the previous call) only rows whose bounds allow a change
    // are searched. Stored distances are refreshed only for rows whose bounds had to be
    // tightened or searched; the others keep an older value (use trackedSums for the
    // inertia). motion == nullptr, or labels rewritten by assign() or updateNearest()
    // since the last call, means a full pass that restarts the bounds; so does fast mode
    // at TF32/BF16 on CUDA, whose distances err too much for bounds. Returns the number
    // of rows fully searched.
    virtual std::int64_t assignBounded(ResidentShard& shard, std::span<const float> centroids, int k, Mode mode,
                                       Precision precision, const CentroidMotion* motion) = 0;
    // Sets every row's stored distance to its exact squared distance to its labelled
    // centroid (after bounded assignment left some stale), e.g. for a final inertia.
    virtual void refreshDistances(ResidentShard& shard, std::span<const float> centroids, int k) = 0;
    // Split tests: for each row, the nearer of the two children of its cluster
    // (children is 2k x cols; rows 2c and 2c+1 split cluster c). Stores the child
    // (0/1) and the squared distance to it beside the cluster label.
    virtual void assignSplit(ResidentShard& shard, std::span<const float> children, int k, Mode mode) = 0;
    // k-means++ / k-means||: where one of `centres` (m x cols, labelled firstLabel,
    // firstLabel + 1, ...) is nearer than a row's stored distance, the row takes its
    // label and distance (exact arithmetic, in both modes). Stored distances start at
    // +inf after upload.
    virtual void updateNearest(ResidentShard& shard, std::span<const float> centres, int firstLabel) = 0;

    // --- accumulation -------------------------------------------------------------
    // Counts, coordinate sums (unless parts says not; then out.dims is 0) and
    // squared-distance sums per cluster (or split child). Exact mode needs scales and
    // fills the fixed-point fields.
    virtual void clusterSums(ResidentShard& shard, LabelSource source, SumParts parts, int k, Mode mode,
                             const FixedPointScales* scales, PartialSums& out) = 0;
    // Per-cluster counts, coordinate sums and squared norms |x|^2 of the rows under
    // their current labels, kept on the shard between calls: only rows whose label
    // changed since the previous call move their contribution, so a settled run costs
    // a pass over labels, not over data, whatever rewrote the labels. restart recounts
    // from scratch (the first call and a new k do so anyway). Exact mode's integer sums
    // equal a recount bit for bit; fast mode's doubles drift by rounding, so callers
    // recount now and then.
    virtual void trackedSums(ResidentShard& shard, int k, Mode mode, const FixedPointScales* scales, bool restart,
                             PartialSums& out) = 0;
    // Power-iteration step for each cluster's principal axis: the sum over its rows of
    // ((x - mean) . axis) * (x - mean), into out.sums or out.fixedSums (k x cols).
    virtual void projectedSums(ResidentShard& shard, std::span<const float> means, std::span<const float> axes,
                               int k, Mode mode, const FixedPointScales* scales, PartialSums& out) = 0;

    // --- sampling (integer arithmetic on fixed-point weights: same draw everywhere) ---
    // Sum over rows of round(distance * scale).
    virtual std::int64_t weightTotal(ResidentShard& shard, double scale) = 0;
    // First local row whose inclusive prefix of weights exceeds target (0 <= target < total).
    virtual std::int64_t findByPrefix(ResidentShard& shard, double scale, std::int64_t target) = 0;
    // k-means||: local rows kept with probability min(1, factor * weight / total), decided
    // by a counter-based uniform keyed by (seed, round, global row).
    virtual std::vector<std::int64_t> oversample(ResidentShard& shard, double scale, double factor,
                                                 std::int64_t total, std::uint64_t seed, std::uint64_t round) = 0;

    // --- host transfers -------------------------------------------------------------
    virtual void copyRows(ResidentShard& shard, std::span<const std::int64_t> localRows, std::span<float> out) = 0;
    virtual void downloadLabels(ResidentShard& shard, std::span<std::int32_t> out) = 0;
    virtual void downloadDistances(ResidentShard& shard, std::span<float> out) = 0;
};

}  // namespace clusterdesk::kernels
