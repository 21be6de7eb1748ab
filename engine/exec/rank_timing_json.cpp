#include "rank_timing_json.h"

namespace clusterdesk {

nlohmann::json rankTimingsToJson(const std::vector<RankTiming>& ranks)
{
    nlohmann::json out = nlohmann::json::array();
    for (const RankTiming& r : ranks) out.push_back({{"assign_ms", r.assignMs}, {"update_ms", r.updateMs}, {"reduce_ms", r.reduceMs}});
    return out;
}

std::vector<RankTiming> rankTimingsFromJson(const nlohmann::json& array)
{
    std::vector<RankTiming> ranks;
    for (const nlohmann::json& r : array)
        ranks.push_back({r.at("assign_ms").get<double>(), r.at("update_ms").get<double>(), r.at("reduce_ms").get<double>()});
    return ranks;
}

}  // namespace clusterdesk
