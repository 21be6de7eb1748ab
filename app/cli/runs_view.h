// How stored runs read on a terminal and as JSON (runs list, runs show, runs export).
#pragma once

#include "engine/store/run_store.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace clusterdesk::cli {

// First 8 characters of a run id, as the list shows it.
std::string shortId(const std::string& id);

nlohmann::json runInfoJson(const store::RunInfo& run);
nlohmann::json runRecordJson(const store::RunRecord& record);  // without the labels and centroids
std::string runListText(const std::vector<store::RunInfo>& runs);
std::string runShowText(const store::RunRecord& record);

}  // namespace clusterdesk::cli
