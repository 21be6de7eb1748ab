// `runs export ID --out DIR`: a run as plain files a spreadsheet or a script reads.
#pragma once

#include "engine/core/output_file.h"
#include "engine/store/run_store.h"

#include <filesystem>
#include <vector>

namespace clusterdesk::cli {

// Writes run.json, and labels.csv ("id,cluster": the run's row names, or row numbers
// when there are none), centroids.csv (reusable as
// --init-centroids), iterations.csv, telemetry.csv where the run has them; returns the
// files written.
// Each file is checked against `keep` (the store's files) before anything is written,
// and written to a temporary file renamed into place (UsageError, OutputError).
std::vector<std::filesystem::path> exportRun(const store::RunRecord& record, const std::filesystem::path& dir,
                                             const std::vector<ProtectedFile>& keep, const std::vector<std::string>& rowNames);

}  // namespace clusterdesk::cli
