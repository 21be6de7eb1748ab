#include "run_recorder.h"

#include "engine/store/run_codec.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <iostream>

namespace clusterdesk::cli {
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

std::vector<store::TelemetrySample> telemetry(const PowerSampler& power, const PowerSummary& energy)
{
    std::vector<store::TelemetrySample> samples;
    for (const PowerSample& s : power.samples()) {
        const auto device = static_cast<std::size_t>(s.device);
        samples.push_back({s.seconds, device < energy.devices.size() ? energy.devices[device].device : "device " + std::to_string(s.device),
                           s.watts, toString(s.kind)});
    }
    return samples;
}

}  // namespace

RunRecorder::RunRecorder(store::RunStore& store, const RunOptions& options, const Dataset& data,
                         const std::vector<store::LineageEdge>& parents)
    : m_store(store)
{
    store::NewRun run;
    const bool demo = !options.demoSpec.empty();
    // A file by its absolute path, so a re-run from another directory finds it.
    const std::string source = demo ? data.source : std::filesystem::absolute(options.dataPath).lexically_normal().string();
    run.dataset = {data.contentHash(), source, demo, demo ? "{}" : store::loadOptionsToJson(options.load),
                   toString(data.layout), data.rows, data.cols, ""};
    run.params = options.params;
    run.topology = options.topology;
    run.threads = options.threads;
    run.parents = parents;
    m_id = store.beginRun(run);
}

RunRecorder::~RunRecorder()
{
    if (!m_finished) fail(store::RunStatus::Failed, "clusterdesk-cli stopped before the run ended");
}

void RunRecorder::complete(const RunSummaryInput& summary, const PowerSampler& power)
{
    const ClusterResult& result = summary.report.result;
    store::RunOutcome outcome;
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
    m_store.finishRun(m_id, outcome);
    m_finished = true;
}

void RunRecorder::fail(store::RunStatus status, const std::string& reason) noexcept
{
    store::RunOutcome outcome;
    outcome.status = status;
    outcome.failure = reason;
    try {
        m_store.finishRun(m_id, outcome);
        m_finished = true;
    } catch (const std::exception& e) {
        // The run's own error matters more: say this one and leave the row `running`,
        // which the next start marks interrupted.
        std::cerr << "clusterdesk-cli: cannot record run " << m_id << " as " << store::toString(status) << ": " << e.what() << '\n';
    }
}

}  // namespace clusterdesk::cli
