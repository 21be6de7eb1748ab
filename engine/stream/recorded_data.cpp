#include "recorded_data.h"

#include "live_replay.h"

#include "engine/core/error.h"
#include "engine/session/run_record.h"
#include "engine/store/run_store.h"

namespace clusterdesk::stream {

Dataset openRecordedData(const store::RunStore& store, const store::RunInfo& run)
{
    if (run.dataSource.source != kLiveSource) return session::openRecordedDataset(run);
    Dataset window = replayLiveWindow(store, run.id);
    if (const std::string why = session::whyNotTheData(run, window); !why.empty())
        throw DataError(run.dataSource.location, 0, 0, "the window rebuilt from the session's recorded input is not the one it clustered: " + why);
    return window;
}

}  // namespace clusterdesk::stream
