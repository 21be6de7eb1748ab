// Minimum-cost assignment (the Hungarian method, in its shortest-augmenting-path form,
// O(n^2 m)): each row gets a distinct column, or none when there are more rows than
// columns, so that the sum of the chosen costs is least. Live sessions use it to match
// the clusters of one update to those of the previous one.
#pragma once

#include <cstdint>
#include <vector>

namespace clusterdesk::stream {

// cost is rows x cols, row-major, finite. Returns, for each row, its column or -1
// (exactly min(rows, cols) rows get one).
std::vector<int> minCostAssignment(const std::vector<double>& cost, int rows, int cols);

}  // namespace clusterdesk::stream
