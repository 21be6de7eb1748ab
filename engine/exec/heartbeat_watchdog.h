// Has a rank of a multi-process run hung? Every rank reports a heartbeat about once a
// second with the number of collectives it has completed and whether it waits in one.
// A rank that goes silent (its process froze, its node went away), never reports, or
// stops progressing outside any collective while the others wait for it is named.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

namespace clusterdesk {

struct WatchdogLimits {
    double startupSeconds = 60;  // from the start until every rank's first heartbeat
    double silenceSeconds = 15;  // a rank not heard from for this long has hung
    double stallSeconds = 600;   // no rank finished a collective for this long: the ranks outside one have hung
};

struct Heartbeat {
    int rank = 0;
    std::uint64_t progress = 0;  // collectives completed
    bool waiting = false;        // inside a collective now
    bool finished = false;       // done with the run, going quiet
};

class HeartbeatWatchdog {
public:
    // The clock starts now.
    HeartbeatWatchdog(int ranks, WatchdogLimits limits);

    // Beats from ranks outside 0..ranks-1 are ignored.
    void beat(const Heartbeat& beat);
    // Empty while every rank is alive and the run progresses; else what hung
    // ("pool rank 1 hung: no heartbeat for over 15 s ...").
    std::string verdict() const;

private:
    using Clock = std::chrono::steady_clock;
    struct RankState {
        bool heard = false;
        Clock::time_point lastSeen;
        std::uint64_t progress = 0;
        bool waiting = false;
        bool finished = false;
    };
    std::vector<RankState> m_ranks;
    WatchdogLimits m_limits;
    Clock::time_point m_start;
    Clock::time_point m_lastProgress;
};

}  // namespace clusterdesk
