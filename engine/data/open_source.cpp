#include "open_source.h"

#include "demo.h"
#include "load.h"

#include "engine/core/error.h"

#include <nlohmann/json.hpp>

#include <filesystem>

namespace clusterdesk {
namespace {

int intOption(const SourceOptions& o, const char* key, int fallback)
{
    const auto it = o.find(key);
    if (it == o.end()) return fallback;
    try {
        std::size_t used = 0;
        const int v = std::stoi(it->second, &used);
        if (used == it->second.size()) return v;
    } catch (const std::exception&) {
    }
    throw UsageError(std::string("option ") + key + " must be an integer, not '" + it->second + "'");
}

LoadOptions loadOptionsOf(const SourceSpec& spec)
{
    LoadOptions o;
    if (spec.source == "csv" || spec.source == "npy") o.layout = Layout::Matrix;
    else if (spec.source == "prices") o.layout = Layout::Prices;
    else if (spec.source == "ticks") o.layout = Layout::Ticks;
    else throw UsageError("unknown data source '" + spec.source + "'");
    for (const auto& [key, value] : spec.options)
        if (key != "window" && key != "bar" && key != "max_forward_fill" && key != "min_history")
            throw UsageError("the " + spec.source + " source takes no option '" + key + "'");
    o.returnWindow = intOption(spec.options, "window", 0);
    o.maxForwardFill = intOption(spec.options, "max_forward_fill", o.maxForwardFill);
    o.barSeconds = intOption(spec.options, "bar", static_cast<int>(o.barSeconds));
    if (const auto it = spec.options.find("min_history"); it != spec.options.end()) o.minHistory = std::stod(it->second);
    return o;
}

}  // namespace

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

SourceSpec describeFile(const std::string& path, const std::string& sourceName, const SourceOptions& options)
{
    SourceSpec spec;
    spec.location = std::filesystem::absolute(path).lexically_normal().string();
    spec.options = options;
    if (!sourceName.empty()) {
        spec.source = sourceName;
    } else {
        const bool npy = path.size() >= 4 && (path.ends_with(".npy") || path.ends_with(".NPY"));
        const Layout layout = npy ? Layout::Matrix : sniffLayout(path);
        spec.source = npy ? "npy" : layout == Layout::Matrix ? "csv" : toString(layout);
    }
    const LoadOptions o = loadOptionsOf(spec);
    requireOptionsApply(path, *o.layout, o, options.count("bar") > 0);
    if (spec.source == "prices" || spec.source == "ticks") {
        spec.options["window"] = std::to_string(o.returnWindow);
        spec.options["max_forward_fill"] = std::to_string(o.maxForwardFill);
        spec.options["min_history"] = nlohmann::json(o.minHistory).dump();
    }
    if (spec.source == "ticks") spec.options["bar"] = std::to_string(o.barSeconds);
    return spec;
}

SourceSpec describeDemo(const std::string& demoSpec)
{
    return makeDemo(demoSpec).spec;
}

bool isGenerated(const SourceSpec& spec)
{
    return spec.source == "demo";
}

Dataset openSource(const SourceSpec& spec, const std::function<bool(double)>& progress)
{
    Dataset data;
    if (isGenerated(spec)) {
        data = makeDemo(spec.location);
    } else {
        LoadOptions o = loadOptionsOf(spec);
        o.progress = progress;
        data = loadDataset(spec.location, o);
    }
    data.spec = spec;
    return data;
}

}  // namespace clusterdesk
