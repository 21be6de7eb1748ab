#include "demo.h"

#include "demo_generators.h"
#include "engine/core/error.h"

namespace clusterdesk {
namespace {

struct DemoEntry {
    const char* name;
    Dataset (*make)(data::DemoSpec&);
};

constexpr DemoEntry kDemos[] = {
    {"market", &data::makeMarketDemo},
    {"blobs", &data::makeBlobsDemo},
};

Dataset dispatch(data::DemoSpec& parsed)
{
    for (const DemoEntry& demo : kDemos)
        if (parsed.name() == demo.name) return demo.make(parsed);
    std::string names;
    for (const DemoEntry& demo : kDemos) names += (names.empty() ? "" : ", ") + std::string(demo.name);
    throw UsageError("unknown demo '" + parsed.name() + "' (demos: " + names + ")");
}

}  // namespace

Dataset makeDemo(const std::string& spec)
{
    data::DemoSpec parsed(spec);
    Dataset data = dispatch(parsed);
    data.spec = {"demo", data.source, {}};  // the source is the canonical spec
    return data;
}

std::string canonicalDemoSpec(const std::string& spec)
{
    data::DemoSpec parsed(spec, true);
    dispatch(parsed);
    return parsed.canonical();
}

}  // namespace clusterdesk
