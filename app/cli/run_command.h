// `clusterdesk-cli run`: load, cluster, record in the run store, write the outputs,
// map failures to exit codes.
#pragma once

#include "cli_errors.h"
#include "cli_options.h"

#include "engine/store/run_store.h"

#include <cstdint>
#include <string>
#include <vector>

namespace clusterdesk::cli {

int runCommand(const std::vector<std::string>& args);

// What a run left for its caller (runs rerun compares the labels).
struct ExecutedRun {
    std::string runId;  // empty when not recorded
    std::vector<std::int32_t> labels;
    bool cancelled = false;
};

// Runs the job the options describe and records it (unless options.record is false)
// with these parent edges (e.g. the run it re-runs). Throws like the engine does.
ExecutedRun executeRun(RunOptions& options, std::vector<store::LineageEdge> parents = {});

// What the options name: a recorded run's exact source, a demo, or a file.
SourceSpec sourceOf(const RunOptions& options);

}  // namespace clusterdesk::cli
