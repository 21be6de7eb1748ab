// `runs export ID --out DIR`: a run as plain files a spreadsheet or a script reads.
#pragma once

#include "engine/store/run_store.h"

#include <filesystem>
#include <vector>

namespace clusterdesk::cli {

// Writes run.json, and labels.csv, centroids.csv (reusable as --init-centroids),
// iterations.csv, telemetry.csv where the run has them; returns the files written.
// Throws UsageError when a file cannot be written.
std::vector<std::filesystem::path> exportRun(const store::RunRecord& record, const std::filesystem::path& dir);

}  // namespace clusterdesk::cli
