// The JSON form of the clustering structs, defined once: the store, the pool protocol
// (job files and rank 0's progress lines), run summaries and exports all use these, so
// a field is spelled and encoded the same everywhere (enums by name). Readers throw
// CodecError naming the field that is missing or malformed.
#pragma once

#include "params.h"

#include "engine/core/error.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

namespace clusterdesk::codec {

// v (named key in messages) as an integer of type T. CodecError when it is not an
// integer or is outside T's range: a float or a huge number never converts (that would
// be undefined behaviour in the conversion).
template <class T>
T integerValue(const nlohmann::json& v, const char* key)
{
    static_assert(std::is_integral_v<T>);
    const auto bad = [&](const char* why) { return CodecError(std::string("field '") + key + "' " + why); };
    if (v.is_number_unsigned()) {
        const std::uint64_t u = v.get<std::uint64_t>();
        if (u > static_cast<std::uint64_t>(std::numeric_limits<T>::max())) throw bad("is out of range");
        return static_cast<T>(u);
    }
    if (v.is_number_integer()) {
        const std::int64_t i = v.get<std::int64_t>();
        if constexpr (std::is_unsigned_v<T>) {
            if (i < 0) throw bad("must not be negative");
        } else {
            if (i < std::numeric_limits<T>::min() || i > std::numeric_limits<T>::max()) throw bad("is out of range");
        }
        return static_cast<T>(i);
    }
    throw bad("must be an integer");
}

// j[key] as an integer of type T; CodecError also when it is missing.
template <class T>
T integerField(const nlohmann::json& j, const char* key)
{
    if (!j.is_object() || !j.contains(key)) throw CodecError(std::string("field '") + key + "' is missing");
    return integerValue<T>(j.at(key), key);
}

// The same, or fallback when j has no such field.
template <class T>
T integerFieldOr(const nlohmann::json& j, const char* key, T fallback)
{
    return j.is_object() && j.contains(key) ? integerField<T>(j, key) : fallback;
}

// j[key] as an array of integers of type T, each checked as integerField does.
template <class T>
std::vector<T> integerArrayField(const nlohmann::json& j, const char* key)
{
    if (!j.is_object() || !j.contains(key) || !j.at(key).is_array()) throw CodecError(std::string("field '") + key + "' must be an array");
    std::vector<T> out;
    out.reserve(j.at(key).size());
    for (const nlohmann::json& item : j.at(key)) out.push_back(integerValue<T>(item, key));
    return out;
}

// j[key] as an array of float32 values: CodecError for anything but numbers within
// float range.
std::vector<float> floatArrayField(const nlohmann::json& j, const char* key);

// Every parameter except initialCentroids (the data a run starts from, kept as an artifact).
nlohmann::json toJson(const KMeansParams& params);
KMeansParams paramsFromJson(const nlohmann::json& j);
// Recorded parameters as a reader should see them: those that played no part in the
// run are dropped (k for AdaptGrow, which chooses it; k0, kmax, merge, split_iterations
// and max_rounds for k-means; k-means||'s parallel_rounds and oversampling for another
// initialisation). Keys it does not know are kept.
nlohmann::json paramsThatApplied(const nlohmann::json& params);

nlohmann::json toJson(const std::vector<RankTiming>& ranks);
std::vector<RankTiming> rankTimingsFromJson(const nlohmann::json& j);

nlohmann::json toJson(const IterationStats& stats);
IterationStats iterationFromJson(const nlohmann::json& j);

// AdaptGrow's tests and why growth stopped; shares that could not be measured are null.
nlohmann::json toJson(const GrowthLog& log);
GrowthLog growthFromJson(const nlohmann::json& j);

// The answer without its history (iterations travel, and are stored, one by one), with
// AdaptGrow's growth log.
nlohmann::json toJson(const ClusterResult& result);
ClusterResult resultFromJson(const nlohmann::json& j);

// Parses text as JSON; CodecError names `what` when it is not.
nlohmann::json parseJson(const std::string& text, const std::string& what);

}  // namespace clusterdesk::codec
