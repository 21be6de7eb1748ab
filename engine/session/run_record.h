// What a run leaves in the store, the same from every front end: the dataset row
// (from the data's SourceSpec), the outcome of a finished run (metrics, iteration
// stats, telemetry, labels, centroids), and the dataset a recorded run read, reopened
// for a re-run or a view only when its content hash still matches.
#pragma once

#include "engine/data/dataset.h"
#include "engine/exec/run_summary.h"
#include "engine/store/run_store.h"
#include "engine/telemetry/power_sampler.h"

namespace clusterdesk::session {

// UsageError when the data was not opened from a source (data.spec empty).
store::DatasetInfo datasetInfoFor(const Dataset& data);

// Everything a run that ended (ok, or cancelled between iterations) produced.
// power: the sampler that ran alongside it (its samples become the telemetry rows).
store::RunOutcome finishedOutcome(const RunSummaryInput& summary, const PowerSampler& power);

// The recorded source, ready to open: records from before sources were described name
// no source when the layout was sniffed, so it is chosen from the file again; prices
// recorded before days were scaled (data::kScaleDaysOption) are read unscaled again.
SourceSpec reopenableSpec(const SourceSpec& recorded);

// The hash of the row names a run recorded (Dataset::rowNamesHash), or empty: its rows
// had no names, or it was recorded before names were hashed.
std::string recordedRowNamesHash(const store::RunInfo& run);

// Why data is not what a recorded run read (other values, or the same values under other
// row names than the run recorded), or empty when it is.
std::string whyNotTheData(const store::RunInfo& run, const Dataset& data);

// Why the labels of two recorded runs cannot be compared row by row (adjustedRandIndex),
// or empty when they can: a run without stored labels (collected, or it did not
// finish), different row counts, or rows named differently (other assets, or the same
// ones in another order), where the same position is not the same row. Runs recorded
// before row names were hashed are compared by position.
std::string whyLabelsNotComparable(const store::RunRecord& a, const store::RunRecord& b);

// The files a recorded run read (its data, its sector map: inputFilesOf(SourceSpec); the
// file of its initial centroids, which its metrics name as init_centroids_file),
// which nothing written for it may replace.
std::vector<ProtectedFile> inputFilesOf(const store::RunInfo& run);

// The dataset a recorded run read, reopened from its recorded source. Throws DataError
// saying why (whyNotTheData) when the file changed, and whatever opening throws otherwise.
Dataset openRecordedDataset(const store::RunInfo& run);

}  // namespace clusterdesk::session
