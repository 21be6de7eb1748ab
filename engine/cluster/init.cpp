#include "init.h"

#include "../core/error.h"
#include "kernels/row_functors.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace clusterdesk {
namespace {

using kernels::detail::counterUniform;

// Stream identifiers keep the draws of different purposes apart.
constexpr std::uint64_t kFirstCentreStream = 0x6669727374ULL;
constexpr std::uint64_t kPlusPlusStream = 0x2b2b000000ULL;
constexpr std::uint64_t kParallelStream = 0x7c7c000000ULL;
constexpr std::uint64_t kReclusterStream = 0x7265636cULL;

std::int64_t uniformIndex(std::uint64_t seed, std::uint64_t stream, std::int64_t count)
{
    const double u = counterUniform(seed, stream, 0);  // (0, 1]
    const auto index = static_cast<std::int64_t>(std::floor((1.0 - u) * static_cast<double>(count)));
    return std::clamp<std::int64_t>(index, 0, count - 1);
}

// `draws` global rows, each the row whose prefix of fixed-point weights (in global row
// order) passes a uniform draw (counter 0, 1, ... of the stream): D^2 sampling that no
// sharding can change.
std::vector<std::int64_t> sampleByWeight(ShardContext& ctx, const ScaleSet& scales, std::uint64_t seed,
                                         std::uint64_t stream, int draws)
{
    const std::int64_t local = ctx.backend.weightTotal(ctx.shard, scales.sums.distance);
    const std::vector<std::int64_t> totals = allgatherValues<std::int64_t>(ctx.comm, std::span(&local, 1));
    const std::int64_t total = std::accumulate(totals.begin(), totals.end(), std::int64_t{0});
    if (total <= 0) return {uniformIndex(seed, stream, ctx.totalRows)};  // every row sits on a centre

    std::int64_t offset = 0;
    for (int r = 0; r < ctx.comm.rank(); ++r) offset += totals[static_cast<std::size_t>(r)];
    std::vector<double> picks(static_cast<std::size_t>(draws), -1.0);
    for (int t = 0; t < draws; ++t) {
        const double u = counterUniform(seed, stream, static_cast<std::uint64_t>(t));
        const auto target = std::clamp<std::int64_t>(static_cast<std::int64_t>(std::floor((1.0 - u) * static_cast<double>(total))), 0, total - 1);
        if (target >= offset && target < offset + local)
            picks[static_cast<std::size_t>(t)] = static_cast<double>(
                ctx.shard.firstGlobalRow() + ctx.backend.findByPrefix(ctx.shard, scales.sums.distance, target - offset));
    }
    ctx.comm.allreduceMax(picks);
    std::vector<std::int64_t> rows;
    for (double pick : picks) rows.push_back(static_cast<std::int64_t>(pick));
    return rows;
}

// Of the candidate rows (fetched, one after another), the one that leaves the least
// total weight once added; the first such on a tie.
std::size_t leastWeightLeft(ShardContext& ctx, const ScaleSet& scales, const std::vector<float>& candidates)
{
    std::vector<std::int64_t> left = ctx.backend.trialWeightTotals(ctx.shard, candidates, scales.sums.distance);
    ctx.comm.allreduceSum(left);
    return static_cast<std::size_t>(std::min_element(left.begin(), left.end()) - left.begin());
}

// All ranks stop together: rank 0's flag travels in an all-reduce.
void stopIfCancelled(ShardContext& ctx, const RunControl& control)
{
    std::vector<std::int64_t> flag{ctx.comm.rank() == 0 && control.cancel && control.cancel->load() ? 1 : 0};
    ctx.comm.allreduceSum(flag);
    if (flag[0] != 0) throw Cancelled("cancelled while choosing the initial centroids");
}

// Greedy k-means++, as scikit-learn runs it: each centre after the first is the best of
// 2 + ln k weighted draws, the one leaving the least total weight. One draw alone often
// puts two centres in one of several moderately separated groups (ten sectors whose
// members correlate 0.7 with each other and 0.3 with the rest); the Lloyd steps after
// cannot undo that split and merge, and ten such starts in a row can all miss.
std::vector<float> kmeansPlusPlus(ShardContext& ctx, const KMeansParams& params, int k, const ScaleSet& scales,
                                  const RunControl& control)
{
    const std::int64_t d = ctx.cols;
    const int trials = 2 + static_cast<int>(std::log(static_cast<double>(k)));
    std::vector<float> centroids(static_cast<std::size_t>(k * d));
    for (int c = 0; c < k; ++c) {
        std::vector<float> centre;
        if (c == 0) {
            const std::int64_t row = uniformIndex(params.seed, kFirstCentreStream, ctx.totalRows);
            centre = fetchRows(ctx, std::span(&row, 1));
        } else {
            stopIfCancelled(ctx, control);
            const std::vector<std::int64_t> rows =
                sampleByWeight(ctx, scales, params.seed, kPlusPlusStream + static_cast<std::uint64_t>(c), trials);
            const std::vector<float> candidates = fetchRows(ctx, rows);
            const std::size_t best = rows.size() > 1 ? leastWeightLeft(ctx, scales, candidates) : 0;
            centre.assign(candidates.begin() + static_cast<std::ptrdiff_t>(best * static_cast<std::size_t>(d)),
                          candidates.begin() + static_cast<std::ptrdiff_t>((best + 1) * static_cast<std::size_t>(d)));
        }
        std::copy(centre.begin(), centre.end(), centroids.begin() + c * d);
        // The first centre is a plain exact assignment, so no earlier distance (e.g. from
        // k-means|| falling back here) survives; later ones keep the nearer centre.
        if (c == 0) ctx.backend.assign(ctx.shard, centre, 1, kernels::Mode::Exact, kernels::Precision::FP32);
        else ctx.backend.updateNearest(ctx.shard, centre, c);
    }
    return centroids;
}

// Weighted k-means++ then weighted Lloyd on a small candidate set, on the host. Every
// rank computes it from identical inputs, so every rank gets identical centroids.
std::vector<float> reclusterCandidates(const std::vector<float>& candidates, const std::vector<std::int64_t>& weights,
                                       std::int64_t d, int k, std::uint64_t seed)
{
    const auto m = static_cast<std::int64_t>(weights.size());
    auto distance = [&](const float* a, const float* b) {
        return static_cast<double>(kernels::detail::exactSquaredDistance(a, b, d));
    };
    std::vector<std::int64_t> chosen;
    std::vector<double> nearest(static_cast<std::size_t>(m), std::numeric_limits<double>::infinity());
    for (int c = 0; c < k; ++c) {
        std::int64_t pick = 0;
        if (c == 0) {
            pick = std::max_element(weights.begin(), weights.end()) - weights.begin();
        } else {
            double total = 0;
            for (std::int64_t i = 0; i < m; ++i) total += static_cast<double>(weights[static_cast<std::size_t>(i)]) * nearest[static_cast<std::size_t>(i)];
            const double target = (1.0 - counterUniform(seed, kReclusterStream, static_cast<std::uint64_t>(c))) * total;
            double running = 0;
            pick = m - 1;
            for (std::int64_t i = 0; i < m; ++i) {
                running += static_cast<double>(weights[static_cast<std::size_t>(i)]) * nearest[static_cast<std::size_t>(i)];
                if (running > target) {
                    pick = i;
                    break;
                }
            }
        }
        chosen.push_back(pick);
        for (std::int64_t i = 0; i < m; ++i)
            nearest[static_cast<std::size_t>(i)] = std::min(nearest[static_cast<std::size_t>(i)], distance(&candidates[i * d], &candidates[pick * d]));
    }
    std::vector<float> centroids(static_cast<std::size_t>(k * d));
    for (int c = 0; c < k; ++c) std::copy_n(&candidates[chosen[static_cast<std::size_t>(c)] * d], d, &centroids[c * d]);

    // A few weighted Lloyd steps polish the seeds.
    std::vector<int> label(static_cast<std::size_t>(m));
    for (int step = 0; step < 10; ++step) {
        for (std::int64_t i = 0; i < m; ++i) {
            double best = std::numeric_limits<double>::infinity();
            for (int c = 0; c < k; ++c) {
                const double dist = distance(&candidates[i * d], &centroids[c * d]);
                if (dist < best) {
                    best = dist;
                    label[static_cast<std::size_t>(i)] = c;
                }
            }
        }
        std::vector<double> sums(static_cast<std::size_t>(k * d), 0.0);
        std::vector<double> mass(static_cast<std::size_t>(k), 0.0);
        for (std::int64_t i = 0; i < m; ++i) {
            const int c = label[static_cast<std::size_t>(i)];
            const double w = static_cast<double>(weights[static_cast<std::size_t>(i)]);
            mass[static_cast<std::size_t>(c)] += w;
            for (std::int64_t j = 0; j < d; ++j) sums[c * d + j] += w * candidates[i * d + j];
        }
        for (int c = 0; c < k; ++c)
            if (mass[static_cast<std::size_t>(c)] > 0)
                for (std::int64_t j = 0; j < d; ++j) centroids[c * d + j] = static_cast<float>(sums[c * d + j] / mass[static_cast<std::size_t>(c)]);
    }
    return centroids;
}

std::vector<float> kmeansParallel(ShardContext& ctx, const KMeansParams& params, int k, const ScaleSet& scales,
                                  const RunControl& control)
{
    const std::int64_t d = ctx.cols;
    std::int64_t first = uniformIndex(params.seed, kFirstCentreStream, ctx.totalRows);
    std::vector<float> candidates = fetchRows(ctx, std::span(&first, 1));
    // Every row keeps its nearest candidate so far; each round only measures the new
    // ones, so a round costs its own picks, not all the candidates before it.
    ctx.backend.assign(ctx.shard, candidates, 1, kernels::Mode::Exact, kernels::Precision::FP32);
    const double factor = params.oversampling * k;
    for (int round = 1; round <= params.parallelRounds; ++round) {
        stopIfCancelled(ctx, control);
        std::vector<std::int64_t> total{ctx.backend.weightTotal(ctx.shard, scales.sums.distance)};
        ctx.comm.allreduceSum(total);
        if (total[0] == 0) break;
        std::vector<std::int64_t> picked;
        for (std::int64_t r : ctx.backend.oversample(ctx.shard, scales.sums.distance, factor, total[0], params.seed,
                                                     kParallelStream + static_cast<std::uint64_t>(round)))
            picked.push_back(ctx.shard.firstGlobalRow() + r);
        const std::vector<std::int64_t> all = allgatherValues<std::int64_t>(ctx.comm, picked);
        if (all.empty()) continue;
        const std::vector<float> rows = fetchRows(ctx, all);
        const auto before = static_cast<int>(candidates.size() / static_cast<std::size_t>(d));
        ctx.backend.updateNearest(ctx.shard, rows, before);
        candidates.insert(candidates.end(), rows.begin(), rows.end());
    }
    const auto count = static_cast<int>(candidates.size() / static_cast<std::size_t>(d));
    if (count <= k) {
        // Too few candidates to choose from (tiny or degenerate data): plain k-means++.
        return kmeansPlusPlus(ctx, params, k, scales, control);
    }
    // Each candidate weighs as many rows as it is nearest to (the labels are just that).
    kernels::PartialSums partial;
    ctx.backend.clusterSums(ctx.shard, kernels::LabelSource::Cluster, kernels::SumParts::CountsAndDistances, count,
                            params.mode, &scales.sums, partial);
    std::vector<std::int64_t> weights = partial.counts;
    ctx.comm.allreduceSum(weights);
    return reclusterCandidates(candidates, weights, d, k, params.seed);
}

}  // namespace

std::vector<float> initialCentroids(ShardContext& ctx, const KMeansParams& params, int k, const ScaleSet& scales,
                                    const RunControl& control)
{
    switch (params.init) {
    case InitMethod::Given: return params.initialCentroids;  // shape checked by validate()
    case InitMethod::KMeansParallel: return kmeansParallel(ctx, params, k, scales, control);
    case InitMethod::KMeansPlusPlus: return kmeansPlusPlus(ctx, params, k, scales, control);
    }
    throw UsageError("unknown initialisation method");
}

}  // namespace clusterdesk
