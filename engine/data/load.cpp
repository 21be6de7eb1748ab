// The old entry points, kept as thin wrappers over the DataSource registry until their
// callers move to describeFile/openSource (open_source.h).
#include "load.h"

#include "engine/core/error.h"
#include "open_source.h"
#include "source_options.h"
#include "source_registry.h"

namespace clusterdesk {
namespace {

const char* sourceNameOf(Layout layout)
{
    switch (layout) {
        case Layout::Matrix: return "csv";
        case Layout::Prices: return "prices";
        case Layout::Ticks: return "ticks";
    }
    throw UsageError("unknown layout");
}

// The options that differ from their defaults: LoadOptions cannot tell a default from a
// choice, so only these count as asked for (and a bar size only when it is not 60 s,
// unless the caller knows it was given).
SourceOptions sourceOptionsOf(const LoadOptions& o, bool barGiven)
{
    const LoadOptions defaults;
    SourceOptions given;
    if (o.returnWindow != defaults.returnWindow) given["window"] = std::to_string(o.returnWindow);
    if (o.maxForwardFill != defaults.maxForwardFill) given["max_forward_fill"] = std::to_string(o.maxForwardFill);
    if (o.minHistory != defaults.minHistory) given["min_history"] = data::realText(o.minHistory);
    if (barGiven || o.barSeconds != defaults.barSeconds) given["bar"] = std::to_string(o.barSeconds);
    return given;
}

}  // namespace

Layout sniffLayout(const std::string& path)
{
    const std::string name = data::detectSource(data::FileHead(path)).name();
    return name == "prices" ? Layout::Prices : name == "ticks" ? Layout::Ticks : Layout::Matrix;
}

void requireOptionsApply(const std::string& path, Layout layout, const LoadOptions& options, bool barGiven)
{
    data::completeOptions(data::findSource(sourceNameOf(layout)), sourceOptionsOf(options, barGiven), path);
}

Dataset loadDataset(const std::string& path, const LoadOptions& options)
{
    std::string name;
    if (options.layout == Layout::Matrix) {
        // A matrix in a binary format is read by its own source.
        const data::DataSource* binary = data::signatureSource(data::FileHead(path));
        name = binary ? binary->name() : "csv";
    } else if (options.layout) {
        name = sourceNameOf(*options.layout);
    }
    SourceSpec spec = describeFile(path, name, sourceOptionsOf(options, false));
    spec.location = path;  // messages name the file as the caller did
    return openSource(spec, options.progress);
}

}  // namespace clusterdesk
