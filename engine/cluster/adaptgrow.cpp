#include "adaptgrow.h"

#include "growth_log.h"
#include "init.h"
#include "kernels/row_functors.h"
#include "lloyd.h"
#include "split_criterion.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <numbers>
#include <string>

namespace clusterdesk {
namespace {

constexpr int kPowerIterations = 5;
constexpr std::uint64_t kAxisStream = 0x61786573ULL;
// A child of one row is an outlier, not a group: in a handful of assets the one with the
// most idiosyncratic risk always sits apart, whatever the window.
constexpr std::int64_t kMinChildRows = 2;

using Index = std::int64_t;

double normalise(float* v, Index d)
{
    double norm = 0;
    for (Index j = 0; j < d; ++j) norm += static_cast<double>(v[j]) * v[j];
    norm = std::sqrt(norm);
    if (norm > 0)
        for (Index j = 0; j < d; ++j) v[j] = static_cast<float>(v[j] / norm);
    return norm;
}

// Keeps the clusters `keep(c)` says to (centroids k x d, in order); returns how many went.
template <class Keep>
int keepClusters(std::vector<float>& centroids, int& k, Index d, Keep keep)
{
    std::vector<float> kept;
    for (int c = 0; c < k; ++c)
        if (keep(c)) kept.insert(kept.end(), &centroids[c * d], &centroids[(c + 1) * d]);
    const int removed = k - static_cast<int>(kept.size() / static_cast<std::size_t>(d));
    centroids = std::move(kept);
    k -= removed;
    return removed;
}

struct SplitTest {
    std::vector<float> children;         // 2k x d: rows 2c and 2c+1 split cluster c
    std::vector<int> accepted;           // clusters whose split is structure (split_criterion.h), widest margin first
    std::vector<SplitTestRecord> tests;  // every cluster's test, in cluster order
};

class Grower {
public:
    Grower(ShardContext& ctx, const KMeansParams& params, const ScaleSet& scales, const NoiseModel& noise)
        : m_ctx(ctx), m_params(params), m_scales(scales), m_d(ctx.cols), m_noise(noise)
    {
    }

    // Every cluster's split test in the same passes: principal axes by power iteration,
    // children at mean +- sqrt(2 lambda / pi) along the axis (the half-means of a
    // Gaussian), a few 2-means steps restricted to each cluster's rows, then the noise
    // edge test of split_criterion.h on the axis' variance and the split's gain.
    SplitTest testSplits(const std::vector<float>& centroids, int k, const Assignment& parents, int round)
    {
        SplitTest test;
        const std::vector<double> axisScatter = seedChildren(centroids, k, parents, round, test.children);
        kernels::PartialSums partial;
        GlobalSums sums;
        for (int step = 0; step <= m_params.splitIterations; ++step) {
            m_ctx.backend.assignSplit(m_ctx.shard, test.children, k, m_params.mode);
            m_ctx.backend.clusterSums(m_ctx.shard, kernels::LabelSource::SplitChild, kernels::SumParts::All, k, m_params.mode, &m_scales.sums, partial);
            sums = reduceSums(m_ctx, partial, m_params.mode, m_scales.sums);
            if (step < m_params.splitIterations) centroidsFromSums(sums, m_d, test.children);
        }
        std::vector<std::pair<double, int>> gains;
        for (int c = 0; c < k; ++c) {
            SplitTestRecord t;
            t.round = round;
            t.cluster = c;
            t.rows = parents.sizes[static_cast<std::size_t>(c)];
            const auto n0 = sums.counts[static_cast<std::size_t>(2 * c)];
            const auto n1 = sums.counts[static_cast<std::size_t>(2 * c + 1)];
            const double parentSS = parents.withinSS[static_cast<std::size_t>(c)];
            const double childrenSS = sums.withinSS[static_cast<std::size_t>(2 * c)] + sums.withinSS[static_cast<std::size_t>(2 * c + 1)];
            t.axisShare = explainedShare(parentSS, axisScatter[static_cast<std::size_t>(c)]);
            t.splitShare = explainedShare(parentSS, parentSS - childrenSS);
            const SplitBars bars = splitBars(m_noise, t.rows, m_d, parentSS);
            t.axisBar = bars.axis;
            t.splitEdge = bars.split;
            if (t.rows < kMinRowsToTest)
                t.verdict = SplitVerdict::TooFewRows;
            else if (n0 < kMinChildRows || n1 < kMinChildRows)
                t.verdict = SplitVerdict::LoneChild;
            else if (splitIsStructure(bars, t.axisShare, t.splitShare))
                t.verdict = SplitVerdict::Split;
            else
                t.verdict = t.axisShare > bars.axis ? SplitVerdict::SplitBelowEdge : SplitVerdict::AxisBelowBar;
            if (t.verdict == SplitVerdict::Split) gains.emplace_back(t.axisShare - t.axisBar, c);
            test.tests.push_back(t);
        }
        std::sort(gains.begin(), gains.end(), [](const auto& a, const auto& b) {
            return a.first != b.first ? a.first > b.first : a.second < b.second;
        });
        for (const auto& [gain, c] : gains) test.accepted.push_back(c);
        return test;
    }

    // Merges disjoint nearest-neighbour pairs whose separation is noise inside their
    // union (split_criterion.h), the least separated first; returns how many pairs
    // merged. The separation is n_a n_b / (n_a + n_b) |m_a - m_b|^2, the union's sum of
    // squares SS_a + SS_b plus that. Every nearest pair's test goes to records, once.
    int mergePairs(std::vector<float>& centroids, int& k, const Assignment& a, int round, MergeScope scope,
                   std::vector<MergeTestRecord>& records) const
    {
        const std::size_t firstRecord = records.size();
        const auto record = [&](int i, int j, std::int64_t rows, double share, double edge) {
            const int lo = std::min(i, j), hi = std::max(i, j);
            for (std::size_t r = firstRecord; r < records.size(); ++r)
                if (records[r].a == lo && records[r].b == hi) return;
            records.push_back({round, lo, hi, rows, share, edge, false});
        };
        struct Pair {
            int a;
            int b;
            double gain;
        };
        std::vector<Pair> pairs;
        for (int i = 0; i < k; ++i) {
            int nearest = -1;
            double best = std::numeric_limits<double>::infinity();
            for (int j = 0; j < k; ++j) {
                if (j == i) continue;
                const double dist = kernels::detail::exactSquaredDistance(&centroids[i * m_d], &centroids[j * m_d], m_d);
                if (dist < best) {
                    best = dist;
                    nearest = j;
                }
            }
            const auto ni = a.sizes[static_cast<std::size_t>(i)];
            const auto nj = nearest < 0 ? 0 : a.sizes[static_cast<std::size_t>(nearest)];
            if (ni == 0 || nj == 0) continue;
            const double ssi = a.withinSS[static_cast<std::size_t>(i)];
            const double ssj = a.withinSS[static_cast<std::size_t>(nearest)];
            const double separation = static_cast<double>(ni) * static_cast<double>(nj) / static_cast<double>(ni + nj) * best;
            const double unionSS = ssi + ssj + separation;
            const double share = explainedShare(unionSS, separation);
            const double edge = noiseEdgeShare(NoiseModel{m_noise.effectiveDims}, ni + nj, m_d, unionSS);
            record(i, nearest, ni + nj, share, edge);
            // The union of two duplicates has no variance at all: nothing separates them.
            if (std::isnan(share)) {
                pairs.push_back({std::min(i, nearest), std::max(i, nearest), std::numeric_limits<double>::infinity()});
                continue;
            }
            // A cluster of one row is not a group (a split never leaves one): it joins
            // its nearest neighbour whatever the separation.
            const bool lone = ni < kMinChildRows || nj < kMinChildRows;
            if (!lone && (scope == MergeScope::LoneRows || !mergeIsNoise(m_noise, ni + nj, m_d, unionSS, share))) continue;
            // How far below the edge: the least separated pairs merge first.
            pairs.push_back({std::min(i, nearest), std::max(i, nearest), lone ? std::numeric_limits<double>::infinity() : edge - share});
        }
        std::sort(pairs.begin(), pairs.end(), [](const Pair& x, const Pair& y) {
            return x.gain != y.gain ? x.gain > y.gain : (x.a != y.a ? x.a < y.a : x.b < y.b);
        });
        std::vector<bool> used(static_cast<std::size_t>(k), false);
        std::vector<bool> gone(static_cast<std::size_t>(k), false);
        int merged = 0;
        for (const Pair& p : pairs) {
            if (used[static_cast<std::size_t>(p.a)] || used[static_cast<std::size_t>(p.b)]) continue;
            used[static_cast<std::size_t>(p.a)] = used[static_cast<std::size_t>(p.b)] = true;
            const double na = static_cast<double>(a.sizes[static_cast<std::size_t>(p.a)]);
            const double nb = static_cast<double>(a.sizes[static_cast<std::size_t>(p.b)]);
            for (Index j = 0; j < m_d; ++j)
                centroids[p.a * m_d + j] = static_cast<float>((na * centroids[p.a * m_d + j] + nb * centroids[p.b * m_d + j]) / (na + nb));
            gone[static_cast<std::size_t>(p.b)] = true;
            ++merged;
            for (std::size_t r = firstRecord; r < records.size(); ++r)
                if (records[r].a == p.a && records[r].b == p.b) records[r].merged = true;
        }
        keepClusters(centroids, k, m_d, [&](int c) { return !gone[static_cast<std::size_t>(c)]; });
        return merged;
    }

private:
    // Returns each cluster's scatter along its principal axis (its top eigenvalue, from below).
    std::vector<double> seedChildren(const std::vector<float>& centroids, int k, const Assignment& parents, int round,
                                     std::vector<float>& children)
    {
        // Start vectors from the counter-based generator: the same on every rank.
        std::vector<float> axes(static_cast<std::size_t>(k * m_d));
        for (std::size_t i = 0; i < axes.size(); ++i)
            axes[i] = static_cast<float>(kernels::detail::counterUniform(m_params.seed, kAxisStream + static_cast<std::uint64_t>(round), i) - 0.5);
        for (int c = 0; c < k; ++c) normalise(&axes[c * m_d], m_d);

        // |S v| with S the cluster's scatter matrix converges to its top eigenvalue.
        std::vector<double> scatter(static_cast<std::size_t>(k), 0.0);
        kernels::PartialSums partial;
        for (int it = 0; it < kPowerIterations; ++it) {
            m_ctx.backend.projectedSums(m_ctx.shard, centroids, axes, k, m_params.mode, &m_scales.projected, partial);
            const GlobalSums sums = reduceSums(m_ctx, partial, m_params.mode, m_scales.projected);
            for (int c = 0; c < k; ++c) {
                float* v = &axes[c * m_d];
                const double* s = &sums.sums[static_cast<std::size_t>(c * m_d)];
                std::vector<float> next(s, s + m_d);
                const double norm = normalise(next.data(), m_d);
                if (norm > 0) std::copy(next.begin(), next.end(), v);
                scatter[static_cast<std::size_t>(c)] = norm;
            }
        }
        children.assign(static_cast<std::size_t>(2 * k * m_d), 0.f);
        for (int c = 0; c < k; ++c) {
            const double rows = static_cast<double>(std::max<std::int64_t>(parents.sizes[static_cast<std::size_t>(c)], 1));
            const double offset = std::sqrt(2.0 * scatter[static_cast<std::size_t>(c)] / rows / std::numbers::pi);
            for (Index j = 0; j < m_d; ++j) {
                const double m = centroids[static_cast<std::size_t>(c * m_d + j)];
                const double v = axes[static_cast<std::size_t>(c * m_d + j)];
                children[static_cast<std::size_t>(2 * c * m_d + j)] = static_cast<float>(m + offset * v);
                children[static_cast<std::size_t>((2 * c + 1) * m_d + j)] = static_cast<float>(m - offset * v);
            }
        }
        return scatter;
    }

    ShardContext& m_ctx;
    const KMeansParams& m_params;
    const ScaleSet& m_scales;
    const Index m_d;
    const NoiseModel m_noise;
};

// Parent c is replaced by its first child; second children are appended in order. The
// accepted splits beyond room are marked NoRoom in test.tests.
void applySplits(std::vector<float>& centroids, int& k, SplitTest& test, int room, Index d)
{
    const auto taken = std::min<std::ptrdiff_t>(room, static_cast<std::ptrdiff_t>(test.accepted.size()));
    for (auto c = test.accepted.begin() + taken; c != test.accepted.end(); ++c)
        test.tests[static_cast<std::size_t>(*c)].verdict = SplitVerdict::NoRoom;
    std::vector<int> chosen(test.accepted.begin(), test.accepted.begin() + taken);
    std::sort(chosen.begin(), chosen.end());
    for (int c : chosen) std::copy_n(&test.children[2 * c * d], d, &centroids[c * d]);
    for (int c : chosen) centroids.insert(centroids.end(), &test.children[(2 * c + 1) * d], &test.children[(2 * c + 2) * d]);
    k += static_cast<int>(chosen.size());
}

// Variance shares in the events, three decimals ("0.123").
std::string shareText(double share)
{
    if (!std::isfinite(share)) return share > 0 ? "inf" : "-inf";
    char text[32];
    std::snprintf(text, sizeof text, "%.3f", share);
    return text;
}

}  // namespace

ClusterResult runAdaptGrow(ShardContext& ctx, const KMeansParams& params, const RunControl& control, const NoiseModel& noise,
                           MergeScope merges)
{
    ClusterResult result;
    result.cols = ctx.cols;
    const auto initStart = std::chrono::steady_clock::now();
    const ScaleSet scales = computeScales(ctx);
    int k = params.k0;
    std::vector<float> centroids = initialCentroids(ctx, params, k, scales, control);
    result.initMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - initStart).count();
    Lloyd lloyd(ctx, params, scales, control, result);
    Grower grower(ctx, params, scales, noise);

    std::string event = "start with k=" + std::to_string(k);
    GrowthLog& log = result.growth;
    const auto stopGrowing = [&](GrowthStop why, int round) {
        log.stop = why;
        log.stopRound = round;
        log.stopIteration = result.history.empty() ? 0 : result.history.back().iteration;
        log.stopK = k;
    };
    bool growing = true;
    bool mergedOnce = false;
    LloydOutcome outcome;
    int round = 0;
    for (; round < params.maxRounds; ++round) {
        outcome = lloyd.run(centroids, k, round, event);
        if (outcome.cancelled) {
            if (growing) stopGrowing(GrowthStop::Cancelled, round);
            break;
        }
        const Assignment current = lloyd.assignAll(centroids, k);
        if (growing) {
            if (k >= params.kMax) {
                stopGrowing(GrowthStop::KMax, round);
            } else {
                SplitTest test = grower.testSplits(centroids, k, current, round);
                const int before = k;
                if (!test.accepted.empty()) applySplits(centroids, k, test, params.kMax - before, ctx.cols);
                log.splits.insert(log.splits.end(), test.tests.begin(), test.tests.end());
                if (k > before) {
                    const SplitTestRecord* best = closestToBar(test.tests);
                    event = "split " + std::to_string(k - before) + " of " + std::to_string(before) + " clusters (best axis holds " +
                            shareText(best->axisShare) + " of its variance, noise bar " + shareText(best->axisBar) + ")";
                    continue;
                }
                stopGrowing(GrowthStop::NoSplit, round);
            }
        }
        growing = false;
        // A cluster of no rows is no group (Lloyd reseeds empty ones while it has distinct
        // rows to offer, so this is mostly data with fewer distinct rows than k): dropped,
        // and Lloyd runs again on the rest; in the last round, the final assignment below
        // labels the rows with what is left.
        const auto held = [&](int c) { return current.sizes[static_cast<std::size_t>(c)] > 0; };
        if (const int dropped = keepClusters(centroids, k, ctx.cols, held); dropped > 0) {
            event = "dropped " + std::to_string(dropped) + " empty cluster" + (dropped == 1 ? "" : "s");
            continue;
        }
        // One merge round: it undoes over-splits (two halves of one group, noise apart).
        // A merged cluster is not merged again: the separation of two clusters that each
        // hold several groups is a weak statistic (one direction of many), and cascading
        // merges would fold real structure back into one cluster.
        if (!params.merge || mergedOnce) break;
        const int merged = grower.mergePairs(centroids, k, current, round, merges, log.merges);
        if (merged == 0) break;
        mergedOnce = true;
        event = "merged " + std::to_string(merged) + " pair" + (merged == 1 ? "" : "s");
    }
    if (growing && round == params.maxRounds) stopGrowing(GrowthStop::RoundLimit, std::max(round - 1, 0));
    log.finalK = k;

    const Assignment final = lloyd.assignAll(centroids, k);
    result.k = k;
    result.centroids = std::move(centroids);
    result.sizes = final.sizes;
    result.inertia = final.inertia;
    result.converged = outcome.converged && !outcome.cancelled;
    result.cancelled = outcome.cancelled;
    result.labels = gatherLabels(ctx);
    return result;
}

}  // namespace clusterdesk
