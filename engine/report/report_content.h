// Everything a report says, gathered from the store before anything is drawn: each
// cited run's record, its dataset reopened when it still matches (for the membership
// table, the Clusters plot and quality measures computed from the data), the
// environment of the exporting build, and the evidence (report_evidence.h). Qt-free:
// app/report turns it into HTML and PDF.
#pragma once

#include "membership.h"
#include "report_evidence.h"

#include "engine/data/dataset.h"
#include "engine/store/run_store.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace clusterdesk::report {

// Quality of the answer, computed from the data when it could be reopened.
struct Quality {
    std::optional<double> bic;         // spherical Gaussian BIC (higher is better)
    std::optional<double> silhouette;  // sampled (metrics.h), when 2 <= k < rows
    std::int64_t silhouetteRows = 0;   // how many rows it scored
    std::optional<double> ari;         // against the dataset's ground truth, when it has one
    std::optional<double> nmi;
};

struct RunSection {
    store::RunRecord record;
    std::shared_ptr<const Dataset> data;  // null when it could not be reopened (dataProblem says why)
    std::string dataProblem;
    std::optional<Membership> membership;
    Quality quality;
};

using Facts = std::vector<std::pair<std::string, std::string>>;

struct ReportContent {
    std::string title;
    std::vector<RunSection> runs;
    Facts environment;     // of the exporting build and machine
    ReportEvidence evidence;
};

// The data a recorded run read, or an Error saying why it cannot be had. The apps open
// it with stream::openRecordedData, which also rebuilds a live update's window (a layer
// above this one); session::openRecordedDataset reopens files and demos.
using RecordedDataOpener = std::function<Dataset(const store::RunInfo&)>;

// ids: run ids or unique prefixes. UsageError for an unknown or ambiguous id, a run
// still running, or one whose labels and centroids `runs gc` removed (nothing to report).
ReportContent gatherReport(const store::RunStore& runStore, const std::vector<std::string>& ids, const std::string& title,
                           const RecordedDataOpener& openData);

// The environment of this build and machine: ClusterDesk version and commit, compiler,
// OS, CPU and cores, usable CUDA devices (or why none), OpenBLAS.
Facts exportEnvironment();

}  // namespace clusterdesk::report
