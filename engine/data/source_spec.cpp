#include "source_spec.h"

#include "engine/core/error.h"

#include <nlohmann/json.hpp>

namespace clusterdesk {

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
