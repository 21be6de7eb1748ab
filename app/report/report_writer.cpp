#include "report_writer.h"

#include "report_html.h"
#include "report_pdf.h"
#include "report_plots.h"

#include "engine/core/error.h"
#include "engine/core/output_file.h"
#include "engine/core/sha256.h"
#include "engine/core/vector_state.h"
#include "engine/report/membership.h"
#include "engine/report/report_content.h"
#include "engine/session/run_record.h"
#include "engine/store/store_path.h"
#include "engine/stream/recorded_data.h"

#include <algorithm>
#include <system_error>
#include <utility>

namespace clusterdesk::report {
namespace {

std::string defaultTitle(const ReportContent& content)
{
    if (content.runs.size() > 1) return "Clustering report: " + std::to_string(content.runs.size()) + " runs compared";
    const store::RunRecord& r = content.runs.front().record;
    return "Clustering report: run " + r.info.id.substr(0, 8) + " (" + r.info.algorithm + ", k = " + std::to_string(r.k) + ")";
}

// The labels CSV beside a PDF: one per run, named after the run when there are several.
std::filesystem::path labelsFileFor(const std::filesystem::path& out, const std::string& runId, bool several)
{
    if (!several) return labelsPathFor(out);
    std::filesystem::path path = out;
    return path.replace_extension("." + runId.substr(0, 8) + ".labels.csv");
}

// The labels files an earlier PDF under this name wrote, as its evidence file lists its
// runs; none when there is no earlier report or its evidence cannot be read.
std::vector<std::filesystem::path> labelsFilesOfEarlierReport(const std::filesystem::path& out)
{
    // A run id as the store writes it (a uuid): anything else in an edited evidence file
    // names no file of ours.
    const auto isRunId = [](const std::string& id) {
        return id.size() >= 8 && id.find_first_not_of("0123456789abcdef-") == std::string::npos;
    };
    std::vector<std::filesystem::path> paths;
    try {
        const ReportEvidence earlier = readEvidence(out);
        for (const CitedRun& run : earlier.runs)
            if (isRunId(run.id)) paths.push_back(labelsFileFor(out, run.id, earlier.runs.size() > 1));
    } catch (const std::exception&) {
        // Not a report we wrote, or none: nothing of it to tidy.
    }
    return paths;
}

}  // namespace

WrittenReport writeReport(store::RunStore& runStore, const ReportRequest& request)
{
    const std::string suffix = request.out.extension().string();
    const bool pdf = suffix == ".pdf";
    if (!pdf && suffix != ".html" && suffix != ".htm")
        throw UsageError("report --out " + request.out.string() + ": the file must end in .html or .pdf");

    // The window's thread may have run Qt's AVX code since it started (vector_state.h).
    clearUpperVectorState();
    // Nothing a report writes may replace the store or a run's input; a path that
    // cannot be written fails before any work.
    std::vector<ProtectedFile> keep = store::storeFiles(runStore.path());
    checkOutputPath("report --out", request.out.string(), keep);
    ReportContent content = gatherReport(runStore, request.runs, request.title, [&runStore](const store::RunInfo& run) {
        return stream::openRecordedData(runStore, run);
    });
    if (content.title.empty()) {
        content.title = defaultTitle(content);
        content.evidence.title = content.title;
    }

    for (const RunSection& run : content.runs) {
        const std::vector<ProtectedFile> inputs = session::inputFilesOf(run.record.info);
        keep.insert(keep.end(), inputs.begin(), inputs.end());
    }

    std::vector<std::vector<RenderedPlot>> plots;
    for (const RunSection& run : content.runs) plots.push_back(renderRunPlots(run.record, run.data.get()));

    std::vector<std::pair<std::filesystem::path, std::string>> files;
    if (pdf) {
        std::vector<const RenderedPlot*> all;
        for (const auto& runPlots : plots)
            for (const RenderedPlot& plot : runPlots) all.push_back(&plot);
        const QByteArray bytes = reportPdf(reportHtml(content, plots, ReportTarget::Pdf), QString::fromStdString(content.title), all);
        files.emplace_back(request.out, bytes.toStdString());
        files.emplace_back(evidencePathFor(request.out), toJson(content.evidence) + "\n");
        // Every run gets its file, so none from an earlier report under this name stays
        // beside the PDF as if it were this run's: by row number when the data that
        // named the rows is gone, the header alone when the run has no labels.
        for (const RunSection& run : content.runs)
            files.emplace_back(labelsFileFor(request.out, run.record.info.id, content.runs.size() > 1),
                               labelsCsv(run.data ? std::span<const std::string>(run.data->rowNames) : std::span<const std::string>(),
                                         run.record.labels));
    } else {
        files.emplace_back(request.out, reportHtml(content, plots, ReportTarget::Html).toStdString());
    }
    for (const auto& [path, text] : files) checkOutputPath("report --out", path.string(), keep);
    const std::vector<std::filesystem::path> earlierLabels = pdf ? labelsFilesOfEarlierReport(request.out)
                                                                 : std::vector<std::filesystem::path>();

    WrittenReport written;
    try {
        for (const auto& [path, text] : files) {
            writeFileReplacing(path.string(), text);
            written.files.push_back(path);
        }
        written.sha256 = sha256Hex(files.front().second);
        for (const RunSection& run : content.runs) written.runIds.push_back(run.record.info.id);
        runStore.recordReport(written.sha256, written.runIds);
    } catch (...) {
        // A report the store does not record would fail its own verification: remove it.
        for (const std::filesystem::path& path : written.files) {
            std::error_code ignored;
            std::filesystem::remove(path, ignored);
        }
        throw;
    }
    // The earlier report's labels of runs this one does not hold (one run before, several
    // now, or other runs) would stay beside the PDF as if they were this report's. Only
    // plain files, and none that any run in the store read.
    if (!earlierLabels.empty())
        for (const store::RunInfo& run : runStore.listRuns()) {
            const std::vector<ProtectedFile> inputs = session::inputFilesOf(run);
            keep.insert(keep.end(), inputs.begin(), inputs.end());
        }
    for (const std::filesystem::path& path : earlierLabels) {
        const bool rewritten = std::any_of(files.begin(), files.end(), [&](const auto& file) { return file.first == path; });
        std::error_code ignored;
        if (!rewritten && std::filesystem::is_regular_file(std::filesystem::symlink_status(path, ignored)) &&
            !protectedFileNamed(path.string(), keep))
            std::filesystem::remove(path, ignored);
    }
    return written;
}

}  // namespace clusterdesk::report
