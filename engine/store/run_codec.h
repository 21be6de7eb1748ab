// How run parameters and load options are written into the store as JSON, and read
// back for a re-run. Every field is written, so a record says everything the run used.
#pragma once

#include "engine/cluster/params.h"
#include "engine/data/load.h"

#include <string>

namespace clusterdesk::store {

// initialCentroids are not included (they are an artifact of the run).
std::string paramsToJson(const KMeansParams& params);
// Throws StoreError naming the field that is missing or wrong.
KMeansParams paramsFromJson(const std::string& json);

// layout (when given), window, bar, forward fill, min history; the progress callback is not stored.
std::string loadOptionsToJson(const LoadOptions& options);
LoadOptions loadOptionsFromJson(const std::string& json);

}  // namespace clusterdesk::store
