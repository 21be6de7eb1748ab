#include "shard_run.h"

#include "../cluster/adaptgrow.h"
#include "../cluster/bulk_noise.h"
#include "../cluster/effective_dims.h"
#include "../cluster/lloyd.h"

namespace clusterdesk {
namespace {

// k-means from params.nInit initialisations (seeds seed, seed+1, ...), keeping the
// lowest inertia; ties keep the earlier start. The inertia is the all-reduced one, so
// every rank keeps the same start, and in exact mode every topology does. The history
// holds every start's iterations, numbered on, the first of each marked.
ClusterResult runKMeansRestarts(ShardContext& ctx, const KMeansParams& params, const RunControl& control)
{
    if (params.nInit <= 1) return runKMeans(ctx, params, control);
    ClusterResult best;
    std::vector<IterationStats> history;
    int iterations = 0;
    double initMs = 0;
    for (int start = 0; start < params.nInit; ++start) {
        KMeansParams p = params;
        p.seed = params.seed + static_cast<std::uint64_t>(start);
        RunControl numbered = control;
        const int offset = iterations;
        if (control.onIteration)
            numbered.onIteration = [&, offset, start](const IterationStats& s) {
                IterationStats shifted = s;
                shifted.iteration += offset;
                if (s.iteration == 1) shifted.event = "initialisation " + std::to_string(start + 1) + " of " + std::to_string(params.nInit);
                control.onIteration(shifted);
            };
        ClusterResult r = runKMeans(ctx, p, numbered);
        for (IterationStats s : r.history) {
            s.iteration += offset;
            if (s.iteration == offset + 1) s.event = "initialisation " + std::to_string(start + 1) + " of " + std::to_string(params.nInit);
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
    best.iterations = iterations;
    best.initMs = initMs;
    return best;
}

}  // namespace

ClusterResult runShard(const Dataset& data, const KMeansParams& params, kernels::Backend& backend, Communicator& comm,
                       const RunControl& control)
{
    const RowRange range = shardRows(data.rows, comm.rank(), comm.size());
    auto resident = backend.upload({data.row(range.first), range.last - range.first, data.cols}, range.first);
    ShardContext ctx{backend, *resident, comm, data.rows, data.cols};
    if (params.algorithm == Algorithm::KMeans) return runKMeansRestarts(ctx, params, control);
    // From the whole data set, which every rank holds, single-threaded: the same bits on
    // every rank of every topology, without a collective.
    NoiseModel noise;
    noise.effectiveDims = effectiveDimensions(data.values.data(), data.rows, data.cols);
    noise.bulkVariance = bulkNoiseVariance(data.values.data(), data.rows, data.cols, noise.effectiveDims);
    return runAdaptGrow(ctx, params, control, noise);
}

}  // namespace clusterdesk
