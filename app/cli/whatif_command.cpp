#include "whatif_command.h"

#include "cli_arguments.h"
#include "cli_errors.h"
#include "cli_options.h"
#include "run_command.h"

#include "engine/core/error.h"
#include "engine/core/output_file.h"
#include "engine/data/open_source.h"
#include "engine/session/comparison.h"
#include "engine/session/run_session.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <atomic>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <sstream>

namespace clusterdesk::cli {
namespace {

std::atomic<bool> g_cancel{false};

void onInterrupt(int)
{
    g_cancel.store(true);
}

struct WhatifOptions {
    RunOptions run;
    std::vector<std::string> topologies;
    std::string catalogPath;  // --catalog; empty: the user's copy or the compiled-in one
    std::int64_t shapeRows = 0, shapeCols = 0;  // --shape ROWSxCOLS: a job without data, modeled only
};

// --shape 1000000x256
void parseShape(const std::string& text, WhatifOptions& o)
{
    const auto x = text.find('x');
    if (x == std::string::npos)
        throw UsageError("option --shape: '" + text + "' is not ROWSxCOLS (e.g. 1000000x256)");
    // A model, not a run: up to 10^12 rows or columns, beyond any machine's memory.
    constexpr std::int64_t kLargest = 1'000'000'000'000LL;
    o.shapeRows = parsePositive("--shape (rows)", text.substr(0, x), kLargest);
    o.shapeCols = parsePositive("--shape (columns)", text.substr(x + 1), kLargest);
}

std::vector<std::string> splitList(const std::string& text)
{
    std::vector<std::string> items;
    std::stringstream in(text);
    std::string item;
    while (std::getline(in, item, ','))
        if (!item.empty()) items.push_back(item);
    return items;
}

// Takes --topologies and --catalog out; the rest are `run` options, of which those
// that name one topology or one run's outputs do not apply.
WhatifOptions parseWhatifOptions(const std::vector<std::string>& args)
{
    WhatifOptions o;
    std::vector<std::string> rest;
    std::set<std::string> seen;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a == "--topologies" || a == "--catalog" || a == "--shape") refuseRepeated(seen, a);
        const auto value = [&]() -> const std::string& { return takeValue(args, i); };
        if (a == "--topologies") {
            // model:DEVICE:nodes=4 carries colons, not commas: a comma always separates.
            o.topologies = splitList(value());
            if (o.topologies.empty()) throw UsageError("option --topologies: name at least one topology");
        } else if (a == "--catalog") {
            o.catalogPath = value();
        } else if (a == "--shape") {
            parseShape(value(), o);
        } else {
            for (const char* refused : {"--topology", "--threads", "--labels-out", "--centroids-out", "--init-centroids", "--warm-start"})
                if (a == refused)
                    throw UsageError(a + " does not apply to whatif: name topologies with --topologies (threads as host@N), "
                                         "and export a run's results from `runs export`");
            rest.push_back(a);
        }
    }
    if (o.topologies.empty()) throw UsageError("whatif needs --topologies, e.g. --topologies host@1,host,shards:2,pool:2,model:h200x8");
    if (o.shapeRows > 0) {
        // parseRunOptions wants a source; a shape has none.
        for (const std::string& a : rest) {
            if (a == "--data" || a == "--demo") throw UsageError("--shape describes a job without data: give --shape or " + a + ", not both");
            if (a == "--db") throw UsageError("--shape models a job without running it, so nothing is recorded: leave out --db");
        }
        // In front, so an option left without its value at the end is still the last.
        rest.insert(rest.begin(), {"--demo", "blobs"});
        if (std::find(rest.begin(), rest.end(), "--no-record") == rest.end()) rest.insert(rest.begin(), "--no-record");
    }
    o.run = parseRunOptions(rest);
    return o;
}

std::string number(double value, int precision)
{
    char text[64];
    std::snprintf(text, sizeof text, "%.*f", precision, value);
    return text;
}

// Beside a measured time, the leave-one-out prediction and how far off it is, marked
// with ! beyond the model's target: "0.390 +27%!".
std::string modelCell(const session::TopologyOutcome& o, bool& missed)
{
    if (!o.predictedMsPerIteration) return "";
    if (!o.measured || !(o.msPerIteration > 0)) return number(*o.predictedMsPerIteration, 3);
    const whatif::PredictionError error = whatif::predictionError(o.msPerIteration, *o.predictedMsPerIteration);
    char text[64];
    std::snprintf(text, sizeof text, "%.3f %+.0f%%%s", *o.predictedMsPerIteration, 100 * error.fraction, error.missed ? "!" : "");
    missed = missed || error.missed;
    return text;
}

std::string table(const session::ComparisonResult& result)
{
    std::ostringstream out;
    char line[512];
    bool missed = false;
    std::snprintf(line, sizeof line, "%-28s %-9s %10s %-16s %-17s %9s %11s %10s %8s %6s  %s\n", "topology", "", "ms/iter", "model",
                  "bottleneck", "total s", "energy J", "cost $", "x/iter", "eff.", "answer");
    out << line;
    for (const session::TopologyOutcome& o : result.topologies) {
        if (o.status != "ok") {
            std::snprintf(line, sizeof line, "%-28s %-9s %s%s\n", o.topology.c_str(), "measured", o.status.c_str(),
                          o.failure.empty() ? "" : (": " + o.failure).c_str());
            out << line;
            continue;
        }
        std::string answer = o.identical ? (*o.identical ? "identical" : "CHANGED") : o.ari ? "ARI " + number(*o.ari, 4) : "-";
        if (!o.fitsInMemory) answer += " (does not fit: " + number(o.memoryNeededGiB, 1) + " GiB)";
        std::snprintf(line, sizeof line, "%-28s %-9s %10.3f %-16s %-17s %9.3f %11.1f %10s %8.2f %6s  %s\n", o.topology.c_str(),
                      o.measured ? "measured" : "modeled", o.msPerIteration, modelCell(o, missed).c_str(),
                      o.phases.bottleneck.c_str(), o.totalS, o.energyJ,
                      o.costUsd > 0 ? number(o.costUsd, 5).c_str() : "unpriced", o.speedup,
                      o.efficiency > 0 ? (number(100 * o.efficiency, 0) + "%").c_str() : "-", answer.c_str());
        out << line;
    }
    out << "model: " << whatif::kModelVersion;
    if (result.model.fittedOn.empty()) {
        out << ", its default parameters (no measured run to fit them on)\n";
    } else {
        out << ", fitted on " << result.model.fittedOn.size() << " measured run(s) (";
        for (std::size_t i = 0; i < result.model.fitted.size(); ++i) out << (i ? ", " : "") << result.model.fitted[i];
        out << ")\n'model' beside a measured time: the prediction of the model calibrated without that topology, and its error\n";
        if (missed) out << "! the prediction missed the measured time by more than " << number(100 * whatif::kModelTolerance, 0) << " %, the model's target\n";
    }
    return out.str();
}

}  // namespace

int whatifCommand(const std::vector<std::string>& args)
{
    return exitCodeOf([&] {
        if (!args.empty() && args[0] == "--write-catalog") {
            if (args.size() > 2) throw UsageError("whatif --write-catalog takes at most one FILE");
            const std::string path = args.size() == 2 ? args[1] : userCatalogPath().string();
            // The copy holds the user's prices and devices: never written over.
            std::error_code ec;
            if (std::filesystem::exists(path, ec)) throw UsageError(path + " already exists: edit it, or remove it to start again from the built-in catalog");
            std::filesystem::create_directories(std::filesystem::path(path).parent_path(), ec);
            checkOutputPath("--write-catalog", path, {});
            writeFileReplacing(path, builtinCatalogText());
            std::cout << "wrote the built-in catalog to " << path << "; whatif reads it from there" << (args.size() == 2 ? " with --catalog" : "") << '\n';
            return kExitOk;
        }
        WhatifOptions options = parseWhatifOptions(args);
        RunOptions& run = options.run;
        if (!run.jsonPath.empty() && run.jsonPath != "-") {
            std::vector<ProtectedFile> keep = inputFilesToKeep(run);
            if (!options.catalogPath.empty()) keep.push_back({options.catalogPath, "the catalog (--catalog)"});
            const std::vector<ProtectedFile> storeParts = storeFilesToKeep(run.dbPath, run.record);
            keep.insert(keep.end(), storeParts.begin(), storeParts.end());
            checkOutputPath("--json", run.jsonPath, keep);
        }
        session::ComparisonRequest request;
        request.catalog = loadHardwareCatalog(options.catalogPath);
        if (options.shapeRows > 0) {
            // The checks a run of that shape would meet (k within the rows, k0 within kmax,
            // ...), after the same capping of AdaptGrow's bounds to the rows.
            Dataset planned;
            planned.rows = options.shapeRows;
            planned.cols = options.shapeCols;
            session::capGrowthBounds(run.params, planned);
            validate(run.params, planned, 1);
            const whatif::JobProfile job = whatif::plannedProfile(run.params, options.shapeRows, options.shapeCols);
            nlohmann::json document = {{"job", {{"rows", job.rows}, {"cols", job.cols}, {"basis", job.basis}}},
                                       {"catalog", request.catalog.where}, {"catalog_sha256", request.catalog.sha256},
                                       {"model", nlohmann::json::parse(whatif::parametersJson({}))}};
            session::ComparisonResult result;
            result.topologies = session::predictShape(job, options.topologies, request.catalog);
            for (const session::TopologyOutcome& o : result.topologies) document["topologies"].push_back(nlohmann::json::parse(session::outcomeJson(o)));
            if (run.jsonPath == "-") std::cout << document.dump(2) << '\n';
            else {
                if (!run.jsonPath.empty()) writeFileReplacing(run.jsonPath, document.dump(2) + '\n');
                std::cout << table(result);
            }
            return kExitOk;
        }
        request.topologies = options.topologies;
        // Every spelling is checked before the data loads or anything runs.
        const whatif::LocalMachine machine = whatif::describeLocalMachine();
        for (const std::string& t : request.topologies) whatif::placeTopology(t, request.catalog, machine);
        std::optional<store::RunStore> runStore;
        if (run.record) runStore.emplace(storePath(run.dbPath));
        request.store = runStore ? &*runStore : nullptr;
        request.data = std::make_shared<const Dataset>(openSourceHashed(sourceOf(run)));
        request.params = run.params;

        session::ComparisonControl control;
        control.cancel = &g_cancel;
        control.onTopology = [&](const session::TopologyOutcome& o) {
            if (run.verbose) std::fprintf(stderr, "%s: %s\n", o.topology.c_str(), o.status.c_str());
        };
        control.onIteration = [&](const std::string& topology, const IterationStats& s) {
            if (run.verbose) std::fprintf(stderr, "%s: iter %d  k %d  %.2f ms\n", topology.c_str(), s.iteration, s.k, s.assignMs + s.updateMs + s.reduceMs);
        };
        std::signal(SIGINT, onInterrupt);
        session::ComparisonResult result;
        try {
            result = session::runComparison(request, control);
        } catch (...) {
            std::signal(SIGINT, SIG_DFL);
            throw;
        }
        std::signal(SIGINT, SIG_DFL);
        nlohmann::json document = nlohmann::json::parse(session::comparisonJson(request, result));
        if (!result.comparisonId.empty()) document["comparison_id"] = result.comparisonId;
        if (run.jsonPath == "-") {
            std::cout << document.dump(2) << '\n';
        } else {
            if (!run.jsonPath.empty()) writeFileReplacing(run.jsonPath, document.dump(2) + '\n');
            std::cout << table(result);
            if (!result.comparisonId.empty()) std::cout << "recorded  comparison " << result.comparisonId << " in " << runStore->path() << '\n';
        }
        if (!result.recordProblem.empty()) throw store::StoreError(result.recordProblem);
        return result.cancelled ? kExitCancelled : kExitOk;
    });
}

}  // namespace clusterdesk::cli
