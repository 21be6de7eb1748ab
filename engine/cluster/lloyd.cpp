#include "lloyd.h"

#include "init.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <numeric>

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
    for (int it = 0; it < m_params.maxIterations; ++it) {
        IterationStats stats;
        stats.round = round;
        stats.k = k;
        if (it == 0) stats.event = event;

        auto start = Clock::now();
        m_ctx.backend.assign(m_ctx.shard, centroids, k, m_params.mode, m_params.precision);
        stats.assignMs = msSince(start);

        start = Clock::now();
        m_ctx.backend.clusterSums(m_ctx.shard, kernels::LabelSource::Cluster, k, m_params.mode, &m_scales.sums, partial);
        stats.updateMs = msSince(start);

        start = Clock::now();
        const GlobalSums sums = reduceSums(m_ctx, partial, m_params.mode, m_scales.sums, cancelRequested());
        stats.reduceMs = msSince(start);

        start = Clock::now();
        centroidsFromSums(sums, m_ctx.cols, centroids);
        reseedEmpty(centroids, sums);
        stats.updateMs += msSince(start);

        stats.inertia = totalInertia(sums);
        stats.sizes = sums.counts;
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
        if (change <= m_params.tolerance * std::max(inertia, 1e-300)) {
            outcome.converged = true;
            break;
        }
        previous = inertia;
    }
    return outcome;
}

Assignment Lloyd::assignAll(const std::vector<float>& centroids, int k)
{
    m_ctx.backend.assign(m_ctx.shard, centroids, k, m_params.mode, m_params.precision);
    kernels::PartialSums partial;
    m_ctx.backend.clusterSums(m_ctx.shard, kernels::LabelSource::Cluster, k, m_params.mode, &m_scales.sums, partial);
    const GlobalSums sums = reduceSums(m_ctx, partial, m_params.mode, m_scales.sums, false);
    return {sums.counts, sums.withinSS, totalInertia(sums)};
}

void Lloyd::reseedEmpty(std::vector<float>& centroids, const GlobalSums& sums)
{
    std::vector<int> empty;
    for (std::size_t g = 0; g < sums.counts.size(); ++g)
        if (sums.counts[g] == 0) empty.push_back(static_cast<int>(g));
    if (empty.empty()) return;

    // The rows farthest from their centroid, (distance desc, global row asc): each rank
    // offers its own top candidates, every rank picks the same global top.
    const auto wanted = empty.size();
    std::vector<float> dist(static_cast<std::size_t>(m_ctx.shard.rows()));
    m_ctx.backend.downloadDistances(m_ctx.shard, dist);
    std::vector<std::int64_t> order(dist.size());
    std::iota(order.begin(), order.end(), 0);
    const auto byFarthest = [&](std::int64_t a, std::int64_t b) {
        return dist[static_cast<std::size_t>(a)] != dist[static_cast<std::size_t>(b)]
                   ? dist[static_cast<std::size_t>(a)] > dist[static_cast<std::size_t>(b)]
                   : a < b;
    };
    const auto top = std::min(wanted, order.size());
    std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(top), order.end(), byFarthest);
    std::vector<double> offers;  // (distance, global row) pairs
    for (std::size_t i = 0; i < top; ++i) {
        offers.push_back(dist[static_cast<std::size_t>(order[i])]);
        offers.push_back(static_cast<double>(m_ctx.shard.firstGlobalRow() + order[i]));
    }
    std::vector<double> all = allgatherValues<double>(m_ctx.comm, offers);
    std::vector<std::pair<double, std::int64_t>> candidates;
    for (std::size_t i = 0; i + 1 < all.size(); i += 2) candidates.emplace_back(all[i], static_cast<std::int64_t>(all[i + 1]));
    std::sort(candidates.begin(), candidates.end(), [](const auto& a, const auto& b) {
        return a.first != b.first ? a.first > b.first : a.second < b.second;
    });
    std::vector<std::int64_t> rows;
    for (std::size_t i = 0; i < std::min(wanted, candidates.size()); ++i) rows.push_back(candidates[i].second);
    const std::vector<float> values = fetchRows(m_ctx, rows);
    const auto d = static_cast<std::size_t>(m_ctx.cols);
    for (std::size_t i = 0; i < rows.size(); ++i)
        std::copy_n(values.begin() + static_cast<std::ptrdiff_t>(i * d), d,
                    centroids.begin() + static_cast<std::ptrdiff_t>(static_cast<std::size_t>(empty[i]) * d));
}

ClusterResult runKMeans(ShardContext& ctx, const KMeansParams& params, const RunControl& control)
{
    ClusterResult result;
    result.cols = ctx.cols;
    const ScaleSet scales = computeScales(ctx);
    std::vector<float> centroids = initialCentroids(ctx, params, params.k, scales);
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
