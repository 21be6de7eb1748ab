#include "shard_run.h"

#include "../cluster/adaptgrow.h"
#include "../cluster/bulk_noise.h"
#include "../cluster/effective_dims.h"
#include "../cluster/lloyd.h"
#include "omp_threads.h"

#include <algorithm>
#include <functional>
#include <iterator>
#include <string>

namespace clusterdesk {
namespace {

// A run that continues a history: `run` gets a control whose iterations are numbered on
// from `before`, the first marked `event`, and the result's history (and growth log) is
// numbered the same.
ClusterResult continuing(const RunControl& control, int before, const std::string& event,
                         const std::function<ClusterResult(const RunControl&)>& run)
{
    RunControl numbered = control;
    if (control.onIteration)
        numbered.onIteration = [&](const IterationStats& s) {
            IterationStats shifted = s;
            shifted.iteration += before;
            if (s.iteration == 1) shifted.event = event;
            control.onIteration(shifted);
        };
    ClusterResult r = run(numbered);
    for (IterationStats& s : r.history) {
        if (s.iteration == 1) s.event = event;
        s.iteration += before;
    }
    if (r.growth.stop != GrowthStop::NotGrown) {
        r.growth.stopIteration += before;
        r.growth.stage = event;
    }
    return r;
}

// k-means from params.nInit initialisations (seeds seed, seed+1, ...), keeping the
// lowest inertia; ties keep the earlier start. The inertia is the all-reduced one, so
// every rank keeps the same start, and in exact mode every topology does. The history
// holds every start's iterations, numbered on from `before` (iterations already run),
// the first of each marked "<label> i of n"; iterations counts only these.
ClusterResult runKMeansRestarts(ShardContext& ctx, const KMeansParams& params, const RunControl& control, int before,
                                const std::string& label)
{
    if (params.nInit <= 1 && before == 0) return runKMeans(ctx, params, control);
    ClusterResult best;
    std::vector<IterationStats> history;
    int iterations = before;
    double initMs = 0;
    for (int start = 0; start < params.nInit; ++start) {
        KMeansParams p = params;
        p.seed = params.seed + static_cast<std::uint64_t>(start);
        const std::string event = label + " " + std::to_string(start + 1) + " of " + std::to_string(params.nInit);
        ClusterResult r = continuing(control, iterations, event, [&](const RunControl& c) { return runKMeans(ctx, p, c); });
        history.insert(history.end(), r.history.begin(), r.history.end());
        iterations += r.iterations;
        initMs += r.initMs;
        const bool cancelled = r.cancelled;
        if (!cancelled && (start == 0 || r.inertia < best.inertia)) best = std::move(r);
        if (cancelled) {
            if (start == 0) best = std::move(r);
            best.cancelled = true;
            break;
        }
    }
    best.history = std::move(history);
    best.iterations = iterations - before;
    best.initMs = initMs;
    return best;
}

// Passes of testing again after restarts (each: the kept partition, and maybe one
// cluster fewer); the bound keeps a k that alternates from running on.
constexpr int kRetestPasses = 3;

// AdaptGrow with restarts (n-init > 1). Growth chooses k on the partition bisection
// reached, one local optimum of k-means at that k and in small universes (four or five
// assets a sector) often not the best: n-init k-means restarts at that k compete with it,
// the lowest inertia kept (ties keep growth's). Bisection's partition also misleads the
// choice of k itself: a cluster holding a sector and a stray asset refuses a split that
// the clean sector would show, or the other way round. So the kept partition is tested
// again, as growth would test it (a split of structure changes k, and restarts compete
// at the new k; of merges only lone rows', so that merges do not cascade). When the kept
// partition holds a cluster too small to test (kMinRowsToTest), the best partition with
// one cluster fewer (not below k0) is tested too, and kept when none of its clusters
// holds a split of structure. The growth log is that of the test which settled k. Every
// rank compares the same all-reduced inertias and shares, so exact mode stays
// bit-identical across topologies.
ClusterResult growWithRestarts(ShardContext& ctx, const KMeansParams& params, const RunControl& control, const NoiseModel& noise)
{
    ClusterResult grown = runAdaptGrow(ctx, params, control, noise);
    if (params.nInit <= 1 || grown.cancelled) return grown;
    std::vector<IterationStats> history = std::move(grown.history);
    int iterations = grown.iterations;
    double initMs = grown.initMs;
    bool cancelled = false;
    const auto absorb = [&](ClusterResult& r) {
        history.insert(history.end(), std::make_move_iterator(r.history.begin()), std::make_move_iterator(r.history.end()));
        r.history.clear();
        iterations += r.iterations;
        initMs += r.initMs;
        cancelled = cancelled || r.cancelled;
    };
    const auto restartsAt = [&](int k) {
        KMeansParams atK = params;
        atK.algorithm = Algorithm::KMeans;
        atK.k = k;
        ClusterResult r = runKMeansRestarts(ctx, atK, control, iterations, "restart at k=" + std::to_string(k) + ":");
        absorb(r);
        return r;
    };
    // The partition kept at a k growth chose: its own, or a restart's with a lower inertia.
    const auto competing = [&](ClusterResult candidate) {
        ClusterResult restarts = restartsAt(candidate.k);
        return !restarts.cancelled && restarts.inertia < candidate.inertia ? std::move(restarts) : std::move(candidate);
    };
    // Growth from a partition, as if it had reached it.
    const auto regrow = [&](const ClusterResult& from, const std::string& event) {
        KMeansParams again = params;
        again.init = InitMethod::Given;
        again.initialCentroids = from.centroids;
        again.k0 = from.k;
        again.kMax = std::max(params.kMax, from.k);
        ClusterResult r = continuing(control, iterations, event, [&](const RunControl& c) { return runAdaptGrow(ctx, again, c, noise, MergeScope::LoneRows); });
        absorb(r);
        return r;
    };

    GrowthLog log = std::move(grown.growth);
    ClusterResult kept = competing(std::move(grown));
    for (int pass = 0; pass < kRetestPasses && !cancelled; ++pass) {
        const std::string k = std::to_string(kept.k);
        ClusterResult again = regrow(kept, "re-test at k=" + k + " after restarts");
        if (cancelled) break;
        log = std::move(again.growth);
        if (again.k != kept.k) {
            kept = competing(std::move(again));
            continue;
        }
        // Not below k0: growth never tests fewer clusters than it starts from (one axis of
        // a cluster holding half the sectors carries little of its variance).
        if (kept.k - 1 < std::max(params.k0, 1)) break;
        // Only when a cluster is too small to test: it is no evidence for k (three
        // strays of two sectors), while a cluster of two groups too small for the test to
        // see them apart would make one fewer look as good.
        if (std::none_of(kept.sizes.begin(), kept.sizes.end(), [](std::int64_t n) { return n < kMinRowsToTest; })) break;
        ClusterResult fewer = restartsAt(kept.k - 1);
        if (cancelled) break;
        ClusterResult check = regrow(fewer, "re-test at k=" + std::to_string(kept.k - 1) + ", one cluster fewer");
        if (cancelled || check.k >= kept.k) break;  // one fewer holds a split of structure: k stands
        log = std::move(check.growth);
        kept = check.k == fewer.k ? std::move(fewer) : competing(std::move(check));
    }
    kept.history = std::move(history);
    kept.iterations = iterations;
    kept.initMs = initMs;
    kept.cancelled = cancelled;
    kept.growth = std::move(log);
    return kept;
}

}  // namespace

int shardThreads(const Dataset& data, int rank, int size, int available)
{
    const RowRange range = shardRows(data.rows, rank, size);
    return threadsWorthUsing((range.last - range.first) * data.cols, available);
}

ClusterResult runShard(const Dataset& data, const KMeansParams& params, kernels::Backend& backend, Communicator& comm,
                       const RunControl& control)
{
    const RowRange range = shardRows(data.rows, comm.rank(), comm.size());
    auto resident = backend.upload({data.row(range.first), range.last - range.first, data.cols}, range.first);
    ShardContext ctx{backend, *resident, comm, data.rows, data.cols, data.source};
    if (params.algorithm == Algorithm::KMeans) return runKMeansRestarts(ctx, params, control, 0, "initialisation");
    // From the whole data set, which every rank holds, single-threaded: the same bits on
    // every rank of every topology, without a collective.
    NoiseModel noise;
    noise.effectiveDims = effectiveDimensions(data.values.data(), data.rows, data.cols);
    noise.bulkVariance = bulkNoiseVariance(data.values.data(), data.rows, data.cols, noise.effectiveDims);
    return growWithRestarts(ctx, params, control, noise);
}

}  // namespace clusterdesk
