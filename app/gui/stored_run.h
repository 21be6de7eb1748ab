// A recorded run shown again in the window's graphs: its iteration rows feed the
// Evolution and Latency graphs, its telemetry rows the Power graph, and (when its
// dataset can be had again) its labels the Clusters graph, as if it had just run.
#pragma once

#include "engine/store/run_store.h"
#include "ui/run_series.h"

#include <optional>

namespace clusterdesk::gui {

// How the record ended, as the status bar and the plots read it.
ui::RunOutcome outcomeOf(const store::RunRecord& record);

// Its telemetry rows as power samples, devices numbered in order of first appearance.
ui::PowerBatch powerOf(const store::RunRecord& record);

// Replaces what the run holds with the record; no projection leaves Clusters empty.
void replayRun(ui::RunSeries& run, const store::RunRecord& record, const std::optional<ui::ClusterProjection>& projection);

}  // namespace clusterdesk::gui
