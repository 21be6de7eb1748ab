#include "runs_command.h"

#include "cli_arguments.h"
#include "cli_errors.h"
#include "cli_options.h"
#include "runs_diff.h"
#include "runs_export.h"
#include "runs_rerun.h"
#include "runs_view.h"

#include "engine/core/error.h"
#include "engine/core/printable.h"
#include "engine/report/report_evidence.h"
#include "engine/session/run_record.h"
#include "engine/store/run_store.h"
#include "engine/store/store_path.h"
#include "engine/stream/live_input.h"

#include <unistd.h>

#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <set>

namespace clusterdesk::cli {
namespace {

store::RunSort parseSort(const std::string& text)
{
    static const std::map<std::string, store::RunSort> keys = {
        {"started", store::RunSort::Started}, {"ended", store::RunSort::Ended},   {"algorithm", store::RunSort::Algorithm},
        {"status", store::RunSort::Status},   {"energy", store::RunSort::Energy}, {"duration", store::RunSort::Duration}};
    const auto found = keys.find(text);
    if (found == keys.end()) throw UsageError("option --sort: '" + text + "' is not one of started, ended, algorithm, status, energy, duration");
    return found->second;
}

int list(const std::vector<std::string>& args)
{
    const Arguments a = parseArguments("runs list", args, 0, 0, {"--status", "--filter", "--sort", "--limit"}, {"--json", "--asc", "--deleted"});
    store::RunFilter filter;
    filter.text = a.value("--filter");
    if (a.has("--status")) {
        filter.status = store::parseRunStatus(a.value("--status"));
        if (!filter.status) throw UsageError("option --status: '" + a.value("--status") + "' is not one of running, ok, failed, cancelled");
    }
    if (a.has("--sort")) filter.sort = parseSort(a.value("--sort"));
    filter.descending = !a.has("--asc");
    if (a.has("--limit")) filter.limit = parsePositive("--limit", a.value("--limit"));
    filter.includeDeleted = a.has("--deleted");
    const auto runStore = openStore(a.value("--db"), store::StoreAccess::ReadOnly);
    const std::vector<store::RunInfo> runs = runStore->listRuns(filter);
    if (a.has("--json")) {
        nlohmann::json out = nlohmann::json::array();
        for (const store::RunInfo& run : runs) out.push_back(runInfoJson(run));
        std::cout << out.dump(2) << '\n';
    } else {
        std::cout << runListText(runs);
    }
    return kExitOk;
}

int show(const std::vector<std::string>& args)
{
    const Arguments a = parseArguments("runs show", args, 1, 1, {}, {"--json"});
    const auto runStore = openStore(a.value("--db"), store::StoreAccess::ReadOnly);
    const store::RunRecord record = runStore->loadRun(runStore->resolveId(a.positional[0]));
    std::cout << (a.has("--json") ? runRecordJson(record).dump(2) + "\n" : runShowText(record));
    return kExitOk;
}

int diff(const std::vector<std::string>& args)
{
    const Arguments a = parseArguments("runs diff", args, 2, 2, {}, {});
    const auto runStore = openStore(a.value("--db"), store::StoreAccess::ReadOnly);
    const store::RunRecord first = runStore->loadRun(runStore->resolveId(a.positional[0]));
    const store::RunRecord second = runStore->loadRun(runStore->resolveId(a.positional[1]));
    std::cout << runDiffText(first, second);
    return kExitOk;
}

// `runs verify --report FILE`: the report's evidence against the store (report_evidence.h).
int verifyReportFile(const store::RunStore& runStore, const std::string& file)
{
    const report::ReportCheck check = report::verifyReport(runStore, file);
    for (const std::string& note : check.notes) std::cout << "note      " << printable(note) << '\n';
    if (!check.ok) {
        std::cout << "verify    FAILED: " << printable(file) << " against " << runStore.path() << ":\n";
        for (const std::string& problem : check.problems) std::cout << "          " << printable(problem) << '\n';
        return kExitCheckFailed;
    }
    std::cout << "verify    ok: " << printable(file) << " is recorded in " << runStore.path()
              << "; every run it cites and the chain head it quotes are unchanged\n";
    return kExitOk;
}

int verify(const std::vector<std::string>& args)
{
    const Arguments a = parseArguments("runs verify", args, 0, 0, {"--report"}, {});
    const auto runStore = openStore(a.value("--db"), store::StoreAccess::ReadOnly);
    if (a.has("--report")) return verifyReportFile(*runStore, a.value("--report"));
    const store::VerifyReport report = runStore->verify();
    if (!report.ok) {
        std::cout << "verify    FAILED in " << runStore->path() << ": " << printable(report.problem) << '\n';
        return kExitCheckFailed;
    }
    std::cout << "verify    ok: " << report.records << (report.records == 1 ? " record" : " records") << " in the hash chain of "
              << runStore->path() << (report.records == 1 ? " matches" : " match");
    if (report.events > 0)
        std::cout << " (and " << report.events << (report.events == 1 ? " chained event" : " chained events")
                  << ": deletions, later lineage edges, sealing markers)";
    std::cout << '\n';
    if (report.plainRecords > 0)
        std::cout << "          " << report.plainRecords
                  << " of them were sealed before keyed sealing (plain SHA-256): a script could re-seal those after an edit\n";
    return kExitOk;
}

int exportCommand(const std::vector<std::string>& args)
{
    const Arguments a = parseArguments("runs export", args, 1, 1, {"--out"}, {});
    if (a.value("--out").empty()) throw UsageError("runs export needs --out DIR");
    const auto runStore = openStore(a.value("--db"), store::StoreAccess::ReadOnly);
    const store::RunRecord record = runStore->loadRun(runStore->resolveId(a.positional[0]));
    // The asset names come from the data the run read, reopened only when it still
    // hashes the same (a live update's, from its recorded window); data without row
    // names is labelled by row number. Names that exist but are not at hand are said,
    // after the export (a refused export says only why it was refused).
    std::vector<std::string> rowNames;
    std::string namesMissing;
    if (!record.labels.empty()) {
        try {
            if (record.info.dataSource.source != kLiveSource) {
                rowNames = session::openRecordedDataset(record.info).rowNames;
            } else {
                if (!record.liveInput.empty())
                    rowNames = stream::liveInputFromJson(record.liveInput, "the recorded input of run " + record.info.id).windowAssets;
                if (rowNames.empty())
                    throw UsageError("its window's assets were not recorded (an update from before they were kept, or gc removed them)");
            }
        } catch (const Error& e) {
            namesMissing = e.what();
        }
    }
    // Nothing exported may replace the store or what the run read.
    std::vector<ProtectedFile> keep = store::storeFiles(runStore->path());
    const std::vector<ProtectedFile> inputs = session::inputFilesOf(record.info);
    keep.insert(keep.end(), inputs.begin(), inputs.end());
    for (const auto& file : exportRun(record, a.value("--out"), keep, rowNames))
        std::cout << "wrote     " << file.string() << '\n';
    if (!namesMissing.empty())
        std::cerr << "clusterdesk-cli: labels.csv names rows by number: the run's row names are not at hand (" << namesMissing << ")\n";
    if (record.labels.empty())
        std::cerr << "clusterdesk-cli: no labels.csv or centroids.csv: "
                  << (record.artifactsCollected ? "runs gc removed the labels and centroids of this deleted run"
                                                : "the run recorded none (" + store::toString(record.info.status) + ")")
                  << '\n';
    return kExitOk;
}

int remove(const std::vector<std::string>& args)
{
    const Arguments a = parseArguments("runs delete", args, 1, 1, {}, {});
    const auto runStore = openStore(a.value("--db"), store::StoreAccess::ReadWrite);
    const std::string id = runStore->resolveId(a.positional[0]);
    if (!runStore->deleteRun(id)) {
        std::cout << "deleted   run " << id << " was deleted before; nothing changed\n";
        return kExitOk;
    }
    std::cout << "deleted   run " << id << " (its record stays in the hash chain; runs gc removes its labels and centroids)\n";
    return kExitOk;
}

int gc(const std::vector<std::string>& args)
{
    const Arguments a = parseArguments("runs gc", args, 0, 0, {}, {});
    const auto runStore = openStore(a.value("--db"), store::StoreAccess::ReadWrite);
    const store::GcReport report = runStore->collectGarbage();
    std::cout << "gc        removed the artifacts of " << report.runs << " deleted run" << (report.runs == 1 ? "" : "s") << " ("
              << report.bytes << " bytes)\n";
    return kExitOk;
}

int rerun(const std::vector<std::string>& args)
{
    const Arguments a = parseArguments("runs rerun", args, 1, 1, {"--topology", "--threads"}, {});
    RerunOptions options;
    options.dbPath = a.value("--db");
    options.runId = a.positional[0];
    options.topology = a.value("--topology");
    if (a.has("--threads")) options.threads = parsePositive("--threads", a.value("--threads"));
    return rerunCommand(options);
}

}  // namespace

int runsCommand(const std::vector<std::string>& args)
{
    return exitCodeOf([&] {
        static const std::map<std::string, int (*)(const std::vector<std::string>&)> commands = {
            {"list", list},     {"show", show},     {"diff", diff},     {"verify", verify},
            {"export", exportCommand}, {"delete", remove}, {"gc", gc}, {"rerun", rerun}};
        if (args.empty()) throw UsageError("runs needs a command: list, show, rerun, diff, verify, export, delete or gc");
        const auto found = commands.find(args[0]);
        if (found == commands.end())
            throw UsageError("unknown runs command '" + args[0] + "' (list, show, rerun, diff, verify, export, delete, gc)");
        return found->second(std::vector<std::string>(args.begin() + 1, args.end()));
    });
}

}  // namespace clusterdesk::cli
