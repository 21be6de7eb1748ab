// Records the window's runs in the run store, exactly as the CLI does (the shared part
// is engine/store/run_recording.h): inserted `running` before the clustering starts,
// finished ok/cancelled/failed with everything it produced. Used on the run thread, so
// writing 1M labels never holds up the window; a RunStore belongs to one thread, so the
// recorder opens its own and keeps it open between runs.
#pragma once

#include "engine/cluster/params.h"
#include "engine/data/dataset.h"
#include "engine/exec/run_clustering.h"
#include "engine/store/run_store.h"

#include <QString>

#include <memory>
#include <string>
#include <vector>

namespace clusterdesk {
class PowerSampler;
}

namespace clusterdesk::gui {

// Where and how one run is recorded.
struct RunRecording {
    QString storePath;                        // empty: the run is not recorded
    std::string source;                       // demo spec or file path, as loaded
    bool demo = false;
    std::string loadOptionsJson = "{}";       // how a file was loaded (run_codec.h)
    std::vector<store::LineageEdge> parents;  // e.g. the run this one re-runs
};

// One run at a time, on the run thread.
class RunRecorder {
public:
    RunRecorder();
    ~RunRecorder();

    // Inserts the run as `running`. Throws StoreError.
    void begin(const RunRecording& recording, const Dataset& data, const KMeansParams& params, const std::string& topology,
               int threads);
    // A run begun and not yet finished.
    bool active() const { return !m_id.empty(); }
    const std::string& runId() const { return m_id; }

    // Writes everything the run produced. Throws StoreError.
    void complete(const Dataset& data, const KMeansParams& params, const Topology& topology, const RunReport& report,
                  const PowerSampler& power);
    // Marks the run failed or cancelled with the reason; returns why that could not be
    // recorded (the row then stays `running` until the next start marks it
    // interrupted), or an empty string.
    QString fail(store::RunStatus status, const std::string& reason) noexcept;

private:
    std::unique_ptr<store::RunStore> m_store;
    std::string m_id;           // of the run in progress
    std::string m_datasetHash;  // its dataset's, computed once
};

}  // namespace clusterdesk::gui
