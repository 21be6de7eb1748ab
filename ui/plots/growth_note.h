// AdaptGrow's reasons in the words the graphs show them: why growth stopped, and the
// split tests of its last round that came closest to their bars, with the criterion's
// values (engine/cluster/growth_log.h). The Clusters and Evolution tabs show the same
// note.
#pragma once

#include "engine/cluster/growth_log.h"

#include <QString>

namespace clusterdesk::ui {

// One test: "cluster 6 (6 rows): axis 0.272 of its variance / bar 0.251, split 0.229 /
// edge 0.264: split below edge".
QString splitTestText(const SplitTestRecord& test);

// Why AdaptGrow stopped and the three tests of the stopping round nearest their bars,
// in lines short enough for a graph's width; empty for a run that did not grow.
QString growthNote(const GrowthLog& log);

}  // namespace clusterdesk::ui
