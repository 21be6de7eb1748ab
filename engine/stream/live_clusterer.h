// The streaming re-clustering loop, without the network: fed closed bars, it keeps the
// rolling return window, and every `updateEveryBars` bars re-clusters it through the one
// run path (RunSession) on the chosen topology, warm-started from the previous update's
// partition (its clusters' means on the new window), then keeps cluster identities
// stable (IdentityTracker) and reports what changed. In exact mode the same bars give
// the same updates bit for bit, which is what makes a recorded session replayable.
#pragma once

#include "cluster_identity.h"
#include "live_input.h"
#include "live_options.h"
#include "return_window.h"
#include "tick_inbox.h"

#include "engine/session/run_session.h"
#include "engine/telemetry/power_sampler.h"

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace clusterdesk::stream {

struct LiveUpdate {
    int index = 0;                    // 1 for the first update
    std::int64_t barMicros = 0;       // start of the newest bar in the window
    // Bar intervals since the previous update in which no bar came at all: a quiet
    // market, or a reconnect after the feed dropped a client that fell behind.
    std::int64_t missingBars = 0;
    int k = 0;
    std::vector<std::string> assets;  // the window's rows
    std::vector<std::int32_t> labels; // the run's own labels (0..k-1)
    std::vector<int> clusterOf;       // stable cluster id per asset
    std::vector<int> clusterIds;      // stable id per label
    std::vector<float> centroids;     // k x cols, by label
    std::int64_t cols = 0;
    std::vector<double> dispersion;   // per label: mean squared distance of members to the centroid
    std::vector<ClusterEvent> events;
    std::vector<Migration> migrations;
    double movedShare = 0;
    std::string drift;                // why the drift alert fired, empty when it did not
    std::optional<double> ari;        // against the feed's current sectors, when it carries them
    bool truthChanged = false;        // the feed's sectors differ from the previous update's (a regime change)
    double inertia = 0;
    int iterations = 0;
    double clusterMs = 0;             // the run itself
    double latencyMs = 0;             // receipt of the tick that completed the newest bar to publication
    double energyJ = 0;               // while the run executed (0 when not sampled)
    std::string energySource;         // "measured", "estimated" or "mixed"
    std::string runId;                // when recorded
};

struct LiveWait {
    enum class Kind {
        None,
        WindowFilling,  // fewer bars than the window's returns need: every session starts so
        TooFewAssets,   // a full window, but fewer assets fill it than the run needs (k for k-means)
        NotDue,         // the window runs at the next update, --update-every bars after the last
    };
    Kind kind = Kind::None;
    std::string text;  // what to tell the user, empty for None
};

class LiveClusterer {
public:
    explicit LiveClusterer(LiveOptions options);

    // Adds closed bars (symbols: every name their indices refer to; sectors: the truth a
    // demo feed carries, or empty). Returns the update when one fell due; if several fell
    // due in one call, only the last is run (the picture is never late to catch up).
    std::optional<LiveUpdate> add(const std::vector<ReceivedBar>& bars, const std::vector<std::string>& symbols,
                                  const std::unordered_map<std::string, std::string>& sectors);
    const ReturnWindow& window() const { return m_window; }
    // Why no update has come yet, for a session that would wait without a word
    // otherwise: kind None once the next bar would run one.
    LiveWait waitingFor() const;
    // Asked from another thread to stop a running update (Cancelled is thrown from add).
    void cancel() { m_cancel = true; }

private:
    // Assets with a full window that a run needs: k for k-means, two for AdaptGrow.
    std::int64_t assetsNeeded() const;
    std::string runNeeds() const;  // "k=10 needs 10"
    LiveUpdate run(std::int64_t newestReceipt, const std::unordered_map<std::string, std::string>& sectors);

    LiveOptions m_options;
    ReturnWindow m_window;
    IdentityTracker m_identity;
    std::unique_ptr<PowerSampler> m_power;
    std::int64_t m_barsSinceUpdate = 0;
    std::int64_t m_newestBarMicros = 0;
    std::int64_t m_missingBars = 0;  // since the previous update
    int m_updates = 0;
    std::unordered_map<std::string, int> m_previousLabel;  // asset -> label of the previous update
    int m_previousK = 0;
    std::map<int, double> m_previousDispersion;  // stable id -> dispersion at the previous update
    std::string m_previousRun;                   // the previous update's run id, when recorded
    std::unordered_map<std::string, std::string> m_previousSectors;  // the feed's truth at the previous update
    // What add() was given since the previous update, kept with the next one (recording only).
    LiveInput m_input;
    std::size_t m_inputSymbols = 0;                                     // symbol names already in the input
    std::unordered_map<std::string, std::string> m_inputSectors;        // the sectors last put in it
    std::atomic<bool> m_cancel{false};
};

}  // namespace clusterdesk::stream
