#include "runs_view.h"

#include "engine/cluster/cluster_codec.h"
#include "engine/core/printable.h"
#include "engine/core/units.h"
#include "engine/data/source_spec.h"
#include "engine/exec/topology.h"

#include <algorithm>
#include <cstdio>

namespace clusterdesk::cli {
namespace {

nlohmann::json parsedOrEmpty(const std::string& json)
{
    nlohmann::json parsed = nlohmann::json::parse(json, nullptr, false);
    return parsed.is_discarded() ? nlohmann::json::object() : parsed;
}

std::string metric(const nlohmann::json& metrics, const char* key, const char* format)
{
    if (!metrics.contains(key) || !metrics[key].is_number()) return "-";
    char text[64];
    std::snprintf(text, sizeof text, format, metrics[key].get<double>());
    return text;
}

nlohmann::json edgeJson(const store::LineageEdge& e)
{
    return {{"src_kind", e.srcKind}, {"src", e.src}, {"dst_kind", e.dstKind}, {"dst", e.dst}, {"relation", e.relation},
            {"created_at", e.createdAt}};
}

}  // namespace

std::string shortId(const std::string& id)
{
    return id.substr(0, 8);
}

nlohmann::json runInfoJson(const store::RunInfo& r)
{
    nlohmann::json j = {{"id", r.id},
                        {"status", store::toString(r.status)},
                        {"dataset_hash", r.datasetHash},
                        {"dataset_source", r.dataSource.location},
                        {"data_source", parsedOrEmpty(sourceSpecToJson(r.dataSource))},
                        {"algorithm", r.algorithm},
                        {"params", parsedOrEmpty(r.paramsJson)},
                        {"mode", r.mode},
                        {"precision", r.precision},
                        {"seed", r.seed},
                        {"topology", r.topology},
                        {"threads", r.threads},
                        {"backend", r.backend},
                        {"devices", r.devices},
                        {"engine_version", r.engineVersion},
                        {"git_commit", r.gitCommit},
                        {"host", r.host},
                        {"started_at", r.startedAt},
                        {"ended_at", r.endedAt},
                        {"metrics", parsedOrEmpty(r.metricsJson)},
                        {"deleted", r.deleted},
                        {"record_hash", r.recordHash}};
    if (!r.failure.empty()) j["failure"] = r.failure;
    if (r.energyJ) {
        j["energy_j"] = *r.energyJ;
        j["energy_source"] = r.energySource;
    }
    if (r.chainSeq) j["chain_seq"] = *r.chainSeq;
    return j;
}

nlohmann::json runRecordJson(const store::RunRecord& record)
{
    nlohmann::json j = runInfoJson(record.info);
    j["dataset"] = {{"hash", record.dataset.hash},   {"source", record.dataset.spec.location}, {"layout", record.dataset.layout},
                    {"rows", record.dataset.rows},   {"cols", record.dataset.cols},     {"first_seen", record.dataset.firstSeen}};
    j["iterations"] = record.iterations.size();
    j["telemetry_samples"] = record.telemetry.size();
    j["labels_stored"] = !record.labels.empty();
    j["centroids_stored"] = !record.centroids.empty();
    j["artifacts_collected"] = record.artifactsCollected;
    nlohmann::json lineage = nlohmann::json::array();
    for (const store::LineageEdge& e : record.lineage) lineage.push_back(edgeJson(e));
    j["lineage"] = std::move(lineage);
    return j;
}

std::string runListText(const std::vector<store::RunInfo>& runs)
{
    std::string text;
    char line[512];
    std::snprintf(line, sizeof line, "%-8s  %-19s  %-11s  %-9s  %-5s  %-10s  %4s  %-12s  %-9s  %s\n", "ID", "STARTED (UTC)", "STATUS",
                  "ALGORITHM", "MODE", "TOPOLOGY", "K", "INERTIA", "SECONDS", "DATASET");
    text += line;
    bool anyDeleted = false;
    for (const store::RunInfo& r : runs) {
        anyDeleted = anyDeleted || r.deleted;
        std::string status = store::toString(r.status);
        if (r.failure == store::kInterrupted) status = "interrupted";
        if (r.deleted) status += "*";
        const nlohmann::json metrics = parsedOrEmpty(r.metricsJson);
        std::snprintf(line, sizeof line, "%-8s  %-19.19s  %-11s  %-9s  %-5s  %-10s  %4s  %-12s  %-9s  %s\n", shortId(r.id).c_str(),
                      printable(r.startedAt).c_str(), status.c_str(), printable(r.algorithm).c_str(), printable(r.mode).c_str(),
                      printable(spelledWithThreads(r.topology, r.threads)).c_str(),
                      metric(metrics, "k", "%.0f").c_str(), metric(metrics, "inertia", "%.6g").c_str(),
                      metric(metrics, "seconds_total", "%.4g").c_str(), printable(r.dataSource.location).c_str());
        text += line;
    }
    if (runs.empty()) text += "(no runs)\n";
    if (anyDeleted) text += "* deleted: kept in the history and the chain; runs gc removes a deleted run's labels and centroids\n";
    return text;
}

std::string runShowText(const store::RunRecord& record)
{
    const store::RunInfo& r = record.info;
    std::string text;
    auto field = [&](const char* name, const std::string& value) {
        if (value.empty()) return;
        std::string label = name;
        label.resize(std::max<std::size_t>(label.size() + 1, 12), ' ');
        text += label + printable(value) + "\n";  // paths and messages come from outside
    };
    field("run", r.id + (r.deleted ? "  (deleted)" : ""));
    field("status", store::toString(r.status) + (r.failure.empty() ? "" : " (" + r.failure + ")"));
    field("dataset", r.dataSource.location + "  (" + std::to_string(record.dataset.rows) + " rows x " + std::to_string(record.dataset.cols) +
                         " cols, " + record.dataset.layout + ", sha256 " + r.datasetHash.substr(0, 12) + ")");
    field("source", sourceSpecToJson(r.dataSource));
    field("algorithm", r.algorithm + ", " + r.mode + " mode, " + r.precision + ", seed " + r.seed);
    // The parameters that shaped the run (no k for AdaptGrow, ...); --json keeps the record whole.
    field("params", codec::paramsThatApplied(parsedOrEmpty(r.paramsJson)).dump());
    std::string devices;
    for (const std::string& d : r.devices) devices += (devices.empty() ? "" : ", ") + d;
    field("topology", r.topology + (spelledOnGpus(r.topology) ? "" : ", " + threadsText(r.threads)) +
                          (r.backend.empty() ? "" : ", " + r.backend + " backend") + (devices.empty() ? "" : " on " + devices));
    field("engine", r.engineVersion + " (commit " + r.gitCommit + ") on host " + r.host);
    field("time", r.startedAt + " .. " + (r.endedAt.empty() ? "(running)" : r.endedAt));
    field("metrics", r.metricsJson);
    if (r.energyJ) field("energy", formatJoules(*r.energyJ) + " (" + r.energySource + ")");
    field("recorded", std::to_string(record.iterations.size()) + " iterations, " + std::to_string(record.telemetry.size()) +
                          " telemetry samples, " + (record.labels.empty() ? "no labels" : std::to_string(record.labels.size()) + " labels") +
                          ", " + (record.centroids.empty() ? "no centroids" : std::to_string(record.k) + " centroids") +
                          (record.artifactsCollected ? " (artifacts removed by gc)" : ""));
    if (r.chainSeq) field("chain", "record #" + std::to_string(*r.chainSeq) + ", seal " + r.recordHash);
    for (const store::LineageEdge& e : record.lineage)
        field("lineage", e.srcKind + " " + (e.srcKind == "run" ? shortId(e.src) : e.src.substr(0, 12)) + " -> " + e.dstKind + " " +
                             (e.dstKind == "run" ? shortId(e.dst) : e.dst) + "  (" + e.relation + ")");
    return text;
}

}  // namespace clusterdesk::cli
