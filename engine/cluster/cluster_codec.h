// The JSON form of the clustering structs, defined once: the store, the pool protocol
// (job files and rank 0's progress lines), run summaries and exports all use these, so
// a field is spelled and encoded the same everywhere (enums by name). Readers throw
// CodecError naming the field that is missing or malformed.
#pragma once

#include "params.h"

#include <nlohmann/json.hpp>

namespace clusterdesk::codec {

// Every parameter except initialCentroids (the data a run starts from, kept as an artifact).
nlohmann::json toJson(const KMeansParams& params);
KMeansParams paramsFromJson(const nlohmann::json& j);

nlohmann::json toJson(const std::vector<RankTiming>& ranks);
std::vector<RankTiming> rankTimingsFromJson(const nlohmann::json& j);

nlohmann::json toJson(const IterationStats& stats);
IterationStats iterationFromJson(const nlohmann::json& j);

// The answer without its history (iterations travel, and are stored, one by one).
nlohmann::json toJson(const ClusterResult& result);
ClusterResult resultFromJson(const nlohmann::json& j);

// Parses text as JSON; CodecError names `what` when it is not.
nlohmann::json parseJson(const std::string& text, const std::string& what);

}  // namespace clusterdesk::codec
