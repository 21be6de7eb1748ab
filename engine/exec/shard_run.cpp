#include "shard_run.h"

#include "../cluster/adaptgrow.h"
#include "../cluster/bulk_noise.h"
#include "../cluster/effective_dims.h"
#include "../cluster/lloyd.h"

#include <iterator>
#include <string>

namespace clusterdesk {
namespace {

// k-means from params.nInit initialisations (seeds seed, seed+1, ...), keeping the
// lowest inertia; ties keep the earlier start. The inertia is the all-reduced one, so
// every rank keeps the same start, and in exact mode every topology does. The history
// holds every start's iterations, numbered on from `before` (iterations already run),
// the first of each marked "<label> i of n".
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
        RunControl numbered = control;
        const int offset = iterations;
        if (control.onIteration)
            numbered.onIteration = [&, offset](const IterationStats& s) {
                IterationStats shifted = s;
                shifted.iteration += offset;
                if (s.iteration == 1) shifted.event = event;
                control.onIteration(shifted);
            };
        ClusterResult r = runKMeans(ctx, p, numbered);
        for (IterationStats s : r.history) {
            s.iteration += offset;
            if (s.iteration == offset + 1) s.event = event;
            history.push_back(std::move(s));
        }
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

// AdaptGrow chooses k by splitting and merging; the partition it ends with is one local
// optimum of k-means at that k, reached by bisection, and in small universes (four or
// five assets a sector) often not the best one. With n-init > 1 k-means restarts at the
// chosen k compete with it, and the lowest inertia is kept (ties keep AdaptGrow's): k is
// AdaptGrow's choice, the partition the best of n-init + 1 starts. Every rank compares
// the same all-reduced inertias, so exact mode stays bit-identical across topologies.
ClusterResult refineAtChosenK(ShardContext& ctx, const KMeansParams& params, const RunControl& control, ClusterResult grown)
{
    if (params.nInit <= 1 || grown.cancelled) return grown;
    KMeansParams atK = params;
    atK.algorithm = Algorithm::KMeans;
    atK.k = grown.k;
    ClusterResult restarts =
        runKMeansRestarts(ctx, atK, control, grown.iterations, "restart at k=" + std::to_string(grown.k) + ":");
    std::vector<IterationStats> history = std::move(grown.history);
    GrowthLog growth = std::move(grown.growth);
    history.insert(history.end(), std::make_move_iterator(restarts.history.begin()), std::make_move_iterator(restarts.history.end()));
    const int iterations = grown.iterations + restarts.iterations;
    const double initMs = grown.initMs + restarts.initMs;
    const bool cancelled = restarts.cancelled;
    // A cancelled restart is unfinished: it does not compete.
    ClusterResult kept = !cancelled && restarts.inertia < grown.inertia ? std::move(restarts) : std::move(grown);
    kept.history = std::move(history);
    kept.growth = std::move(growth);
    kept.iterations = iterations;
    kept.initMs = initMs;
    kept.cancelled = cancelled;
    return kept;
}

}  // namespace

ClusterResult runShard(const Dataset& data, const KMeansParams& params, kernels::Backend& backend, Communicator& comm,
                       const RunControl& control)
{
    const RowRange range = shardRows(data.rows, comm.rank(), comm.size());
    auto resident = backend.upload({data.row(range.first), range.last - range.first, data.cols}, range.first);
    ShardContext ctx{backend, *resident, comm, data.rows, data.cols};
    if (params.algorithm == Algorithm::KMeans) return runKMeansRestarts(ctx, params, control, 0, "initialisation");
    // From the whole data set, which every rank holds, single-threaded: the same bits on
    // every rank of every topology, without a collective.
    NoiseModel noise;
    noise.effectiveDims = effectiveDimensions(data.values.data(), data.rows, data.cols);
    noise.bulkVariance = bulkNoiseVariance(data.values.data(), data.rows, data.cols, noise.effectiveDims);
    return refineAtChosenK(ctx, params, control, runAdaptGrow(ctx, params, control, noise));
}

}  // namespace clusterdesk
