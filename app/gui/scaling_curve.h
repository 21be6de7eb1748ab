// The Compare tab's scaling curve: the model, calibrated on the comparison's measured
// runs, asked for the same job on 1 to 64 GPUs of one kind (1, 2, 4, 8 in a node, then
// 2 to 8 full nodes), per phase, so the tab can show where communication takes over.
#pragma once

#include "engine/catalog/hardware_catalog.h"
#include "engine/cluster/params.h"
#include "engine/whatif/performance_model.h"
#include "ui/compare/scaling_chart.h"

#include <string>
#include <vector>

namespace clusterdesk::gui {

// The GPU the curve is drawn for: that of the first modeled GPU topology compared,
// else the catalog's h200, else its first GPU; empty when the catalog has none.
std::string scalingDevice(const std::vector<std::string>& topologies, const HardwareCatalog& catalog);

std::vector<ui::ScalingPoint> scalingCurve(const KMeansParams& params, std::int64_t rows, std::int64_t cols,
                                           const std::string& deviceId, const HardwareCatalog& catalog,
                                           const whatif::ModelParameters& model);

}  // namespace clusterdesk::gui
