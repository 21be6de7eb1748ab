// Who is in which cluster, as a report lists it: every row with its name, its cluster
// and its distance to the cluster's centroid; per cluster its size, its most central
// members, the spread of its members around the centroid and, for price data, its
// members' average return and volatility (from the returns before z-scoring).
#pragma once

#include "engine/data/dataset.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace clusterdesk::report {

struct Member {
    std::string name;   // the row's name, or "row N" (1-based) when the data has none
    int cluster = 0;
    double distance = 0;  // Euclidean, to the cluster's centroid, in the data's units
};

struct ClusterProfile {
    int cluster = 0;
    std::int64_t size = 0;
    double meanDistance = 0;               // of its members to the centroid
    std::vector<std::string> central;      // its members nearest the centroid, nearest first
    std::optional<double> meanReturn;      // price data: the members' mean log return per period
    std::optional<double> volatility;      // price data: the members' mean standard deviation of it
};

struct Membership {
    std::vector<Member> members;           // by cluster, then nearest first
    std::vector<ClusterProfile> clusters;  // one per centroid, in label order (empty ones too)
};

// labels: one per row of data, each in [0, k); centroids: k x data.cols. Throws
// UsageError when the shapes disagree (a record whose data changed, say).
Membership membershipOf(const Dataset& data, std::span<const std::int32_t> labels, std::span<const float> centroids, int k,
                        std::size_t centralCount = 5);

// The labels as a CSV file, one line per row in row order: "id,cluster", the id being
// the row's name (an asset) or, when there are none (or not one per label), its 0-based
// row number.
std::string labelsCsv(std::span<const std::string> rowNames, std::span<const std::int32_t> labels);

}  // namespace clusterdesk::report
