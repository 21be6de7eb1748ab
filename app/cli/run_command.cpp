#include "run_command.h"

#include "centroids_text.h"
#include "cli_options.h"

#include "engine/core/error.h"
#include "engine/core/output_file.h"
#include "engine/data/open_source.h"
#include "engine/exec/run_summary.h"
#include "engine/report/membership.h"
#include "engine/session/run_record.h"
#include "engine/session/run_session.h"
#include "engine/telemetry/power_sampler.h"

#include <nlohmann/json.hpp>

#include <atomic>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>

namespace clusterdesk::cli {
namespace {

std::atomic<bool> g_cancel{false};

void onInterrupt(int)
{
    g_cancel.store(true);
}

// --init-centroids: a matrix file with one centroid per row; sets k (k0 for AdaptGrow)
// unless --k disagrees.
void loadInitialCentroids(RunOptions& options, std::int64_t cols)
{
    const std::string& path = options.initCentroidsPath;
    const Dataset centroids = openSource(describeFile(path, matrixSourceOf(path)));
    if (centroids.cols != cols)
        throw DataError(options.initCentroidsPath, 1, 0, "centroids have " + std::to_string(centroids.cols) +
                                                             " columns but the data has " + std::to_string(cols));
    if (options.kGiven && centroids.rows != options.params.k)
        throw DataError(options.initCentroidsPath, 0, 0, "the file holds " + std::to_string(centroids.rows) +
                                                             " centroids but --k is " + std::to_string(options.params.k));
    int& k = options.params.algorithm == Algorithm::KMeans ? options.params.k : options.params.k0;
    k = static_cast<int>(centroids.rows);
    options.params.initialCentroids = centroids.values;
}

// --warm-start: the final centroids of a recorded run; returns the lineage edge from it.
store::LineageEdge warmStart(RunOptions& options, std::int64_t cols)
{
    store::RunStore runStore(existingStorePath(options.dbPath));
    const store::RunRecord from = runStore.loadRun(runStore.resolveId(options.warmStartRun));
    const std::string name = "run " + from.info.id;
    if (from.centroids.empty())
        throw UsageError(name + " has no stored centroids (" + store::toString(from.info.status) +
                         (from.artifactsCollected ? ", removed by runs gc" : "") + ")");
    if (from.cols != cols)
        throw UsageError(name + " has centroids of " + std::to_string(from.cols) + " columns but the data has " + std::to_string(cols));
    if (options.kGiven && from.k != options.params.k)
        throw UsageError(name + " has " + std::to_string(from.k) + " centroids but --k is " + std::to_string(options.params.k));
    int& k = options.params.algorithm == Algorithm::KMeans ? options.params.k : options.params.k0;
    k = from.k;
    options.params.initialCentroids = from.centroids;
    return {"run", from.info.id, "run", "", "warm_start", ""};
}

// Output paths are checked before the run, so a bad path fails in a second, not after
// an hour of clustering; they are written only once the run succeeded, each to a
// temporary file renamed into place, so a failed run or a full disk leaves what they
// held. No output may name an input, the store or another output.
void checkOutputs(const RunOptions& o, const Topology& topology)
{
    std::vector<ProtectedFile> keep = inputFilesToKeep(o);
    if (!topology.hostfile.empty()) keep.push_back({topology.hostfile, "the pool's hostfile (--topology)"});
    const std::vector<ProtectedFile> storeParts = storeFilesToKeep(o.dbPath, o.record);
    // Reading the store as data would load a database as numbers.
    for (const std::string& input : {o.dataPath, o.initCentroidsPath})
        if (const ProtectedFile* file = input.empty() ? nullptr : protectedFileNamed(input, storeParts))
            throw UsageError(input + " is " + file->role + ", not data");
    keep.insert(keep.end(), storeParts.begin(), storeParts.end());
    const std::pair<const char*, const std::string*> outputs[] = {
        {"--labels-out", &o.labelsPath}, {"--centroids-out", &o.centroidsPath}, {"--json", &o.jsonPath}};
    for (const auto& [option, path] : outputs) {
        if (path->empty() || *path == "-") continue;
        checkOutputPath(option, *path, keep);
        keep.push_back({*path, std::string("the output of ") + option});
    }
}

std::string withRunId(const std::string& summaryJson, const std::string& runId)
{
    if (runId.empty()) return summaryJson;
    nlohmann::json summary = nlohmann::json::parse(summaryJson);
    summary["run_id"] = runId;
    return summary.dump(2);
}

}  // namespace

ExecutedRun executeRun(RunOptions& options, std::vector<store::LineageEdge> parents)
{
    takeSpelledThreads(options.topology, options.threads);
    const Topology topology = parseTopology(options.topology);
    // Refused rather than ignored, so a run never records a precision it did not use. A
    // re-run repeats its record's parameters, whatever they say.
    if (options.precisionGiven && options.params.precision != kernels::Precision::FP32 && !topology.onGpus())
        throw UsageError("precision " + kernels::toString(options.params.precision) + " applies to GPU topologies (cuda, pool:N:cuda); topology " +
                         toString(topology) + " computes in fp32");
    checkOutputs(options, topology);
    // Opened before the data loads, so a bad --db fails in a second.
    std::optional<store::RunStore> runStore;
    if (options.record) runStore.emplace(storePath(options.dbPath));
    if (runStore && !runStore->lostOnOpen().empty())
        std::cerr << "clusterdesk-cli: warning: " << runStore->path() << ": " << runStore->lostOnOpen() << '\n';
    const auto data = std::make_shared<const Dataset>(openSourceHashed(sourceOf(options)));
    if (!options.expectedDatasetHash.empty() && data->contentHash() != options.expectedDatasetHash)
        throw DataError(data->source, 0, 0, "the data changed since it was recorded (sha256 was " + options.expectedDatasetHash.substr(0, 12) +
                                                "..., now " + data->contentHash().substr(0, 12) + "...)");
    // A re-run of data whose values are the same but whose row names changed: its
    // labels compare row by row, but its membership lists the rows under the new names.
    if (!options.expectedRowNamesHash.empty() && data->rowNamesHash() != options.expectedRowNamesHash)
        std::cerr << "clusterdesk-cli: warning: " << data->source
                  << ": the row names changed since the run was recorded (the values did not); this run lists its rows under the new names\n";
    if (!options.initCentroidsPath.empty()) loadInitialCentroids(options, data->cols);
    if (!options.warmStartRun.empty()) parents.push_back(warmStart(options, data->cols));

    session::RunRequest request;
    request.data = data;
    request.params = options.params;
    request.topology = topology;
    request.threads = options.threads;
    request.store = runStore ? &*runStore : nullptr;
    request.recordingRequired = true;
    request.parents = std::move(parents);
    // Recorded, so nothing later written for the run (an export, a report) replaces it.
    const std::string initCentroidsFile =
        options.initCentroidsPath.empty() ? std::string() : std::filesystem::absolute(options.initCentroidsPath).lexically_normal().string();
    request.initCentroidsFile = initCentroidsFile;
    // Usage errors surface here, before the run is recorded; what fails after is recorded.
    session::RunSession session(std::move(request));

    RunControl control;
    control.cancel = &g_cancel;
    if (options.verbose) {
        control.onIteration = [](const IterationStats& s) {
            std::fprintf(stderr, "iter %4d  round %2d  k %4d  inertia %.8g  searched %lld rows  assign %.2f ms  update %.2f ms  reduce %.2f ms%s%s\n",
                         s.iteration, s.round, s.k, s.inertia, static_cast<long long>(s.rowsSearched), s.assignMs, s.updateMs,
                         s.reduceMs, s.event.empty() ? "" : "  ", s.event.c_str());
        };
    }
    // Discovery (loading NVML, reading sysfs) happens before the run, so the samples
    // cover the clustering only.
    PowerSampler power;
    std::signal(SIGINT, onInterrupt);
    session::RunResult result;
    try {
        result = session.run(control, power);
    } catch (...) {
        std::signal(SIGINT, SIG_DFL);
        if (!session.recordProblem().empty()) std::cerr << "clusterdesk-cli: " << session.recordProblem() << '\n';
        throw;
    }
    std::signal(SIGINT, SIG_DFL);

    const RunReport& report = result.report;
    const RunSummaryInput summary{*data, session.params(), topology, report, data->contentHash(), result.peakRssMiB, result.power,
                                  initCentroidsFile};
    // The result files even when the store failed at the end (disk full, locked for a
    // minute): that must not cost the user the clustering itself. A cancelled run's
    // partial answer never replaces what they held.
    const bool writesOutputs = !options.labelsPath.empty() || !options.centroidsPath.empty();
    if (report.result.cancelled && writesOutputs) {
        std::cerr << "clusterdesk-cli: the run was cancelled: --labels-out and --centroids-out were not written\n";
    } else {
        if (!options.labelsPath.empty()) writeFileReplacing(options.labelsPath, clusterdesk::report::labelsCsv(data->rowNames, report.result.labels));
        if (!options.centroidsPath.empty())
            writeFileReplacing(options.centroidsPath, centroidsText(report.result.centroids, report.result.k, report.result.cols));
    }
    if (!result.recordProblem.empty()) throw store::StoreError(result.recordProblem);
    if (options.jsonPath == "-") {
        std::cout << withRunId(runSummaryJson(summary), result.runId) << '\n';
    } else {
        if (!options.jsonPath.empty()) writeFileReplacing(options.jsonPath, withRunId(runSummaryJson(summary), result.runId) + '\n');
        std::cout << runSummaryText(summary);
        if (!result.runId.empty()) std::cout << "recorded  run " << result.runId << " in " << runStore->path() << '\n';
    }
    ExecutedRun executed;
    executed.runId = result.runId;
    executed.labels = std::move(result.report.result.labels);
    executed.cancelled = report.result.cancelled;
    return executed;
}

SourceSpec sourceOf(const RunOptions& o)
{
    if (o.recorded) return session::reopenableSpec(*o.recorded);
    if (!o.demoSpec.empty()) return describeDemo(o.demoSpec);
    const std::string source = o.sourceName == "matrix" ? matrixSourceOf(o.dataPath) : o.sourceName;
    return describeFile(o.dataPath, source, o.sourceOptions);
}

int runCommand(const std::vector<std::string>& args)
{
    return exitCodeOf([&] {
        RunOptions options = parseRunOptions(args);
        return executeRun(options).cancelled ? kExitCancelled : kExitOk;
    });
}

}  // namespace clusterdesk::cli
