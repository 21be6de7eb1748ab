#include "member_order.h"

#include "member_table_model.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace clusterdesk::ui {
namespace {

std::vector<std::int32_t> kept(const report::Membership& membership, const QString& filterText)
{
    const QString text = filterText.trimmed();
    std::vector<std::int32_t> rows;
    rows.reserve(membership.members.size());
    bool isNumber = false;
    const int cluster = text.toInt(&isNumber);
    for (std::size_t i = 0; i < membership.members.size(); ++i) {
        const report::Member& member = membership.members[i];
        const bool keep = text.isEmpty() ? true
                          : isNumber     ? member.cluster == cluster
                                         : QString::fromStdString(member.name).contains(text, Qt::CaseInsensitive);
        if (keep) rows.push_back(static_cast<std::int32_t>(i));
    }
    return rows;
}

// The column's value per member, NaN where it has none; in an array of its own, so
// the sort reads 8 bytes per comparison rather than a member's name and profile.
std::vector<double> numberKeys(const report::Membership& membership, int column)
{
    constexpr double none = std::numeric_limits<double>::quiet_NaN();
    std::vector<double> keys(membership.members.size(), none);
    for (std::size_t i = 0; i < keys.size(); ++i) {
        const report::Member& member = membership.members[i];
        const report::ClusterProfile* cluster = profileOf(membership, member.cluster);
        switch (column) {
        case MemberTableModel::Cluster: keys[i] = member.cluster; break;
        case MemberTableModel::Distance: keys[i] = member.distance; break;
        case MemberTableModel::ClusterSize: keys[i] = cluster ? static_cast<double>(cluster->size) : none; break;
        case MemberTableModel::MeanReturn: keys[i] = cluster && cluster->meanReturn ? *cluster->meanReturn : none; break;
        case MemberTableModel::Volatility: keys[i] = cluster && cluster->volatility ? *cluster->volatility : none; break;
        default: break;
        }
    }
    return keys;
}

}  // namespace

const report::ClusterProfile* profileOf(const report::Membership& membership, int cluster)
{
    return cluster >= 0 && static_cast<std::size_t>(cluster) < membership.clusters.size()
               ? &membership.clusters[static_cast<std::size_t>(cluster)]
               : nullptr;
}

bool MemberArrangement::isMembershipOrder() const
{
    return column == MemberTableModel::Cluster && !descending && filter.trimmed().isEmpty();
}

std::vector<std::int32_t> arrangeMembers(const report::Membership& membership, const MemberArrangement& arrangement)
{
    std::vector<std::int32_t> rows = kept(membership, arrangement.filter);
    if (arrangement.isMembershipOrder()) return rows;
    const bool descending = arrangement.descending;
    if (arrangement.column == MemberTableModel::Name) {
        const auto& members = membership.members;
        std::stable_sort(rows.begin(), rows.end(), [&](std::int32_t a, std::int32_t b) {
            return descending ? members[b].name < members[a].name : members[a].name < members[b].name;
        });
        return rows;
    }
    const std::vector<double> keys = numberKeys(membership, arrangement.column);
    std::stable_sort(rows.begin(), rows.end(), [&](std::int32_t a, std::int32_t b) {
        const double x = keys[a], y = keys[b];
        if (std::isnan(x) || std::isnan(y)) return !std::isnan(x) && std::isnan(y);  // values first, then the rest
        return descending ? y < x : x < y;
    });
    return rows;
}

}  // namespace clusterdesk::ui
