#include "run_record.h"

#include "engine/core/error.h"
#include "engine/data/open_source.h"
#include "engine/data/price_pipeline.h"
#include "engine/data/source_registry.h"

#include <nlohmann/json.hpp>

#include <algorithm>


namespace clusterdesk::session {

using store::RunOutcome;
using store::TelemetrySample;
namespace {

// The summary's measures of the result; what the run row holds in its own columns
// (parameters, topology, devices, energy) and the per-iteration history (a table of
// its own) are left out.
std::string metricsJson(const RunSummaryInput& summary)
{
    nlohmann::json metrics = nlohmann::json::parse(runSummaryJson(summary));
    for (const char* recordedElsewhere : {"history", "dataset", "engine_version", "git_commit", "algorithm", "init", "seed", "mode",
                                          "precision", "backend", "topology", "devices", "energy_j", "energy_source"})
        metrics.erase(recordedElsewhere);
    // The dataset row holds the values' hash only; the names the membership is listed
    // under are checked against this when the data is reopened.
    if (const std::string names = summary.data.rowNamesHash(); !names.empty()) metrics["row_names_hash"] = names;
    return metrics.dump();
}

std::vector<TelemetrySample> telemetry(const PowerSampler& power, const PowerSummary& energy)
{
    std::vector<TelemetrySample> samples;
    for (const PowerSample& s : power.samples()) {
        const auto device = static_cast<std::size_t>(s.device);
        samples.push_back({s.seconds, device < energy.devices.size() ? energy.devices[device].device : "device " + std::to_string(s.device),
                           s.watts, toString(s.kind)});
    }
    return samples;
}

}  // namespace

store::DatasetInfo datasetInfoFor(const Dataset& data)
{
    if (data.spec.source.empty()) throw UsageError("the dataset from " + data.source + " does not say how it was opened, so it cannot be recorded");
    return {data.contentHash(), data.spec, toString(data.layout), data.rows, data.cols, ""};
}

RunOutcome finishedOutcome(const RunSummaryInput& summary, const PowerSampler& power)
{
    const ClusterResult& result = summary.report.result;
    RunOutcome outcome;
    outcome.status = result.cancelled ? store::RunStatus::Cancelled : store::RunStatus::Ok;
    if (result.cancelled) outcome.failure = "cancelled by the user after iteration " + std::to_string(result.iterations);
    outcome.backend = summary.report.backend;
    outcome.devices = summary.report.devices;
    outcome.metricsJson = metricsJson(summary);
    if (summary.power && !summary.power->devices.empty()) {
        outcome.energyJ = summary.power->energyJ;
        outcome.energySource = summary.power->energySource;
        outcome.telemetry = telemetry(power, *summary.power);
    }
    outcome.iterations = result.history;
    outcome.k = result.k;
    outcome.cols = result.cols;
    outcome.centroids = result.centroids;
    outcome.labels = result.labels;
    return outcome;
}

SourceSpec reopenableSpec(const SourceSpec& recorded)
{
    SourceSpec spec = recorded.source.empty() ? describeFile(recorded.location, "", recorded.options) : recorded;
    // Prices read before days were scaled to unit dispersion were read unscaled: a spec
    // without the option means 0, not today's default.
    const std::string key(data::kScaleDaysOption);
    if (isGenerated(spec)) {
        if (spec.location.rfind("market:", 0) == 0 && spec.location.find(key + "=") == std::string::npos)
            spec.location += "," + key + "=0";
    } else if (!recorded.options.contains(key)) {
        const auto options = data::findSource(spec.source).options();
        if (std::any_of(options.begin(), options.end(), [&](const data::SourceOption& o) { return o.name == key; })) spec.options[key] = "0";
    }
    return spec;
}

std::string recordedRowNamesHash(const store::RunInfo& run)
{
    const nlohmann::json metrics = nlohmann::json::parse(run.metricsJson, nullptr, /*allow_exceptions=*/false);
    const bool recorded = metrics.is_object() && metrics.contains("row_names_hash") && metrics["row_names_hash"].is_string();
    return recorded ? metrics["row_names_hash"].get<std::string>() : std::string();
}

std::string whyLabelsNotComparable(const store::RunRecord& a, const store::RunRecord& b)
{
    for (const store::RunRecord* run : {&a, &b})
        if (run->labels.empty())
            return "run " + run->info.id.substr(0, 8) + " has no stored labels (" + store::toString(run->info.status) +
                   (run->artifactsCollected ? ", removed by runs gc)" : ")");
    if (a.labels.size() != b.labels.size())
        return "they labelled different numbers of rows (" + std::to_string(a.labels.size()) + " and " +
               std::to_string(b.labels.size()) + ")";
    const std::string namesA = recordedRowNamesHash(a.info);
    const std::string namesB = recordedRowNamesHash(b.info);
    if (!namesA.empty() && !namesB.empty() && namesA != namesB)
        return "their rows are named differently (other assets, or the same in another order): "
               "row by row the labels would pair unrelated rows";
    return {};
}

std::string whyNotTheData(const store::RunInfo& run, const Dataset& data)
{
    const std::string hash = data.contentHash();
    if (hash != run.datasetHash)
        return "the data changed since run " + run.id.substr(0, 8) + " read it (content hash " + hash.substr(0, 12) + ", recorded " +
               run.datasetHash.substr(0, 12) + ")";
    // Same values under other names (two assets' columns swapped, one renamed): the run's
    // membership would be listed under names it never clustered. Records from before
    // names were hashed have none to compare.
    if (const std::string names = recordedRowNamesHash(run); !names.empty() && names != data.rowNamesHash())
        return "the row names changed since run " + run.id.substr(0, 8) +
               " read it (the values did not): its membership would be listed under other names";
    return {};
}

std::vector<ProtectedFile> inputFilesOf(const store::RunInfo& run)
{
    const std::string whose = "run " + run.id.substr(0, 8);
    std::vector<ProtectedFile> files = inputFilesOf(run.dataSource, whose);
    const nlohmann::json metrics = nlohmann::json::parse(run.metricsJson, nullptr, false);
    if (metrics.is_object() && metrics.contains("init_centroids_file") && metrics["init_centroids_file"].is_string())
        files.push_back({metrics["init_centroids_file"].get<std::string>(), "the initial centroids (--init-centroids) of " + whose});
    return files;
}

Dataset openRecordedDataset(const store::RunInfo& run)
{
    // A live update's window was assembled from the feed: there is no file to reopen.
    if (run.dataSource.source == kLiveSource)
        throw UsageError("run " + run.id.substr(0, 8) + " is an update of the live session on " + run.dataSource.location +
                         ": its window came from the feed, not a file (runs rerun replays the session)");
    Dataset data = openSource(reopenableSpec(run.dataSource));
    if (const std::string why = whyNotTheData(run, data); !why.empty()) throw DataError(run.dataSource.location, 0, 0, why);
    return data;
}

}  // namespace clusterdesk::session
