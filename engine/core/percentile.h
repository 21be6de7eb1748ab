// Nearest-rank percentiles: the one definition behind every latency figure ClusterDesk
// shows (the CLI's live summary, the Latency and Live tabs, the tests' lag meter), so
// a p99 means the same number wherever it is read. The q-th percentile is the smallest
// value with at least a share q of all values at or below it; it is always one of the
// measured values, never an interpolation between two.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <iterator>
#include <vector>

namespace clusterdesk {

namespace detail {
// 0-based index of the nearest rank of share q in count values.
inline std::size_t nearestRankIndex(std::size_t count, double q)
{
    const auto rank = static_cast<std::size_t>(std::ceil(q * static_cast<double>(count)));
    return std::clamp<std::size_t>(rank, 1, count) - 1;
}
}  // namespace detail

// q in [0, 1] of values sorted ascending; 0 when there are none.
inline double percentileOfSorted(const std::vector<double>& sorted, double q)
{
    return sorted.empty() ? 0 : sorted[detail::nearestRankIndex(sorted.size(), q)];
}

// The same of values in any order (selects in a copy, O(n)).
inline double percentile(std::vector<double> values, double q)
{
    if (values.empty()) return 0;
    const auto at = values.begin() + static_cast<std::ptrdiff_t>(detail::nearestRankIndex(values.size(), q));
    std::nth_element(values.begin(), at, values.end());
    return *at;
}

}  // namespace clusterdesk
