// Which members the Members tab shows, in which order: filtered and sorted on typed
// keys, away from the UI thread (MemberTableModel runs it on a pool thread), since a
// million rows sorted through QVariant held the window for seconds.
#pragma once

#include "engine/report/membership.h"

#include <QString>

#include <cstdint>
#include <vector>

namespace clusterdesk::ui {

struct MemberArrangement {
    int column = 1;           // a MemberTableModel::Column; Cluster: the membership's own order
    bool descending = false;
    QString filter;           // a whole number: that cluster; other text: part of the name, any case

    bool operator==(const MemberArrangement&) const = default;
    // Ascending by cluster, nothing filtered: the membership as it comes (by cluster,
    // then nearest the centroid first), so no sort is needed.
    bool isMembershipOrder() const;
};

// The profile of a cluster of the membership, or null when it has none for that label.
const report::ClusterProfile* profileOf(const report::Membership& membership, int cluster);

// Indices into membership.members of the rows the filter keeps, sorted by the column;
// ties stay in the membership's order (by cluster, then nearest first) both ways, and
// a row without a value in the column (no return for non-price data) comes last both ways.
std::vector<std::int32_t> arrangeMembers(const report::Membership& membership, const MemberArrangement& arrangement);

}  // namespace clusterdesk::ui
