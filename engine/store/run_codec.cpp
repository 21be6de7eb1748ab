#include "run_codec.h"

#include "store_error.h"

#include "engine/cluster/cluster_codec.h"

#include <nlohmann/json.hpp>

namespace clusterdesk::store {
namespace {

// A schema-v5 load options object, as the source it describes.
SourceSpec legacyFileSource(const std::string& location, const nlohmann::json& j)
{
    SourceSpec spec;
    spec.location = location;
    const std::string layout = j.value("layout", std::string());
    spec.source = layout == "matrix" ? (location.ends_with(".npy") ? "npy" : "csv") : layout;
    const bool series = layout == "prices" || layout == "ticks";
    const int window = codec::integerFieldOr(j, "window", 0);
    if (series || window != 0) spec.options["window"] = std::to_string(window);
    if (series) {
        spec.options["max_forward_fill"] = std::to_string(codec::integerFieldOr(j, "max_forward_fill", 5));
        spec.options["min_history"] = nlohmann::json(j.value("min_history", 0.8)).dump();
    }
    if (layout == "ticks") spec.options["bar"] = std::to_string(codec::integerFieldOr(j, "bar_seconds", std::int64_t{60}));
    return spec;
}

}  // namespace

std::string paramsToJson(const KMeansParams& params)
{
    return codec::toJson(params).dump();
}

KMeansParams paramsFromJson(const std::string& json)
{
    try {
        return codec::paramsFromJson(codec::parseJson(json, "stored run parameters"));
    } catch (const CodecError& e) {
        throw StoreError(std::string("stored run parameters: ") + e.what());
    }
}

SourceColumns toColumns(const SourceSpec& spec)
{
    return {spec.location, isGenerated(spec) ? "demo" : "file", nlohmann::json{{"source", spec.source}, {"options", spec.options}}.dump()};
}

SourceSpec sourceSpecFromColumns(const SourceColumns& columns)
{
    try {
        const nlohmann::json options = codec::parseJson(columns.options.empty() ? "{}" : columns.options, "stored load options");
        if (options.contains("source"))
            return {options.at("source").get<std::string>(), columns.location, options.at("options").get<SourceOptions>()};
        if (columns.kind == "demo") return {"demo", columns.location, {}};
        return legacyFileSource(columns.location, options);
    } catch (const CodecError& e) {
        throw StoreError(std::string("dataset ") + columns.location + ": " + e.what());
    } catch (const nlohmann::json::exception& e) {
        throw StoreError("dataset " + columns.location + ": stored load options: " + e.what());
    }
}

}  // namespace clusterdesk::store
