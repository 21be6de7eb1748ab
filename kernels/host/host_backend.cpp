#include "host_backend.h"

#include "../row_functors.h"
#include "host_gemm.h"
#include "tile_search.h"

#include <thrust/copy.h>
#include <thrust/execution_policy.h>
#include <thrust/for_each.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/system/omp/execution_policy.h>
#include <thrust/transform_reduce.h>

#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace clusterdesk::kernels {
namespace {

using Index = std::int64_t;

// Rows per GEMM block in fast mode: the dots block (rows x k floats) stays in L2.
constexpr Index kGemmBlockRows = 512;

// What a nearest-centroid search stores besides labels and distances.
struct SearchOutput {
    bool bounds = false;      // refresh the Hamerly bounds too
    int keepNearerFrom = -1;  // >= 0: the centroids are a batch labelled from here on, and a
                              // row keeps its stored label unless the batch holds a nearer one
};

// The bounds pay where a row in doubt costs less than its share of a full pass. That
// depends on k and d (at k = 8 a full pass is little more than reading the data, and
// a row in doubt, fetched on its own, costs four to seven times a streamed one) and on
// the memory, so it is measured, not modelled: each pass times itself, and the next
// iteration takes the way predicted cheaper for the share of rows in doubt it sees.
// Either way gives the same labels (the bounds only spare rows whose label they prove).
struct BoundedCosts {
    double fullPerRow = 0;       // 0: not measured yet
    double checkPerRow = 0;      // the check of every row's bounds a bounded pass starts with
    double boundedPerDoubt = 0;  // tightening and searching, per row in doubt; 0: not measured yet
    double boundedNs = 0;        // the bounded pass under way: its time so far
    Index boundedDoubt = 0;      // and its rows in doubt

    // Whether a full pass is predicted cheaper with `share` of the rows in doubt.
    bool fullPassCheaper(double share) const
    {
        return fullPerRow > 0 && boundedPerDoubt > 0 && checkPerRow + share * boundedPerDoubt >= fullPerRow;
    }

    void addBounded(double ns)
    {
        boundedNs += ns;
        if (boundedDoubt > 0) boundedPerDoubt = boundedNs / static_cast<double>(boundedDoubt);
    }
};

double nsSince(std::chrono::steady_clock::time_point start)
{
    return std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count();
}

struct HostShard final : ResidentShard {
    const float* data = nullptr;
    Index rowCount = 0;
    Index colCount = 0;
    Index firstRow = 0;
    std::vector<std::int32_t> labels;
    std::vector<float> dist;
    std::vector<std::uint8_t> child;
    std::vector<float> childDist;
    std::vector<float> norms;  // squared row norms, computed on first fast assign
    std::vector<float> upper;  // Hamerly bounds, from the first full bounded pass
    std::vector<float> lower;
    std::vector<std::uint8_t> needsSearch;
    std::vector<Index> inDoubt;              // assignBounded: flagged rows, then the ones left to search
    // What the two ways of assigning cost here, measured on this shard's last ones
    // (ns): a full pass per row, and a bounded one (tighten + search) per row in doubt.
    BoundedCosts costs;
    std::vector<std::vector<Index>> flaggedByThread;  // listFlaggedRows' scratch, kept: fresh
                                                      // pages cost more than the listing
    std::vector<std::int32_t> countedUnder;  // trackedSums: the label each row is counted under
    PartialSums tracked;                     // trackedSums: running per-cluster sums
    // Tile searches move the rows whose label changed in the tracked sums while the rows
    // are in cache (TrackingWhileSearching), into one PartialSums per OpenMP thread that
    // the next trackedSums adds; it sets them up, with the scales its exact sums use.
    std::vector<PartialSums> movedWhileSearching;
    FixedPointScales trackedScales;

    Index rows() const override { return rowCount; }
    Index cols() const override { return colCount; }
    Index firstGlobalRow() const override { return firstRow; }
};

// Safe: Backend's public methods refuse shards another backend uploaded.
HostShard& asHost(ResidentShard& shard)
{
    return static_cast<HostShard&>(shard);
}

template <class F>
void forEachRow(Index n, const F& f)
{
    thrust::for_each(thrust::omp::par, thrust::counting_iterator<Index>(0), thrust::counting_iterator<Index>(n), f);
}

float maxOf(const std::vector<float>& values)
{
    return values.empty() ? 0.f : *std::max_element(values.begin(), values.end());
}

struct PlainAdd {
    void operator()(std::int64_t* p, std::int64_t v) const { *p = wrappingAdd(*p, v); }
    void operator()(double* p, double v) const { *p += v; }
};

// Rows a pass reads here and there miss the cache one at a time; rows up to
// kStreamedRowBytes long cost less asked for ahead. A pass that reads only the rows
// whose label moved (tracked sums) lists them first, a batch at a time, and asks for
// the listed rows ahead: on noise a few percent of rows move per iteration, and asking
// for every row made the update step a full read of the data, while asking for none
// left it waiting on one miss after another.
struct RowStream {
    const float* x = nullptr;  // null: no prefetching
    Index d = 0;
    const std::int32_t* labels = nullptr;  // with countedUnder: visit only rows whose two labels differ
    const std::int32_t* countedUnder = nullptr;
};
constexpr Index kStreamedRowBytes = 256;
constexpr int kMovedBatch = 512;  // rows listed at a time (4 KB on the stack)
constexpr int kMovedAhead = 16;   // listed rows asked for ahead of their use

// A functor over listed rows, `rowsPerCall` to a call (TightenBoundT), run with the rows
// of a later call asked for ahead: the listed rows lie here and there. Measured on 4M x
// 32 noise, k = 8: tightening cost 27 ns a row without it, 19 with it, against 4 ns a
// row for a whole full pass.
template <class F>
struct ListedRowsAhead {
    F f;
    RowStream stream;
    const Index* rows;
    Index count;
    int rowsPerCall;

    void operator()(Index call) const
    {
        constexpr Index kCallsAhead = 4;
        const Index rowBytes = std::min(stream.d * static_cast<Index>(sizeof(float)), kStreamedRowBytes);
        const Index first = (call + kCallsAhead) * rowsPerCall;
        for (Index e = first; e < first + rowsPerCall && e < count; ++e)
            host::prefetchRow(stream.x, stream.d, rows[e], rowBytes);
        f(call);
    }
};

// The rows [first, end) of n that thread `thread` of a team of `team` takes: contiguous
// ranges in thread order, so a thread's rows are in row order.
struct ThreadRows {
    Index first;
    Index end;
};

ThreadRows threadRows(Index n, int thread, int team)
{
    return {n * thread / team, n * (thread + 1) / team};
}

detail::SumTarget sumTarget(PartialSums& sums, Mode mode, const FixedPointScales* scales)
{
    return {sums.counts.data(),
            sums.sums.data(),
            sums.distSums.data(),
            sums.fixedSums.data(),
            sums.fixedDist.data(),
            scales ? scales->perDim.data() : nullptr,
            scales ? scales->distance : 0.0,
            sums.dims,
            mode == Mode::Exact};
}

// Runs a per-row accumulation functor over all rows (or the moved ones, see RowStream)
// with one private PartialSums per OpenMP thread, each thread taking one contiguous
// range of rows in order, merged in thread order (fixed for a fixed thread count).
template <class MakeRow>
void accumulatePrivately(Index n, Mode mode, const FixedPointScales* scales, PartialSums& out, const MakeRow& makeRow,
                         RowStream stream = {})
{
    const Index rowBytes = stream.d * static_cast<Index>(sizeof(float));
    const bool prefetch = stream.x && rowBytes <= kStreamedRowBytes;
    const Index ahead = std::max<Index>(8, 2048 / std::max<Index>(1, rowBytes));  // about 2 KB ahead
    const auto fetch = [&](Index i) { host::prefetchRow(stream.x, stream.d, i, rowBytes); };
    const int threads = omp_get_max_threads();
    // Allocated before the parallel region: an exception (out of memory) thrown inside
    // one would terminate the process instead of reaching the caller.
    std::vector<PartialSums> privateSums(static_cast<std::size_t>(threads));
    for (PartialSums& part : privateSums) part.reset(out.groups, out.dims, mode);
#pragma omp parallel num_threads(threads)
    {
        const int thread = omp_get_thread_num();
        const int team = omp_get_num_threads();
        const auto row = makeRow(sumTarget(privateSums[static_cast<std::size_t>(thread)], mode, scales));
        const auto [first, end] = threadRows(n, thread, team);
        if (stream.labels) {
            Index moved[kMovedBatch];
            for (Index i = first; i < end;) {
                int count = 0;
                for (; i < end && count < kMovedBatch; ++i) {
                    moved[count] = i;
                    count += stream.labels[i] != stream.countedUnder[i];
                }
                if (prefetch)
                    for (int q = 0; q < count && q < kMovedAhead; ++q) fetch(moved[q]);
                for (int q = 0; q < count; ++q) {
                    if (prefetch && q + kMovedAhead < count) fetch(moved[q + kMovedAhead]);
                    row(moved[q]);
                }
            }
        } else {
            for (Index i = first; i < end; ++i) {
                if (prefetch && i + ahead < end) fetch(i + ahead);
                row(i);
            }
        }
    }
    for (const PartialSums& part : privateSums) out.add(part);
}

std::string cpuModelName()
{
    std::ifstream cpuinfo("/proc/cpuinfo");
    std::string line;
    while (std::getline(cpuinfo, line)) {
        if (line.rfind("model name", 0) == 0) {
            const auto colon = line.find(':');
            if (colon != std::string::npos) return line.substr(colon + 2);
        }
    }
    return "CPU";
}

class HostBackend final : public Backend {
public:
    HostBackend() { host::useSingleThreadedBlas(); }

    std::string name() const override { return "host"; }

    std::string deviceName() const override
    {
        const int threads = omp_get_max_threads();
        return cpuModelName() + " (" + std::to_string(threads) + (threads == 1 ? " thread, " : " threads, ") +
               host::blasName() + ", " + host::tileInstructionSet() + " tiles)";
    }

    std::unique_ptr<ResidentShard> uploadImpl(RowsView rows, Index firstGlobalRow) override
    {
        auto shard = std::make_unique<HostShard>();
        shard->data = rows.data;
        shard->rowCount = rows.rows;
        shard->colCount = rows.cols;
        shard->firstRow = firstGlobalRow;
        shard->labels.assign(static_cast<std::size_t>(rows.rows), 0);
        shard->dist.assign(static_cast<std::size_t>(rows.rows), std::numeric_limits<float>::infinity());
        return shard;
    }

    void columnMaxAbsImpl(ResidentShard& s, std::span<float> out) override
    {
        HostShard& shard = asHost(s);
        const Index d = shard.colCount;
        std::fill(out.begin(), out.end(), 0.f);
        const int threads = omp_get_max_threads();
        std::vector<float> partial(static_cast<std::size_t>(threads * d), 0.f);
#pragma omp parallel num_threads(threads)
        {
            float* mine = partial.data() + omp_get_thread_num() * d;
#pragma omp for schedule(static)
            for (Index i = 0; i < shard.rowCount; ++i) {
                const float* xi = shard.data + i * d;
                for (Index j = 0; j < d; ++j) mine[j] = std::max(mine[j], std::fabs(xi[j]));
            }
        }
        for (int t = 0; t < threads; ++t)
            for (Index j = 0; j < d; ++j) out[j] = std::max(out[j], partial[t * d + j]);
    }

    void rowNormsImpl(ResidentShard& s, std::span<float> out) override
    {
        HostShard& shard = asHost(s);
        computeNorms(shard, out.data());
    }

    void assignImpl(ResidentShard& s, std::span<const float> centroids, int k, Mode mode, Precision) override
    {
        HostShard& shard = asHost(s);
        searchRows(shard, centroids, k, mode, {}, {});
    }

    void searchAllBoundedImpl(ResidentShard& s, std::span<const float> centroids, int k, Mode mode,
                              Precision) override
    {
        HostShard& shard = asHost(s);
        shard.upper.resize(static_cast<std::size_t>(shard.rowCount));
        shard.lower.resize(static_cast<std::size_t>(shard.rowCount));
        const auto start = std::chrono::steady_clock::now();
        searchRows(shard, centroids, k, mode, {}, {.bounds = true});
        if (shard.rowCount > 0) shard.costs.fullPerRow = nsSince(start) / static_cast<double>(shard.rowCount);
    }

    Index flagRowsInDoubtImpl(ResidentShard& s, const CentroidMotion& motion) override
    {
        HostShard& shard = asHost(s);
        // The first check on a shard also pays for its buffers' fresh pages: not a cost
        // to judge later iterations by.
        const bool warm = shard.needsSearch.size() == static_cast<std::size_t>(shard.rowCount);
        shard.needsSearch.resize(static_cast<std::size_t>(shard.rowCount));
        const detail::BoundedCheck check{motion.shift.data(), motion.halfGap.data(), motion.otherShift.data(),
                                         detail::boundsMargin(shard.colCount), shard.labels.data(), shard.upper.data(),
                                         shard.lower.data(), shard.needsSearch.data()};
        // On noise most rows are in doubt at every iteration, and then every row is
        // searched and its bounds rebuilt anyway: when a sample of the rows says so, or
        // that the share in doubt would cost more than a full pass (BoundedCosts), the
        // check and its list are skipped (a tenth of an iteration at d = 32, k = 64).
        const std::optional<double> share = sampledDoubtShare(check, shard.rowCount);
        if (share && (*share > fullPassShare() || shard.costs.fullPassCheaper(*share))) {
            shard.inDoubt.clear();
            return shard.rowCount;
        }
        const auto start = std::chrono::steady_clock::now();
        forEachRow(shard.rowCount, check);
        listFlaggedRows(shard, false);
        if (warm && shard.rowCount > 0) shard.costs.checkPerRow = nsSince(start) / static_cast<double>(shard.rowCount);
        shard.costs.boundedNs = 0;
        shard.costs.boundedDoubt = static_cast<Index>(shard.inDoubt.size());
        return static_cast<Index>(shard.inDoubt.size());
    }

    Index tightenRowsInDoubtImpl(ResidentShard& s, std::span<const float> centroids,
                                 const CentroidMotion& motion) override
    {
        HostShard& shard = asHost(s);
        constexpr int kRows = 8;
        const auto count = static_cast<Index>(shard.inDoubt.size());
        const auto start = std::chrono::steady_clock::now();
        using Tighten = detail::TightenBoundT<kRows>;
        const Tighten tighten{shard.data,          shard.colCount,     centroids.data(), motion.halfGap.data(),
                              detail::boundsMargin(shard.colCount), shard.inDoubt.data(), count,
                              shard.labels.data(), shard.dist.data(), shard.upper.data(), shard.lower.data(),
                              shard.needsSearch.data()};
        forEachRow((count + kRows - 1) / kRows, ListedRowsAhead<Tighten>{tighten, RowStream{shard.data, shard.colCount},
                                                                         shard.inDoubt.data(), count, kRows});
        listFlaggedRows(shard, true);
        shard.costs.addBounded(nsSince(start));
        return static_cast<Index>(shard.inDoubt.size());
    }

    void searchRowsLeftImpl(ResidentShard& s, std::span<const float> centroids, int k, Mode mode, Precision) override
    {
        HostShard& shard = asHost(s);
        const auto start = std::chrono::steady_clock::now();
        searchRows(shard, centroids, k, mode, shard.inDoubt, {.bounds = true});
        shard.costs.addBounded(nsSince(start));
    }

    // Many rows in doubt (early iterations, noise): one contiguous pass beats tightening
    // and gathering them. Measured on 1M x 32 noise, k = 64, with the tile kernels: a
    // bounded pass over a quarter of the rows costs as much as a full pass.
    double fullPassShare() const override { return 0.25; }

    void refreshDistancesImpl(ResidentShard& s, std::span<const float> centroids, int) override
    {
        HostShard& shard = asHost(s);
        constexpr int kRows = 8;
        forEachRow((shard.rowCount + kRows - 1) / kRows,
                   detail::TightenBoundT<kRows>{shard.data, shard.colCount, centroids.data(), nullptr, 0.f, nullptr,
                                                shard.rowCount, shard.labels.data(), shard.dist.data()});
    }

    void assignSplitImpl(ResidentShard& s, std::span<const float> children, int, Mode) override
    {
        HostShard& shard = asHost(s);
        shard.child.resize(static_cast<std::size_t>(shard.rowCount));
        shard.childDist.resize(static_cast<std::size_t>(shard.rowCount));
        forEachRow(shard.rowCount, detail::SplitNearest{shard.data, shard.colCount, children.data(),
                                                        shard.labels.data(), shard.child.data(),
                                                        shard.childDist.data()});
    }

    void updateNearestImpl(ResidentShard& s, std::span<const float> centres, int count, int firstLabel) override
    {
        HostShard& shard = asHost(s);
        if (count == 1) {
            constexpr int kRows = 8;
            forEachRow((shard.rowCount + kRows - 1) / kRows,
                       detail::UpdateNearestT<kRows>{shard.data, shard.colCount, centres.data(), firstLabel,
                                                     shard.rowCount, shard.labels.data(), shard.dist.data()});
        } else {
            searchRows(shard, centres, count, Mode::Exact, {}, {.keepNearerFrom = firstLabel});
        }
    }

    void clusterSumsImpl(ResidentShard& s, LabelSource source, SumParts parts, int k, Mode mode,
                     const FixedPointScales* scales, PartialSums& out) override
    {
        HostShard& shard = asHost(s);
        const bool split = source == LabelSource::SplitChild;
        const bool coordinates = parts == SumParts::All;
        out.reset(split ? 2 * k : k, coordinates ? static_cast<int>(shard.colCount) : 0, mode);
        accumulatePrivately(shard.rowCount, mode, scales, out, [&](const detail::SumTarget& target) {
            return detail::ClusterSumRow<PlainAdd>{shard.data,
                                                   shard.colCount,
                                                   shard.labels.data(),
                                                   split ? shard.child.data() : nullptr,
                                                   split ? shard.childDist.data() : shard.dist.data(),
                                                   target,
                                                   PlainAdd{},
                                                   coordinates};
        });
    }

    void trackedSumsImpl(ResidentShard& s, int k, Mode mode, const FixedPointScales* scales, bool restart,
                     PartialSums& out) override
    {
        HostShard& shard = asHost(s);
        const auto n = static_cast<std::size_t>(shard.rowCount);
        restart = restart || shard.tracked.groups != k || shard.countedUnder.size() != n ||
                  (mode == Mode::Exact) != !shard.tracked.fixedSums.empty();
        if (restart) {
            shard.countedUnder.resize(n);
            shard.tracked.reset(k, static_cast<int>(shard.colCount), mode);
        }
        // Every row moved costs its |x|^2, an fma chain as long as the row: over 8
        // dimensions the chains are cheaper run once, interleaved, and kept (as fast mode
        // keeps them anyway; below that they would cost memory out of proportion).
        constexpr Index kKeptNormsFromDims = 8;
        if (shard.colCount >= kKeptNormsFromDims) ensureNorms(shard);
        // What the searches since the last call moved (their rows' countedUnder says so
        // already), unless everything is recounted; then the rows nothing moved yet.
        if (!restart)
            for (const PartialSums& moved : shard.movedWhileSearching) shard.tracked.add(moved);
        PartialSums delta;
        delta.reset(k, static_cast<int>(shard.colCount), mode);
        accumulatePrivately(shard.rowCount, mode, scales, delta, [&](const detail::SumTarget& target) {
            return trackedSumRow(shard, target, restart);
        }, RowStream{shard.data, shard.colCount, restart ? nullptr : shard.labels.data(), shard.countedUnder.data()});
        shard.tracked.add(delta);
        out = shard.tracked;
        // Ready for the next searches to move rows as they go.
        shard.trackedScales = scales ? *scales : FixedPointScales{};
        shard.movedWhileSearching.resize(static_cast<std::size_t>(omp_get_max_threads()));
        for (PartialSums& moved : shard.movedWhileSearching) moved.reset(k, static_cast<int>(shard.colCount), mode);
    }

    void projectedSumsImpl(ResidentShard& s, std::span<const float> means, std::span<const float> axes, int k, Mode mode,
                       const FixedPointScales* scales, PartialSums& out) override
    {
        HostShard& shard = asHost(s);
        out.reset(k, static_cast<int>(shard.colCount), mode);
        accumulatePrivately(shard.rowCount, mode, scales, out, [&](const detail::SumTarget& target) {
            return detail::ProjectedSumRow<PlainAdd>{shard.data,  shard.colCount, shard.labels.data(), means.data(),
                                                     axes.data(), target,         PlainAdd{}};
        });
    }

    std::int64_t weightTotalImpl(ResidentShard& s, double scale) override
    {
        HostShard& shard = asHost(s);
        return thrust::transform_reduce(thrust::omp::par, thrust::counting_iterator<Index>(0),
                                        thrust::counting_iterator<Index>(shard.rowCount),
                                        detail::FixedWeight{shard.dist.data(), scale}, std::int64_t{0},
                                        thrust::plus<std::int64_t>());
    }

    void trialWeightBatchImpl(ResidentShard& s, std::span<const float> centresT, int count, double scale,
                              std::span<std::int64_t> totals) override
    {
        HostShard& shard = asHost(s);
        constexpr int kRows = 4;
        const detail::TrialTotals sums = thrust::transform_reduce(
            thrust::omp::par, thrust::counting_iterator<Index>(0),
            thrust::counting_iterator<Index>((shard.rowCount + kRows - 1) / kRows),
            detail::TrialWeightsT<kRows>{shard.data, shard.colCount, shard.rowCount, centresT.data(), count,
                                         shard.dist.data(), scale},
            detail::TrialTotals{}, detail::AddTrialTotals{});
        std::copy(sums.weight, sums.weight + count, totals.begin());
    }

    Index findByPrefixImpl(ResidentShard& s, double scale, std::int64_t target) override
    {
        // One sequential walk that stops at the row: cheaper on a CPU than a parallel
        // scan of every row (the CUDA twin scans), and the same integer prefix.
        HostShard& shard = asHost(s);
        const detail::FixedWeight weight{shard.dist.data(), scale};
        std::int64_t prefix = 0;
        for (Index i = 0; i < shard.rowCount; ++i) {
            prefix += weight(i);
            if (prefix > target) return i;
        }
        return shard.rowCount - 1;
    }

    std::vector<Index> oversampleImpl(ResidentShard& s, double scale, double factor, std::int64_t total,
                                  std::uint64_t seed, std::uint64_t round) override
    {
        HostShard& shard = asHost(s);
        std::vector<Index> kept(static_cast<std::size_t>(shard.rowCount));
        const detail::OversampleKeep keep{shard.dist.data(), scale, factor, static_cast<double>(total),
                                          seed,              round, shard.firstRow};
        const auto end = thrust::copy_if(thrust::omp::par, thrust::counting_iterator<Index>(0),
                                         thrust::counting_iterator<Index>(shard.rowCount), kept.begin(), keep);
        kept.resize(static_cast<std::size_t>(end - kept.begin()));
        return kept;
    }

    void copyRowsImpl(ResidentShard& s, std::span<const Index> localRows, std::span<float> out) override
    {
        HostShard& shard = asHost(s);
        const Index d = shard.colCount;
        for (std::size_t r = 0; r < localRows.size(); ++r)
            std::copy_n(shard.data + localRows[r] * d, d, out.data() + static_cast<Index>(r) * d);
    }

    void downloadLabelsImpl(ResidentShard& s, std::span<std::int32_t> out) override
    {
        HostShard& shard = asHost(s);
        std::copy(shard.labels.begin(), shard.labels.end(), out.begin());
    }

    void downloadDistancesImpl(ResidentShard& s, std::span<float> out) override
    {
        HostShard& shard = asHost(s);
        std::copy(shard.dist.begin(), shard.dist.end(), out.begin());
    }

private:
    // Nearest centroid for every row (rows empty) or the listed rows, optionally
    // refreshing the Hamerly bounds. Up to kTileDims dimensions: the tile kernels
    // (tile_search.h), both modes. More: in fast mode, OpenBLAS blocks + FastArgmin, where
    // a GEMM runs near peak; in exact mode (and for row lists) ExactNearestT or FastNearestT.
    static void searchRows(HostShard& shard, std::span<const float> centroids, int k, Mode mode,
                           std::span<const Index> rows, SearchOutput output)
    {
        if (mode == Mode::Fast && rows.empty() && output.keepNearerFrom < 0 && shard.colCount > host::kTileDims) {
            assignByGemm(shard, centroids, k, output.bounds);
            return;
        }
        if (shard.colCount <= host::kTileDims) {
            searchTiled(shard, centroids, k, mode, rows, output);
            return;
        }
        // Lane blocks sized to k so padding wastes little.
        if (k <= 16) searchBlocked<16>(shard, centroids, k, mode, rows, output);
        else if (k <= 32) searchBlocked<32>(shard, centroids, k, mode, rows, output);
        else searchBlocked<64>(shard, centroids, k, mode, rows, output);
    }

    // Where a search reads its rows and writes besides labels and distances.
    struct Targets {
        Index count;
        const Index* rowIndex;  // null: rows 0..count-1
        float* upper;
        float* lower;
        bool keep;
        int labelOffset;
    };

    static Targets targets(HostShard& shard, std::span<const Index> rows, SearchOutput output)
    {
        const bool keep = output.keepNearerFrom >= 0;
        return {rows.empty() ? shard.rowCount : static_cast<Index>(rows.size()),
                rows.empty() ? nullptr : rows.data(),
                output.bounds ? shard.upper.data() : nullptr,
                output.bounds ? shard.lower.data() : nullptr,
                keep,
                keep ? output.keepNearerFrom : 0};
    }

    static detail::TrackedSumRow<PlainAdd> trackedSumRow(HostShard& shard, const detail::SumTarget& target, bool restart)
    {
        return {shard.data,  shard.colCount, shard.labels.data(), shard.countedUnder.data(), restart, target, PlainAdd{},
                shard.norms.empty() ? nullptr : shard.norms.data()};
    }

    // A tile search that moves, as it goes, the rows whose label it changed in the
    // tracked sums, each into its thread's HostShard::movedWhileSearching: the rows are
    // in cache then, where trackedSums would fetch them again (at d = 512, or early on
    // when many rows move, the update step cost a third of the search). Only for a plain
    // search at the tracked k and mode, once trackedSums has set the sums up.
    struct TrackingWhileSearching {
        std::vector<detail::TrackedSumRow<PlainAdd>> perThread;

        static TrackingWhileSearching of(HostShard& shard, int k, Mode mode, SearchOutput output)
        {
            TrackingWhileSearching tracking;
            const bool applies = output.keepNearerFrom < 0 && shard.tracked.groups == k &&
                                 shard.countedUnder.size() == static_cast<std::size_t>(shard.rowCount) &&
                                 (mode == Mode::Exact) == !shard.tracked.fixedSums.empty() &&
                                 shard.movedWhileSearching.size() == static_cast<std::size_t>(omp_get_max_threads());
            if (!applies) return tracking;
            const FixedPointScales* scales = mode == Mode::Exact ? &shard.trackedScales : nullptr;
            for (PartialSums& moved : shard.movedWhileSearching)
                tracking.perThread.push_back(trackedSumRow(shard, sumTarget(moved, mode, scales), false));
            return tracking;
        }

        host::TileJob::RowsDone done() const
        {
            if (perThread.empty()) return {};
            return {[](const void* context, int thread, const Index* rowIndex, Index first, int count) {
                        // A copy: stores into the sums could alias the functor's own
                        // fields for all the compiler knows, and would keep it from
                        // vectorising the row's contribution.
                        const detail::TrackedSumRow<PlainAdd> row =
                            static_cast<const TrackingWhileSearching*>(context)->perThread[static_cast<std::size_t>(thread)];
                        for (int r = 0; r < count; ++r) row(rowIndex ? rowIndex[first + r] : first + r);
                    },
                    this};
        }
    };

    // Up to kTileDims dimensions: rows side by side in SIMD lanes (tile_search.h).
    static void searchTiled(HostShard& shard, std::span<const float> centroids, int k, Mode mode,
                            std::span<const Index> rows, SearchOutput output)
    {
        const Index d = shard.colCount;
        const Targets t = targets(shard, rows, output);
        host::TileJob job{shard.data, d, centroids.data(), nullptr, nullptr, k, t.count, shard.labels.data(),
                          shard.dist.data(), t.rowIndex, t.upper, t.lower, 0.f, t.keep, t.labelOffset};
        std::vector<float> centroidNorms;
        if (mode == Mode::Fast) {
            ensureNorms(shard);
            centroidNorms = squaredNorms(centroids, d);
            job.centroidNorms = centroidNorms.data();
            job.rowNorms = shard.norms.data();
            job.maxCentroidNorm = maxOf(centroidNorms);
        }
        const TrackingWhileSearching tracking = TrackingWhileSearching::of(shard, k, mode, output);
        job.done = tracking.done();
        host::searchTiles(job, mode == Mode::Exact);
    }

    template <int Lanes>
    static void searchBlocked(HostShard& shard, std::span<const float> centroids, int k, Mode mode,
                              std::span<const Index> rows, SearchOutput output)
    {
        constexpr int kRows = 2;  // two rows per call: enough independent fma chains
        const Index d = shard.colCount;
        const int kPadded = (k + Lanes - 1) / Lanes * Lanes;
        std::vector<float> transposed(static_cast<std::size_t>(kPadded * d), 0.f);
        for (int c = 0; c < k; ++c)
            for (Index j = 0; j < d; ++j) transposed[j * kPadded + c] = centroids[c * d + j];
        const Targets t = targets(shard, rows, output);
        const Index calls = (t.count + kRows - 1) / kRows;
        if (mode == Mode::Exact) {
            forEachRow(calls, detail::ExactNearestT<Lanes, kRows>{shard.data, d, transposed.data(), k, kPadded, t.count,
                                                                  shard.labels.data(), shard.dist.data(), t.rowIndex,
                                                                  t.upper, t.lower, nullptr, nullptr, 0.f, t.keep,
                                                                  t.labelOffset});
            return;
        }
        ensureNorms(shard);
        const std::vector<float> centroidNorms = squaredNorms(centroids, d, static_cast<std::size_t>(kPadded));
        forEachRow(calls, detail::FastNearestT<Lanes, kRows>{shard.data, d, transposed.data(), k, kPadded, t.count,
                                                             shard.labels.data(), shard.dist.data(), t.rowIndex, t.upper,
                                                             t.lower, centroidNorms.data(), shard.norms.data(),
                                                             maxOf(centroidNorms), t.keep, t.labelOffset});
    }

    // shard.inDoubt = the rows whose needsSearch flag is set, in increasing order: among
    // all rows, or (among) among those already listed there. Each thread scans a
    // contiguous chunk into its own list; thrust::copy_if's scan-based compaction costs
    // ten times more here.
    static void listFlaggedRows(HostShard& shard, bool among)
    {
        const std::uint8_t* flags = shard.needsSearch.data();
        const Index* listed = shard.inDoubt.data();
        const Index n = among ? static_cast<Index>(shard.inDoubt.size()) : shard.rowCount;
        const int threads = omp_get_max_threads();
        // Room for a whole chunk per thread, made outside the parallel region (nothing
        // may throw inside one) and kept on the shard for the next call.
        auto& found = shard.flaggedByThread;
        found.resize(static_cast<std::size_t>(threads));
        const auto chunk = static_cast<std::size_t>((n + threads - 1) / threads);
        for (auto& part : found)
            if (part.size() < chunk) part.resize(chunk);
        std::vector<Index> counts(static_cast<std::size_t>(threads), 0);
#pragma omp parallel num_threads(threads)
        {
            const int thread = omp_get_thread_num();
            const int team = omp_get_num_threads();
            Index* out = found[static_cast<std::size_t>(thread)].data();
            Index count = 0;
            const auto [first, end] = threadRows(n, thread, team);
            for (Index e = first; e < end; ++e) {
                const Index row = among ? listed[e] : e;
                out[count] = row;
                count += flags[row] != 0;
            }
            counts[static_cast<std::size_t>(thread)] = count;
        }
        shard.inDoubt.clear();
        for (std::size_t t = 0; t < found.size(); ++t)
            shard.inDoubt.insert(shard.inDoubt.end(), found[t].begin(), found[t].begin() + counts[t]);
    }

    // The share of rows in doubt among rows 0, kDoubtSample, 2 kDoubtSample, ..., less
    // three standard errors of that estimate (so a full pass is taken on the sample's
    // word only when the share surely exceeds the limit); none for a shard too small
    // to sample (checking all of it costs little, and its timings are mostly noise).
    static std::optional<double> sampledDoubtShare(const detail::BoundedCheck& check, Index rows)
    {
        constexpr Index kDoubtSample = 64;
        if (rows < 64 * kDoubtSample) return std::nullopt;
        Index inDoubt = 0;
        for (Index i = 0; i < rows; i += kDoubtSample) {
            float l, u;
            inDoubt += check.inDoubt(i, l, u) ? 1 : 0;
        }
        const double sampled = static_cast<double>((rows + kDoubtSample - 1) / kDoubtSample);
        const double share = static_cast<double>(inDoubt) / sampled;
        return std::max(0.0, share - 3.0 * std::sqrt(share * (1.0 - share) / sampled));
    }

    static void ensureNorms(HostShard& shard)
    {
        if (shard.norms.size() == static_cast<std::size_t>(shard.rowCount)) return;
        shard.norms.resize(static_cast<std::size_t>(shard.rowCount));
        computeNorms(shard, shard.norms.data());
    }

    static void computeNorms(const HostShard& shard, float* out)
    {
        constexpr int kRows = 8;
        forEachRow((shard.rowCount + kRows - 1) / kRows,
                   detail::RowNormT<kRows>{shard.data, shard.colCount, out, shard.rowCount});
    }

    static void assignByGemm(HostShard& shard, std::span<const float> centroids, int k, bool bounds)
    {
        const Index d = shard.colCount;
        ensureNorms(shard);
        const std::vector<float> centroidNorms = squaredNorms(centroids, d);
        const float maxCentroidNorm = maxOf(centroidNorms);
        const Index blocks = (shard.rowCount + kGemmBlockRows - 1) / kGemmBlockRows;
        const int threads = omp_get_max_threads();
        std::vector<float> scratch(static_cast<std::size_t>(threads * kGemmBlockRows * k));  // outside: may throw
#pragma omp parallel num_threads(threads)
        {
            float* dots = scratch.data() + omp_get_thread_num() * kGemmBlockRows * k;
#pragma omp for schedule(static)
            for (Index b = 0; b < blocks; ++b) {
                const Index first = b * kGemmBlockRows;
                const Index count = std::min(kGemmBlockRows, shard.rowCount - first);
                host::gemmABt(shard.data + first * d, centroids.data(), dots, count, k, d);
                const detail::FastArgmin argmin{dots,                 shard.norms.data(),
                                                centroidNorms.data(), k,
                                                first,                shard.labels.data(),
                                                shard.dist.data(),    bounds ? shard.upper.data() : nullptr,
                                                bounds ? shard.lower.data() : nullptr, d,
                                                maxCentroidNorm};
                for (Index r = 0; r < count; ++r) argmin(r);
            }
        }
    }
};

}  // namespace

std::unique_ptr<Backend> createHostBackend()
{
    return std::make_unique<HostBackend>();
}

}  // namespace clusterdesk::kernels
