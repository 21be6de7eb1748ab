#include "heartbeat_watchdog.h"

namespace clusterdesk {
namespace {

double secondsSince(std::chrono::steady_clock::time_point t)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

std::string rankList(const std::vector<int>& ranks)
{
    std::string text = ranks.size() == 1 ? "rank " : "ranks ";
    for (std::size_t i = 0; i < ranks.size(); ++i) text += (i ? ", " : "") + std::to_string(ranks[i]);
    return text;
}

}  // namespace

HeartbeatWatchdog::HeartbeatWatchdog(int ranks, WatchdogLimits limits)
    : m_ranks(static_cast<std::size_t>(ranks)), m_limits(limits), m_start(Clock::now()), m_lastProgress(m_start)
{
}

void HeartbeatWatchdog::beat(const Heartbeat& beat)
{
    if (beat.rank < 0 || beat.rank >= static_cast<int>(m_ranks.size())) return;
    RankState& r = m_ranks[static_cast<std::size_t>(beat.rank)];
    if (!r.heard || beat.progress != r.progress) m_lastProgress = Clock::now();
    r = {true, Clock::now(), beat.progress, beat.waiting, beat.finished};
}

std::string HeartbeatWatchdog::verdict() const
{
    std::vector<int> silent, notStarted, busy, waiting;
    for (std::size_t i = 0; i < m_ranks.size(); ++i) {
        const RankState& r = m_ranks[i];
        const int rank = static_cast<int>(i);
        if (r.finished) continue;  // done with the run, going quiet: nobody waits for it
        if (!r.heard && secondsSince(m_start) > m_limits.startupSeconds) notStarted.push_back(rank);
        if (r.heard && secondsSince(r.lastSeen) > m_limits.silenceSeconds) silent.push_back(rank);
        (r.heard && r.waiting ? waiting : busy).push_back(rank);
    }
    const auto seconds = [](double s) { return std::to_string(static_cast<long long>(s)) + " s"; };
    if (!silent.empty())
        return "pool " + rankList(silent) + " hung: no heartbeat for over " + seconds(m_limits.silenceSeconds) +
               " (the process froze or its node is unreachable)";
    if (!notStarted.empty())
        return "pool " + rankList(notStarted) + " never reported within " + seconds(m_limits.startupSeconds) + " of the launch";
    if (secondsSince(m_lastProgress) > m_limits.stallSeconds) {
        if (busy.empty()) return "pool ranks made no progress for " + seconds(m_limits.stallSeconds) + ", all waiting in a collective";
        return "pool " + rankList(busy) + " hung: no progress for " + seconds(m_limits.stallSeconds) +
               " outside any collective" + (waiting.empty() ? std::string() : " while " + rankList(waiting) + " waited for it");
    }
    return {};
}

}  // namespace clusterdesk
