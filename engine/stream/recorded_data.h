// The data a recorded run read, for the views and reports of every front end: a live
// update's window rebuilt from its session's recorded input (live_replay.h), any other
// run's source reopened (session::openRecordedDataset). Either way it must be what the
// run recorded, values and row names, else DataError says what changed; a session that
// cannot be replayed (its input removed by gc, an edited record) says why (UsageError,
// CodecError).
#pragma once

#include "engine/data/dataset.h"

namespace clusterdesk::store {
class RunStore;
struct RunInfo;
}  // namespace clusterdesk::store

namespace clusterdesk::stream {

Dataset openRecordedData(const store::RunStore& store, const store::RunInfo& run);

}  // namespace clusterdesk::stream
