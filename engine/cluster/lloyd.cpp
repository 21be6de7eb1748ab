#include "lloyd.h"

#include "init.h"

#include "engine/core/test_hooks.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <numeric>
#include <optional>

namespace clusterdesk {
namespace {

using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point start)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

double totalInertia(const GlobalSums& sums)
{
    return std::accumulate(sums.withinSS.begin(), sums.withinSS.end(), 0.0);
}

}  // namespace

Lloyd::Lloyd(ShardContext& ctx, const KMeansParams& params, const ScaleSet& scales, const RunControl& control,
             ClusterResult& result)
    : m_ctx(ctx), m_params(params), m_scales(scales), m_control(control), m_result(result)
{
}

bool Lloyd::cancelRequested() const
{
    return m_ctx.comm.rank() == 0 && m_control.cancel && m_control.cancel->load(std::memory_order_relaxed);
}

LloydOutcome Lloyd::run(std::vector<float>& centroids, int k, int round, const std::string& event)
{
    LloydOutcome outcome;
    double previous = std::numeric_limits<double>::infinity();
    kernels::PartialSums partial;
    const bool endless = test_hooks::endlessRuns();
    for (int it = 0; endless || it < m_params.maxIterations; ++it) {
        IterationStats stats;
        stats.round = round;
        stats.k = k;
        if (it == 0) stats.event = event;

        auto start = Clock::now();
        const std::int64_t searched = assignRows(centroids, k);
        stats.assignMs = msSince(start);

        start = Clock::now();
        m_ctx.backend.trackedSums(m_ctx.shard, k, m_params.mode, &m_scales.sums, restartSums(it), partial);
        stats.updateMs = msSince(start);

        start = Clock::now();
        GlobalSums sums = reduceSums(m_ctx, partial, m_params.mode, m_scales.sums, {cancelRequested(), searched});
        stats.reduceMs = msSince(start);

        start = Clock::now();
        sums.withinSS = withinFromNorms(sums, centroids, m_ctx.cols);
        centroidsFromSums(sums, m_ctx.cols, centroids);
        const bool reseeded = reseedEmpty(centroids, sums);
        stats.updateMs += msSince(start);
        // Every rank's phase times (24 bytes each), so progress shows which rank the
        // others wait for in the reduce.
        const RankTiming mine{stats.assignMs, stats.updateMs, stats.reduceMs};
        stats.ranks = allgatherValues(m_ctx.comm, std::span<const RankTiming>(&mine, 1));

        stats.inertia = totalInertia(sums);
        stats.sizes = sums.counts;
        stats.rowsSearched = sums.rowsSearched;
        stats.iteration = ++m_result.iterations;
        ++outcome.iterations;
        if (m_ctx.comm.rank() == 0 && m_control.onIteration) m_control.onIteration(stats);
        m_result.history.push_back(std::move(stats));

        if (sums.cancel) {
            outcome.cancelled = true;
            break;
        }
        const double inertia = m_result.history.back().inertia;
        const double change = std::fabs(previous - inertia);
        // A re-seeded centroid is a bare row, not yet a mean: never stop right after one.
        if (!endless && !reseeded && change <= m_params.tolerance * std::max(inertia, 1e-300)) {
            outcome.converged = true;
            break;
        }
        previous = inertia;
    }
    return outcome;
}

Assignment Lloyd::assignAll(const std::vector<float>& centroids, int k)
{
    // Per-row distances summed, rather than the iterations' |x|^2 expansion: the result
    // (reported inertia, split and merge tests) gets no cancellation error, and a point on its own
    // centroid adds exactly zero.
    assignRows(centroids, k);
    m_ctx.backend.refreshDistances(m_ctx.shard, centroids, k);
    kernels::PartialSums partial;
    m_ctx.backend.clusterSums(m_ctx.shard, kernels::LabelSource::Cluster, kernels::SumParts::CountsAndDistances, k, m_params.mode, &m_scales.sums, partial);
    const GlobalSums sums = reduceSums(m_ctx, partial, m_params.mode, m_scales.sums);
    return {sums.counts, sums.withinSS, totalInertia(sums)};
}

bool Lloyd::restartSums(int iteration) const
{
    // Exact sums are integers: moving rows between clusters never drifts. Fast mode's
    // doubles are recounted now and then so that rounding cannot accumulate.
    constexpr int kFastRecount = 25;
    return m_params.mode == kernels::Mode::Fast && iteration > 0 && iteration % kFastRecount == 0;
}

std::int64_t Lloyd::assignRows(const std::vector<float>& centroids, int k)
{
    // The motion is measured from the centroids of the previous bounded call (same k);
    // the backend itself restarts the bounds if labels were rewritten in between.
    std::optional<kernels::CentroidMotion> motion;
    if (m_assignedWith.size() == centroids.size()) motion = kernels::measureMotion(m_assignedWith, centroids, m_ctx.cols);
    const std::int64_t searched = m_ctx.backend.assignBounded(m_ctx.shard, centroids, k, m_params.mode, m_params.precision,
                                                              motion ? &*motion : nullptr);
    m_assignedWith = centroids;
    return searched;
}

bool Lloyd::reseedEmpty(std::vector<float>& centroids, const GlobalSums& sums)
{
    // Farthest-first: each empty cluster takes the row farthest from every centroid so
    // far, then that row becomes a centre (as in k-means++), so several empty clusters
    // spread out instead of piling into one far blob. Ties go to the lowest global row,
    // so every topology picks the same rows. When every row already sits on a centroid
    // (fewer distinct rows than clusters) there is nothing to move: the cluster stays
    // empty and the run may converge.
    if (std::find(sums.counts.begin(), sums.counts.end(), 0) == sums.counts.end()) return false;
    const auto d = static_cast<std::size_t>(m_ctx.cols);
    std::vector<float> dist(static_cast<std::size_t>(m_ctx.shard.rows()));
    // Fresh labels and distances to the new centroids: bounded assignment leaves some
    // distances stale, and the farthest rows must be judged on current ones.
    m_ctx.backend.assign(m_ctx.shard, centroids, static_cast<int>(sums.counts.size()), m_params.mode, m_params.precision);
    bool reseeded = false;
    for (std::size_t g = 0; g < sums.counts.size(); ++g) {
        if (sums.counts[g] != 0) continue;
        m_ctx.backend.downloadDistances(m_ctx.shard, dist);
        std::size_t local = 0;
        for (std::size_t i = 1; i < dist.size(); ++i)
            if (dist[i] > dist[local]) local = i;
        const std::vector<double> offer{static_cast<double>(dist[local]),
                                        static_cast<double>(m_ctx.shard.firstGlobalRow() + static_cast<std::int64_t>(local))};
        const std::vector<double> offers = allgatherValues<double>(m_ctx.comm, offer);
        std::size_t best = 0;
        for (std::size_t r = 2; r + 1 < offers.size(); r += 2)
            if (offers[r] > offers[best]) best = r;  // ranks hold rows in order: first max = lowest row
        if (!(offers[best] > 0)) return reseeded;
        reseeded = true;
        const std::int64_t row = static_cast<std::int64_t>(offers[best + 1]);
        const std::vector<float> values = fetchRows(m_ctx, std::span(&row, 1));
        std::copy(values.begin(), values.end(), centroids.begin() + static_cast<std::ptrdiff_t>(g * d));
        m_ctx.backend.updateNearest(m_ctx.shard, values, static_cast<int>(g));
    }
    return reseeded;
}

ClusterResult runKMeans(ShardContext& ctx, const KMeansParams& params, const RunControl& control)
{
    ClusterResult result;
    result.cols = ctx.cols;
    const auto initStart = Clock::now();
    const ScaleSet scales = computeScales(ctx);
    std::vector<float> centroids = initialCentroids(ctx, params, params.k, scales, control);
    result.initMs = msSince(initStart);
    Lloyd lloyd(ctx, params, scales, control, result);
    const LloydOutcome outcome = lloyd.run(centroids, params.k, 0, {});
    const Assignment final = lloyd.assignAll(centroids, params.k);
    result.k = params.k;
    result.centroids = std::move(centroids);
    result.sizes = final.sizes;
    result.inertia = final.inertia;
    result.converged = outcome.converged;
    result.cancelled = outcome.cancelled;
    result.labels = gatherLabels(ctx);
    return result;
}

}  // namespace clusterdesk
