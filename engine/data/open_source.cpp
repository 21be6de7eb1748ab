#include "open_source.h"

#include "data_source.h"
#include "demo.h"
#include "engine/core/error.h"
#include "source_registry.h"

#include <filesystem>

namespace clusterdesk {

SourceSpec describeFile(const std::string& given, const std::string& sourceName, const SourceOptions& options)
{
    // Absolute from here on, so every message names the file as the record will.
    const std::string path = given.empty() ? given : std::filesystem::absolute(given).lexically_normal().string();
    const data::FileHead head(path);
    const data::DataSource& source = sourceName.empty() ? data::detectSource(head) : data::findSource(sourceName);
    if (source.generated())
        throw UsageError("the " + source.name() + " source generates its data; it reads no file such as " + path);
    // A file whose bytes say what it is cannot be read as something else.
    const data::DataSource* signature = data::signatureSource(head);
    if (signature && signature != &source) {
        throw UsageError(path + " is a " + signature->name() + " file, which holds " + signature->holds() +
                         "; it cannot be read by the " + source.name() + " source");
    }
    SourceOptions complete = source.resolveOptions(head, data::completeOptions(source, options, path));
    return {source.name(), path, std::move(complete)};
}

std::string matrixSourceOf(const std::string& path)
{
    const data::DataSource* binary = data::signatureSource(data::FileHead(path));
    return binary ? binary->name() : "csv";
}

SourceSpec describeDemo(const std::string& demoSpec)
{
    return {"demo", canonicalDemoSpec(demoSpec), {}};
}

bool isGenerated(const SourceSpec& spec)
{
    for (const auto& source : data::dataSources())
        if (source->name() == spec.source) return source->generated();
    return false;
}

Dataset openSource(const SourceSpec& spec, const std::function<bool(double)>& progress)
{
    const data::DataSource& source = data::findSource(spec.source);
    SourceSpec complete = spec;
    complete.options = data::completeOptions(source, spec.options, spec.location);
    Dataset data = source.open(complete, progress);
    data.spec = std::move(complete);
    return data;
}

Dataset openSourceHashed(const SourceSpec& spec, const std::function<bool(double)>& progress)
{
    Dataset data = openSource(spec, progress);
    data.knownHash = data.contentHash();
    return data;
}

}  // namespace clusterdesk
