// What the window keeps of a live session: one point per published update (cluster
// sizes by stable id, events, latency and its running percentiles, the feed's ingest
// rate, energy) and the newest membership with when each asset last changed cluster.
// The live graphs and the membership table draw from it; it holds no Qt widgets.
#pragma once

#include "engine/stream/live_clusterer.h"

#include <QString>

#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace clusterdesk::ui {

// The feed as the client sees it, for the Live feed panel.
struct LiveFeedStatus {
    QString state;                 // "connected", "reconnecting", ...
    double messagesPerSecond = 0;
    qint64 messages = 0, ticks = 0, gaps = 0, missing = 0, reconnects = 0, bad = 0;
    QString badByReason;           // "2 malformed JSON, 1 unknown field"; empty when none
    QString lastProblem;
};

struct LivePoint {
    int update = 0;
    double seconds = 0;            // wall time since the session started
    qint64 barMicros = 0;          // start of the newest bar clustered
    int k = 0;
    std::map<int, int> sizes;      // stable cluster id -> members
    QString events;                // births, deaths, splits and merges in words; empty when none
    int moved = 0;
    double latencyMs = 0;
    double p50 = 0, p99 = 0, p999 = 0;  // over every update so far
    double ingestRate = 0;         // feed messages per second when the update arrived
    double energyJ = 0;
    double watts = 0;              // energy over the update's run time
    std::optional<double> ari;     // against the sectors the feed carries, when it does
    bool truthChanged = false;     // the feed's sectors changed since the previous update
    QString drift;
};

class LiveHistory {
public:
    void clear();
    void add(const stream::LiveUpdate& update, double seconds, double ingestRate);

    const std::vector<LivePoint>& points() const { return m_points; }
    bool empty() const { return m_points.empty(); }
    // The newest update's assets and their stable cluster ids.
    const std::vector<std::string>& assets() const { return m_assets; }
    const std::vector<int>& clusterOf() const { return m_clusterOf; }
    // The update at which an asset last changed cluster, and where from; none: never.
    struct Move {
        int update = 0;
        int from = -1;
    };
    std::optional<Move> lastMove(const std::string& asset) const;
    // The newest drift alert and the update that raised it (0: none yet).
    const QString& drift() const { return m_drift; }
    int driftUpdate() const { return m_driftUpdate; }
    // Bar intervals of the session in which no bar came (a quiet feed, a reconnect).
    qint64 missingBars() const { return m_missingBars; }

private:
    std::vector<LivePoint> m_points;
    std::vector<double> m_latencies;  // every update's, sorted
    std::vector<std::string> m_assets;
    std::vector<int> m_clusterOf;
    std::unordered_map<std::string, Move> m_moves;
    QString m_drift;
    int m_driftUpdate = 0;
    qint64 m_missingBars = 0;
};

// "split 3 -> 3,11; born 12": what changed in an update besides survivals and moves.
QString describeEvents(const std::vector<stream::ClusterEvent>& events);

}  // namespace clusterdesk::ui
