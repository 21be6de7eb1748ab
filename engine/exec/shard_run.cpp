#include "shard_run.h"

#include "../cluster/adaptgrow.h"
#include "../cluster/lloyd.h"

namespace clusterdesk {

ClusterResult runShard(const Dataset& data, const KMeansParams& params, kernels::Backend& backend, Communicator& comm,
                       const RunControl& control)
{
    const RowRange range = shardRows(data.rows, comm.rank(), comm.size());
    auto resident = backend.upload({data.row(range.first), range.last - range.first, data.cols}, range.first);
    ShardContext ctx{backend, *resident, comm, data.rows, data.cols};
    return params.algorithm == Algorithm::KMeans ? runKMeans(ctx, params, control) : runAdaptGrow(ctx, params, control);
}

}  // namespace clusterdesk
