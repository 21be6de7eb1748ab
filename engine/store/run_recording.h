// What the CLI and the GUI both record about a run, so a run from either reads the
// same in the store: the dataset row, the outcome of a finished run (metrics, iteration
// stats, telemetry, labels, centroids), and the dataset a recorded run read, reloaded
// for a re-run or a view only when its content hash still matches.
#pragma once

#include "run_store.h"

#include "engine/data/dataset.h"
#include "engine/exec/run_summary.h"
#include "engine/telemetry/power_sampler.h"

#include <string>

namespace clusterdesk::store {

// source: the canonical demo spec, or the file's path (made absolute here, so a re-run
// from another directory finds it); loadOptionsJson: loadOptionsToJson(...) for a
// file, ignored ("{}") for a demo.
DatasetInfo datasetInfoFor(const Dataset& data, const std::string& source, bool demo, const std::string& loadOptionsJson);

// Everything a run that ended (ok, or cancelled between iterations) produced.
// power: the sampler that ran alongside it (its samples become the telemetry rows).
RunOutcome finishedOutcome(const RunSummaryInput& summary, const PowerSampler& power);

// The dataset a recorded run read: the demo regenerated, or the file reloaded with the
// recorded load options. Throws DataError saying why when the content hash differs
// from the recorded one (the file changed), and whatever loading throws otherwise.
Dataset loadRecordedDataset(const RunInfo& run);

}  // namespace clusterdesk::store
