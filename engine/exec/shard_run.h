// What every rank of a sharded run does, whichever way the ranks are joined (threads
// and the local communicator in run_clustering.cpp, processes and MPI in
// clusterdesk-worker --rank): take its contiguous rows, upload them to its backend and
// run the chosen algorithm (SPMD).
#pragma once

#include "../cluster/params.h"
#include "../cluster/shard_context.h"
#include "../data/dataset.h"
#include "../cluster/communicator.h"
#include "kernels/backend.h"

#include <cstdint>

namespace clusterdesk {

struct RowRange {
    std::int64_t first = 0;
    std::int64_t last = 0;  // one past the end
};

// Rank `rank` of `size` owns rows [rows*rank/size, rows*(rank+1)/size).
inline RowRange shardRows(std::int64_t rows, int rank, int size)
{
    return {rows * rank / size, rows * (rank + 1) / size};
}

// The OpenMP threads rank `rank` of `size` should run its shard with, of `available`: one
// for a small shard (a live window, a small universe; see omp_threads.h). Set before the
// backend is created, so its device line names the threads the run used.
int shardThreads(const Dataset& data, int rank, int size, int available);

// Uploads this rank's rows of `data` (shardRows(data.rows, comm.rank(), comm.size()))
// to `backend` and runs k-means or AdaptGrow (params.algorithm) through `comm`. Every rank gets the result;
// labels are gathered on every rank.
ClusterResult runShard(const Dataset& data, const KMeansParams& params, kernels::Backend& backend, Communicator& comm,
                       const RunControl& control);

}  // namespace clusterdesk
