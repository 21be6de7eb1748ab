// The compute interface the engine runs on. One implementation per device family
// (host: g++ + Thrust OMP; cuda: nvcc, a plug-in loaded at run time), both built
// from the same row functors in row_functors.h.
//
// A shard's rows are uploaded once; every per-iteration call then works on the
// resident copy and keeps per-row labels and squared distances beside it, so only
// centroids go in and k x d partial sums come out.
//
// The contract is checked once, here (as FAISS's GpuIndex::search checks, then calls
// searchImpl_): every public method is non-virtual, validates its arguments (sizes,
// k, shard ownership, call order) and throws ContractError naming the backend, the
// method and the values, then calls the protected ...Impl method of the device
// family, which may rely on what was checked.
#pragma once

#include "kernel_types.h"

#include <cstdint>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

namespace clusterdesk::kernels {

class Backend;

// A call that breaks the Backend contract (wrong sizes, a negative k, another
// backend's shard, sums by split child before assignSplit). The same type, with the
// same text, on every backend: "cuda:0: assign: centroids hold 6 values, needs 8 (k=2, cols=4)".
class ContractError : public std::invalid_argument {
public:
    using std::invalid_argument::invalid_argument;
};

// Rows of one shard living in a backend's memory, with their per-row state.
class ResidentShard {
public:
    virtual ~ResidentShard() = default;
    virtual std::int64_t rows() const = 0;
    virtual std::int64_t cols() const = 0;
    // Index of this shard's first row in the whole dataset: random streams are keyed
    // by global row so that sampling does not depend on how rows are sharded.
    virtual std::int64_t firstGlobalRow() const = 0;

private:
    // Contract state, kept by Backend's public methods so that no implementation
    // re-derives it.
    friend class Backend;
    const Backend* owner = nullptr;  // the backend whose upload made this shard
    bool boundsCurrent = false;      // the Hamerly bounds describe the current labels
    bool splitAssigned = false;      // assignSplit has run: split children are defined
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
    std::unique_ptr<ResidentShard> upload(RowsView rows, std::int64_t firstGlobalRow);

    // Every method below takes a shard this backend uploaded; output spans hold at
    // least as many values as stated.

    // --- per-row primitives ---------------------------------------------------
    // Max |x| per column over the shard (out has cols entries).
    void columnMaxAbs(ResidentShard& shard, std::span<float> out);
    // Squared L2 norm of every row (out has rows entries).
    void rowNorms(ResidentShard& shard, std::span<float> out);

    // Nearest of k centroids (k x cols, row-major) for every row; stores label and
    // squared distance. Never materialises the rows x k matrix.
    void assign(ResidentShard& shard, std::span<const float> centroids, int k, Mode mode, Precision precision);
    // The same labels as assign() (exact mode: bit for bit; fast mode: up to its own
    // rounding), faster once the centroids settle: each row keeps Hamerly bounds
    // (distance to its centroid, to the second nearest), rounded outward, and with
    // `motion` (the move since the previous call) only rows whose bounds allow a change
    // are searched. Stored distances are refreshed only for rows whose bounds had to be
    // tightened or searched; the others keep an older value (use trackedSums for the
    // inertia). motion == nullptr, or labels rewritten by assign() or updateNearest()
    // since the last call, means a full pass that restarts the bounds; so does fast mode
    // at TF32/BF16 on CUDA, whose distances err too much for bounds. Returns the number
    // of rows fully searched. This is the one bounded-assignment driver; the steps it
    // runs are the backends' (the ...Impl methods under "bounded assignment steps").
    std::int64_t assignBounded(ResidentShard& shard, std::span<const float> centroids, int k, Mode mode,
                               Precision precision, const CentroidMotion* motion);
    // Sets every row's stored distance to its exact squared distance to its labelled
    // centroid (after bounded assignment left some stale), e.g. for a final inertia.
    void refreshDistances(ResidentShard& shard, std::span<const float> centroids, int k);
    // Split tests: for each row, the nearer of the two children of its cluster
    // (children is 2k x cols; rows 2c and 2c+1 split cluster c). Stores the child
    // (0/1) and the squared distance to it beside the cluster label.
    void assignSplit(ResidentShard& shard, std::span<const float> children, int k, Mode mode);
    // k-means++ / k-means||: where one of `centres` (m x cols, labelled firstLabel,
    // firstLabel + 1, ...) is nearer than a row's stored distance, the row takes its
    // label and distance (exact arithmetic, in both modes). Stored distances start at
    // +inf after upload.
    void updateNearest(ResidentShard& shard, std::span<const float> centres, int firstLabel);

    // --- accumulation -------------------------------------------------------------
    // Counts, coordinate sums (unless parts says not; then out.dims is 0) and
    // squared-distance sums per cluster (or split child, after assignSplit). Exact mode
    // needs scales (one per column) and fills the fixed-point fields.
    void clusterSums(ResidentShard& shard, LabelSource source, SumParts parts, int k, Mode mode,
                     const FixedPointScales* scales, PartialSums& out);
    // Per-cluster counts, coordinate sums and squared norms |x|^2 of the rows under
    // their current labels, kept on the shard between calls: only rows whose label
    // changed since the previous call move their contribution, so a settled run costs
    // a pass over labels, not over data, whatever rewrote the labels. restart recounts
    // from scratch (the first call and a new k do so anyway). Exact mode's integer sums
    // equal a recount bit for bit; fast mode's doubles drift by rounding, so callers
    // recount now and then.
    void trackedSums(ResidentShard& shard, int k, Mode mode, const FixedPointScales* scales, bool restart,
                     PartialSums& out);
    // Power-iteration step for each cluster's principal axis: the sum over its rows of
    // ((x - mean) . axis) * (x - mean), into out.sums or out.fixedSums (k x cols).
    void projectedSums(ResidentShard& shard, std::span<const float> means, std::span<const float> axes, int k,
                       Mode mode, const FixedPointScales* scales, PartialSums& out);

    // --- sampling (integer arithmetic on fixed-point weights: same draw everywhere) ---
    // Sum over rows of round(distance * scale).
    std::int64_t weightTotal(ResidentShard& shard, double scale);
    // Greedy k-means++: for each candidate (rows of cols), weightTotal as it would be
    // were it added by updateNearest; nothing stored changes. Zeros on an empty shard.
    std::vector<std::int64_t> trialWeightTotals(ResidentShard& shard, std::span<const float> candidates, double scale);
    // First local row whose inclusive prefix of weights exceeds target (0 <= target < total);
    // -1 on an empty shard.
    std::int64_t findByPrefix(ResidentShard& shard, double scale, std::int64_t target);
    // k-means||: local rows kept with probability min(1, factor * weight / total), decided
    // by a counter-based uniform keyed by (seed, round, global row).
    std::vector<std::int64_t> oversample(ResidentShard& shard, double scale, double factor, std::int64_t total,
                                         std::uint64_t seed, std::uint64_t round);

    // --- host transfers -------------------------------------------------------------
    // The listed local rows (each within the shard), one after another.
    void copyRows(ResidentShard& shard, std::span<const std::int64_t> localRows, std::span<float> out);
    void downloadLabels(ResidentShard& shard, std::span<std::int32_t> out);
    void downloadDistances(ResidentShard& shard, std::span<float> out);

protected:
    // The implementations. Each is called only after its public method checked the
    // contract: the shard is one this backend uploaded (so a static_cast to the
    // backend's own shard type is safe), sizes and k are as documented.
    virtual std::unique_ptr<ResidentShard> uploadImpl(RowsView rows, std::int64_t firstGlobalRow) = 0;
    virtual void columnMaxAbsImpl(ResidentShard& shard, std::span<float> out) = 0;
    virtual void rowNormsImpl(ResidentShard& shard, std::span<float> out) = 0;
    virtual void assignImpl(ResidentShard& shard, std::span<const float> centroids, int k, Mode mode,
                            Precision precision) = 0;
    virtual void refreshDistancesImpl(ResidentShard& shard, std::span<const float> centroids, int k) = 0;
    virtual void assignSplitImpl(ResidentShard& shard, std::span<const float> children, int k, Mode mode) = 0;
    // count: how many centres (m), at least one.
    virtual void updateNearestImpl(ResidentShard& shard, std::span<const float> centres, int count,
                                   int firstLabel) = 0;
    virtual void clusterSumsImpl(ResidentShard& shard, LabelSource source, SumParts parts, int k, Mode mode,
                                 const FixedPointScales* scales, PartialSums& out) = 0;
    virtual void trackedSumsImpl(ResidentShard& shard, int k, Mode mode, const FixedPointScales* scales,
                                 bool restart, PartialSums& out) = 0;
    virtual void projectedSumsImpl(ResidentShard& shard, std::span<const float> means, std::span<const float> axes,
                                   int k, Mode mode, const FixedPointScales* scales, PartialSums& out) = 0;
    virtual std::int64_t weightTotalImpl(ResidentShard& shard, double scale) = 0;
    // centresT: up to detail::kTrialLanes candidates transposed (cols x kTrialLanes, the
    // unused lanes zero); totals: one per candidate in use (count).
    virtual void trialWeightBatchImpl(ResidentShard& shard, std::span<const float> centresT, int count, double scale,
                                      std::span<std::int64_t> totals) = 0;
    virtual std::int64_t findByPrefixImpl(ResidentShard& shard, double scale, std::int64_t target) = 0;
    virtual std::vector<std::int64_t> oversampleImpl(ResidentShard& shard, double scale, double factor,
                                                     std::int64_t total, std::uint64_t seed, std::uint64_t round) = 0;
    virtual void copyRowsImpl(ResidentShard& shard, std::span<const std::int64_t> localRows,
                              std::span<float> out) = 0;
    virtual void downloadLabelsImpl(ResidentShard& shard, std::span<std::int32_t> out) = 0;
    virtual void downloadDistancesImpl(ResidentShard& shard, std::span<float> out) = 0;

    // --- bounded assignment steps, run in this order by assignBounded ----------------
    // Nearest centroid for every row, setting each row's bounds as well.
    virtual void searchAllBoundedImpl(ResidentShard& shard, std::span<const float> centroids, int k, Mode mode,
                                      Precision precision) = 0;
    // Flags the rows whose bounds, loosened by `motion`, no longer prove their label
    // (detail::BoundedCheck) and keeps their list on the shard; returns how many.
    virtual std::int64_t flagRowsInDoubtImpl(ResidentShard& shard, const CentroidMotion& motion) = 0;
    // Recomputes the flagged rows' distance to their own centroid (detail::TightenBound);
    // keeps the list of rows that still need a full search; returns how many.
    virtual std::int64_t tightenRowsInDoubtImpl(ResidentShard& shard, std::span<const float> centroids,
                                                const CentroidMotion& motion) = 0;
    // Full search, refreshing bounds, of the rows tightenRowsInDoubtImpl left.
    virtual void searchRowsLeftImpl(ResidentShard& shard, std::span<const float> centroids, int k, Mode mode,
                                    Precision precision) = 0;
    // Whether distances at this precision are accurate enough for bounds.
    virtual bool boundsHoldAt(Mode, Precision) const { return true; }
    // Share of rows in doubt above which one contiguous full pass is cheaper than
    // gathering them (1: never).
    virtual double fullPassShare() const { return 1.0; }

private:
    // Throws ContractError "<name>: <method>: <what>".
    [[noreturn]] void fail(const char* method, const std::string& what) const;
    // The shard was uploaded by this backend.
    void requireOwned(const ResidentShard& shard, const char* method) const;
    void requireNonNegativeK(int k, const char* method) const;
    // `values` holds at least `need` values (what: which argument, context: the figures need comes from).
    void requireSize(std::size_t have, std::size_t need, const char* method, const char* what,
                     const std::string& context) const;
    // Exact mode has one fixed-point scale per column.
    void requireScales(Mode mode, const FixedPointScales* scales, const ResidentShard& shard, const char* method) const;
};

}  // namespace clusterdesk::kernels
