#include "run_command.h"

#include "cli_options.h"

#include "engine/core/error.h"
#include "engine/data/demo.h"
#include "engine/data/load.h"
#include "engine/exec/run_clustering.h"
#include "engine/exec/run_summary.h"
#include "engine/telemetry/power_sampler.h"

#include <atomic>
#include <csignal>
#include <cstdio>
#include <cstdlib>
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

// VmHWM from /proc: unlike getrusage's ru_maxrss it starts afresh at exec, so it
// does not report a large parent's memory at fork time as ours. 0 when unreadable.
double peakRssMiB()
{
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line)) {
        if (line.rfind("VmHWM:", 0) == 0) return std::strtod(line.c_str() + 6, nullptr) / 1024.0;
    }
    return 0;
}

std::ofstream openOutput(const std::string& path)
{
    std::ofstream out(path);
    if (!out) throw UsageError("cannot write " + path);
    return out;
}

void writeLabels(std::ofstream& out, const std::string& path, const std::vector<std::int32_t>& labels)
{
    std::string text;
    text.reserve(labels.size() * 3);
    for (std::int32_t label : labels) {
        text += std::to_string(label);
        text += '\n';
    }
    out << text;
    if (!out) throw UsageError("cannot write " + path);
}

void writeCentroids(std::ofstream& out, const std::string& path, const ClusterResult& result)
{
    char cell[32];
    for (int c = 0; c < result.k; ++c) {
        std::string line;
        for (std::int64_t j = 0; j < result.cols; ++j) {
            std::snprintf(cell, sizeof cell, "%.9g", static_cast<double>(result.centroids[static_cast<std::size_t>(c * result.cols + j)]));
            if (j > 0) line += ',';
            line += cell;
        }
        out << line << '\n';
    }
    if (!out) throw UsageError("cannot write " + path);
}

// --init-centroids: a matrix file with one centroid per row; sets k (k0 for AdaptGrow)
// unless --k disagrees.
void loadInitialCentroids(RunOptions& options, std::int64_t cols)
{
    LoadOptions load;
    load.layout = Layout::Matrix;
    const Dataset centroids = loadDataset(options.initCentroidsPath, load);
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

// Output files are created before the run, so a bad path fails in a second, not
// after an hour of clustering.
struct Outputs {
    std::optional<std::ofstream> json, labels, centroids;

    explicit Outputs(const RunOptions& o)
    {
        if (!o.jsonPath.empty() && o.jsonPath != "-") json = openOutput(o.jsonPath);
        if (!o.labelsPath.empty()) labels = openOutput(o.labelsPath);
        if (!o.centroidsPath.empty()) centroids = openOutput(o.centroidsPath);
    }
};

int execute(RunOptions& options)
{
    const Topology topology = parseTopology(options.topology);
    Outputs outputs(options);
    const Dataset data = options.demoSpec.empty() ? loadDataset(options.dataPath, options.load) : makeDemo(options.demoSpec);
    if (!options.initCentroidsPath.empty()) loadInitialCentroids(options, data.cols);
    if (!options.kMaxGiven) options.params.kMax = static_cast<int>(std::min<std::int64_t>(options.params.kMax, data.rows));
    if (!options.k0Given) options.params.k0 = std::min(options.params.k0, options.params.kMax);

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
    // cover the clustering only; the destructor joins the thread if the run throws.
    PowerSampler power;
    std::signal(SIGINT, onInterrupt);
    power.start();
    const RunReport report = runClustering(data, options.params, topology, options.threads, control);
    power.stop();
    std::signal(SIGINT, SIG_DFL);

    const RunSummaryInput summary{data, options.params, topology, report, data.contentHash(), peakRssMiB(), power.summary()};
    if (outputs.labels) writeLabels(*outputs.labels, options.labelsPath, report.result.labels);
    if (outputs.centroids) writeCentroids(*outputs.centroids, options.centroidsPath, report.result);
    if (options.jsonPath == "-") {
        std::cout << runSummaryJson(summary) << '\n';
    } else {
        if (outputs.json) *outputs.json << runSummaryJson(summary) << '\n';
        std::cout << runSummaryText(summary);
    }
    return report.result.cancelled ? kExitCancelled : kExitOk;
}

}  // namespace

int runCommand(const std::vector<std::string>& args)
{
    try {
        RunOptions options = parseRunOptions(args);
        return execute(options);
    } catch (const UsageError& e) {
        std::cerr << "clusterdesk-cli: " << e.what() << '\n';
        return kExitUsage;
    } catch (const DataError& e) {
        std::cerr << "clusterdesk-cli: bad input data: " << e.what() << '\n';
        return kExitData;
    } catch (const Cancelled& e) {
        std::cerr << "clusterdesk-cli: cancelled: " << e.what() << '\n';
        return kExitCancelled;
    } catch (const std::bad_alloc&) {
        std::cerr << "clusterdesk-cli: engine error: out of memory\n";
        return kExitEngine;
    } catch (const std::exception& e) {
        std::cerr << "clusterdesk-cli: engine error: " << e.what() << '\n';
        return kExitEngine;
    }
}

}  // namespace clusterdesk::cli
