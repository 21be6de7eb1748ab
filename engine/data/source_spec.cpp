#include "source_spec.h"

#include "engine/core/error.h"

#include <nlohmann/json.hpp>

namespace clusterdesk {

std::vector<ProtectedFile> inputFilesOf(const SourceSpec& spec, const std::string& whose)
{
    if (isGenerated(spec) || spec.source == kLiveSource) return {};
    std::vector<ProtectedFile> files = {{spec.location, "the data of " + whose}};
    if (const auto truth = spec.options.find("truth"); truth != spec.options.end()) files.push_back({truth->second, "the sector map of " + whose});
    return files;
}

std::string sourceSpecToJson(const SourceSpec& spec)
{
    return nlohmann::json{{"source", spec.source}, {"location", spec.location}, {"options", spec.options}}.dump();
}

SourceSpec sourceSpecFromJson(const std::string& text)
{
    try {
        const nlohmann::json j = nlohmann::json::parse(text);
        SourceSpec spec;
        spec.source = j.at("source").get<std::string>();
        spec.location = j.at("location").get<std::string>();
        spec.options = j.at("options").get<SourceOptions>();
        return spec;
    } catch (const nlohmann::json::exception& e) {
        throw UsageError(std::string("malformed data source description: ") + e.what());
    }
}

}  // namespace clusterdesk
