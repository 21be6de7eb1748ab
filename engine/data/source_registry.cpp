#include "source_registry.h"

#include "engine/core/error.h"

#include <algorithm>

namespace clusterdesk::data {

// One line each: the factory in the source's own file. Order matters only for
// sniffing text: the more specific layouts before the plain matrix that takes anything.
std::unique_ptr<DataSource> makeNpySource();
#ifdef CLUSTERDESK_HAVE_HDF5
std::unique_ptr<DataSource> makeHdf5Source();
#endif
std::unique_ptr<DataSource> makeTicksSource();
std::unique_ptr<DataSource> makePricesSource();
std::unique_ptr<DataSource> makeCsvSource();
std::unique_ptr<DataSource> makeDemoSource();

const std::vector<std::unique_ptr<DataSource>>& dataSources()
{
    static const std::vector<std::unique_ptr<DataSource>> sources = [] {
        std::vector<std::unique_ptr<DataSource>> all;
        all.push_back(makeNpySource());
#ifdef CLUSTERDESK_HAVE_HDF5
        all.push_back(makeHdf5Source());
#endif
        all.push_back(makeTicksSource());
        all.push_back(makePricesSource());
        all.push_back(makeCsvSource());
        all.push_back(makeDemoSource());
        return all;
    }();
    return sources;
}

std::vector<std::string> dataFileExtensions()
{
    std::vector<std::string> all;
    for (const auto& source : dataSources())
        for (const std::string& ext : source->extensions())
            if (std::find(all.begin(), all.end(), ext) == all.end()) all.push_back(ext);
    return all;
}

const DataSource& findSource(const std::string& name)
{
    std::string names;
    for (const auto& source : dataSources()) {
        if (source->name() == name) return *source;
        names += (names.empty() ? "" : ", ") + source->name();
    }
    throw UsageError("unknown data source '" + name + "' (sources: " + names + ")");
}

const DataSource* signatureSource(const FileHead& head)
{
    for (const auto& source : dataSources())
        if (source->hasSignature(head)) return source.get();
    return nullptr;
}

const DataSource& detectSource(const FileHead& head)
{
    if (const DataSource* source = signatureSource(head)) return *source;
    for (const auto& source : dataSources())
        if (source->sniff(head)) return *source;
    throw DataError(head.path(), 0, 0, "no data source reads this file");
}

namespace {

// An option `source` does not take: the message names the sources that do, so it says
// where the option belongs, and what the file holds instead.
[[noreturn]] void refuseOption(const DataSource& source, const std::string& name, const std::string& value,
                               const std::string& location)
{
    std::string description, spelled;
    std::vector<std::string> takers;
    for (const auto& other : dataSources()) {
        for (const SourceOption& option : other->options()) {
            if (option.name != name) continue;
            description = option.description;
            spelled = option.flag.empty() ? "--option " + name + "=" + value : option.flag + " " + value;
            takers.push_back(other->name());
        }
    }
    if (takers.empty()) {
        std::string known;
        for (const SourceOption& option : source.options()) known += (known.empty() ? "" : ", ") + option.name;
        throw UsageError("unknown data option '" + name + "' for " + location + " (the " + source.name() +
                         " source takes " + (known.empty() ? "no options" : known) + ")");
    }
    std::sort(takers.begin(), takers.end());
    std::string list;
    for (std::size_t i = 0; i < takers.size(); ++i)
        list += (i == 0 ? "" : i + 1 == takers.size() ? " and " : ", ") + takers[i];
    throw UsageError(description + " (" + spelled + ") applies to " + list + " files; " + location + " holds " +
                     source.holds());
}

}  // namespace

SourceOptions completeOptions(const DataSource& source, const SourceOptions& given, const std::string& location)
{
    const std::vector<SourceOption> declared = source.options();
    for (const auto& entry : given) {
        // A named pair, not a structured binding: clang 14 (the fuzz build) cannot capture those.
        const auto taken = [&](const SourceOption& option) { return option.name == entry.first; };
        if (std::none_of(declared.begin(), declared.end(), taken)) refuseOption(source, entry.first, entry.second, location);
    }
    SourceOptions complete;
    for (const SourceOption& option : declared) {
        const auto it = given.find(option.name);
        complete[option.name] = it == given.end() ? option.defaultValue : option.canonical(it->second);
    }
    return complete;
}

}  // namespace clusterdesk::data
