// Lloyd iterations on a sharded dataset: assign, accumulate, one all-reduce, new
// centroids; empty clusters re-seeded at the farthest rows. Shared by k-means and
// by every AdaptGrow round.
#pragma once

#include "params.h"
#include "shard_ops.h"

#include <vector>

namespace clusterdesk {

struct LloydOutcome {
    int iterations = 0;
    bool converged = false;
    bool cancelled = false;
};

// Clusters as they stand after a final nearest-centroid pass.
struct Assignment {
    std::vector<std::int64_t> sizes;
    std::vector<double> withinSS;
    double inertia = 0;
};

class Lloyd {
public:
    Lloyd(ShardContext& ctx, const KMeansParams& params, const ScaleSet& scales, const RunControl& control,
          ClusterResult& result);

    // Iterates from centroids (k x cols, updated in place) until the relative inertia
    // change drops below the tolerance, maxIterations, or cancel. `round` and `event`
    // label the history records (the event on the first one only).
    LloydOutcome run(std::vector<float>& centroids, int k, int round, const std::string& event);

    // Labels every row with its nearest centroid and returns sizes and inertia.
    Assignment assignAll(const std::vector<float>& centroids, int k);

    // Whether rank 0 has been asked to stop (not yet agreed by all ranks).
    bool cancelRequested() const;

private:
    // Re-seeds empty clusters; true when it did.
    bool reseedEmpty(std::vector<float>& centroids, const GlobalSums& sums);
    // Bounded assignment from the centroids of the previous call, when still valid.
    std::int64_t assignRows(const std::vector<float>& centroids, int k);
    bool restartSums(int iteration) const;

    ShardContext& m_ctx;
    const KMeansParams& m_params;
    const ScaleSet& m_scales;
    const RunControl& m_control;
    ClusterResult& m_result;
    std::vector<float> m_assignedWith;  // centroids of the last bounded assignment, to measure their motion
};

// The whole k-means run: scales, initialisation, Lloyd, final assignment and labels.
ClusterResult runKMeans(ShardContext& ctx, const KMeansParams& params, const RunControl& control);

}  // namespace clusterdesk
