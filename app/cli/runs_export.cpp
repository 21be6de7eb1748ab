#include "runs_export.h"

#include "centroids_text.h"
#include "runs_view.h"

#include "engine/core/csv_cell.h"
#include "engine/core/error.h"
#include "engine/data/source_options.h"
#include "engine/report/membership.h"

#include <utility>

namespace clusterdesk::cli {

std::vector<std::filesystem::path> exportRun(const store::RunRecord& record, const std::filesystem::path& dir,
                                             const std::vector<ProtectedFile>& keep, const std::vector<std::string>& rowNames)
{
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) throw UsageError("cannot create " + dir.string() + ": " + ec.message());
    // Every file is composed and checked before the first is written.
    std::vector<std::pair<std::filesystem::path, std::string>> files;
    auto add = [&](const char* name, std::string content) { files.emplace_back(dir / name, std::move(content)); };
    add("run.json", runRecordJson(record).dump(2) + "\n");
    if (!record.labels.empty()) add("labels.csv", report::labelsCsv(rowNames, record.labels));
    if (!record.centroids.empty()) add("centroids.csv", centroidsText(record.centroids, record.k, record.cols));
    if (!record.iterations.empty()) {
        std::string text = "iteration,round,k,inertia,assign_ms,update_ms,reduce_ms,rows_searched,event\n";
        for (const IterationStats& s : record.iterations)
            text += std::to_string(s.iteration) + ',' + std::to_string(s.round) + ',' + std::to_string(s.k) + ',' + data::realText(s.inertia) + ',' +
                    data::realText(s.assignMs) + ',' + data::realText(s.updateMs) + ',' + data::realText(s.reduceMs) + ',' + std::to_string(s.rowsSearched) + ',' +
                    csvCell(s.event) + '\n';
        add("iterations.csv", std::move(text));
    }
    if (!record.telemetry.empty()) {
        std::string text = "seconds,device,watts,kind\n";
        for (const store::TelemetrySample& t : record.telemetry)
            text += data::realText(t.seconds) + ',' + csvCell(t.device) + ',' + data::realText(t.watts) + ',' + t.kind + '\n';
        add("telemetry.csv", std::move(text));
    }
    for (const auto& [path, content] : files) checkOutputPath("runs export --out", path.string(), keep);
    std::vector<std::filesystem::path> written;
    for (const auto& [path, content] : files) {
        writeFileReplacing(path.string(), content);
        written.push_back(path);
    }
    return written;
}

}  // namespace clusterdesk::cli
