// Per-rank phase latencies as JSON, one form for rank 0's progress lines (pool_job.cpp)
// and the run summary (run_summary.cpp): [{"assign_ms":..,"update_ms":..,"reduce_ms":..}, ...]
// in rank order.
#pragma once

#include "../cluster/params.h"

#include <nlohmann/json.hpp>

#include <vector>

namespace clusterdesk {

nlohmann::json rankTimingsToJson(const std::vector<RankTiming>& ranks);
// Missing or malformed entries throw nlohmann::json::exception.
std::vector<RankTiming> rankTimingsFromJson(const nlohmann::json& array);

}  // namespace clusterdesk
