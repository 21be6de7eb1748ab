#include "shard_run.h"

#include "../cluster/adaptgrow.h"
#include "../cluster/bulk_noise.h"
#include "../cluster/effective_dims.h"
#include "../cluster/lloyd.h"

namespace clusterdesk {

ClusterResult runShard(const Dataset& data, const KMeansParams& params, kernels::Backend& backend, Communicator& comm,
                       const RunControl& control)
{
    const RowRange range = shardRows(data.rows, comm.rank(), comm.size());
    auto resident = backend.upload({data.row(range.first), range.last - range.first, data.cols}, range.first);
    ShardContext ctx{backend, *resident, comm, data.rows, data.cols};
    if (params.algorithm == Algorithm::KMeans) return runKMeans(ctx, params, control);
    // From the whole data set, which every rank holds, single-threaded: the same bits on
    // every rank of every topology, without a collective.
    NoiseModel noise;
    noise.effectiveDims = effectiveDimensions(data.values.data(), data.rows, data.cols);
    noise.bulkVariance = bulkNoiseVariance(data.values.data(), data.rows, data.cols, noise.effectiveDims);
    return runAdaptGrow(ctx, params, control, noise);
}

}  // namespace clusterdesk
