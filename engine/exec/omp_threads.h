// How many OpenMP threads a piece of work gets, and a scope that sets it for the calling
// thread and restores it on the way out.
#pragma once

#include <algorithm>
#include <cstdint>

#include <omp.h>

namespace clusterdesk {

// Values (rows x columns) each thread must get before a shard runs on more than one.
// Every Lloyd step forks and joins a few OpenMP regions; on a busy machine (a feed, the
// window, other runs) a join waits for a thread that has no core until the scheduler
// gives it one. A window of a hundred assets forks thousands of such regions in an
// AdaptGrow run with restarts: 0.1 s on two idle cores, 7 s beside eight busy processes
// (0.6 s on one thread); the likely cause of test_adaptgrow passing 300 s in a CI run.
constexpr std::int64_t kValuesPerThread = std::int64_t{1} << 17;

// At most `available`, at least 1.
inline int threadsWorthUsing(std::int64_t values, int available)
{
    return static_cast<int>(std::clamp<std::int64_t>(values / kValuesPerThread, 1, std::max(1, available)));
}

// omp_set_num_threads is per calling thread; this puts the caller's value back.
class OmpThreadsScope {
public:
    explicit OmpThreadsScope(int threads) : m_before(omp_get_max_threads()) { omp_set_num_threads(std::max(1, threads)); }
    ~OmpThreadsScope() { omp_set_num_threads(m_before); }
    OmpThreadsScope(const OmpThreadsScope&) = delete;
    OmpThreadsScope& operator=(const OmpThreadsScope&) = delete;

private:
    int m_before;
};

}  // namespace clusterdesk
