// The Clusters graph's data, computed off the UI thread: a deterministic sample of the
// rows (every n-th row, at most maxPoints) projected with the centroids on the sample's
// first two principal components.
#pragma once

#include "engine/cluster/params.h"
#include "engine/data/dataset.h"
#include "ui/run_model.h"

#include <cstddef>

namespace clusterdesk::gui {

// Points drawn at most: enough to see every cluster's shape, few enough to draw a
// frame in a few milliseconds.
inline constexpr std::size_t kMaxProjectedPoints = 10000;

// result must hold labels for every row (rank 0 of a local run does).
ui::ClusterProjection projectClusters(const Dataset& data, const ClusterResult& result,
                                      std::size_t maxPoints = kMaxProjectedPoints);

}  // namespace clusterdesk::gui
