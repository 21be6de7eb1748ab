#include "run_recording.h"

#include "run_codec.h"

#include "engine/core/error.h"
#include "engine/data/demo.h"
#include "engine/data/load.h"

#include <nlohmann/json.hpp>

#include <filesystem>

namespace clusterdesk::store {
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

DatasetInfo datasetInfoFor(const Dataset& data, const std::string& source, bool demo, const std::string& loadOptionsJson)
{
    const std::string where = demo ? source : std::filesystem::absolute(source).lexically_normal().string();
    return {data.contentHash(), where, demo, demo ? "{}" : loadOptionsJson, toString(data.layout), data.rows, data.cols, ""};
}

RunOutcome finishedOutcome(const RunSummaryInput& summary, const PowerSampler& power)
{
    const ClusterResult& result = summary.report.result;
    RunOutcome outcome;
    outcome.status = result.cancelled ? RunStatus::Cancelled : RunStatus::Ok;
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

Dataset loadRecordedDataset(const RunInfo& run)
{
    Dataset data = run.demo ? makeDemo(run.datasetSource) : loadDataset(run.datasetSource, loadOptionsFromJson(run.loadOptions));
    const std::string hash = data.contentHash();
    if (hash != run.datasetHash)
        throw DataError(run.datasetSource, 0, 0,
                        "the data changed since run " + run.id.substr(0, 8) + " read it (content hash " + hash.substr(0, 12) +
                            ", recorded " + run.datasetHash.substr(0, 12) + ")");
    return data;
}

}  // namespace clusterdesk::store
