#include "member_table_model.h"

#include "engine/core/csv_cell.h"

namespace clusterdesk::ui {
namespace {

const report::ClusterProfile* profileOf(const report::Membership& m, int cluster)
{
    return cluster >= 0 && static_cast<std::size_t>(cluster) < m.clusters.size() ? &m.clusters[static_cast<std::size_t>(cluster)] : nullptr;
}

}  // namespace

MemberTableModel::MemberTableModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

void MemberTableModel::setMembership(std::shared_ptr<const report::Membership> membership)
{
    beginResetModel();
    m_membership = std::move(membership);
    endResetModel();
}

int MemberTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() || !m_membership ? 0 : static_cast<int>(m_membership->members.size());
}

int MemberTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant MemberTableModel::data(const QModelIndex& index, int role) const
{
    if (!m_membership || !index.isValid() || (role != Qt::DisplayRole && role != kSortRole && role != Qt::TextAlignmentRole)) return {};
    const report::Member& member = m_membership->members[static_cast<std::size_t>(index.row())];
    const report::ClusterProfile* cluster = profileOf(*m_membership, member.cluster);
    if (role == Qt::TextAlignmentRole)
        return index.column() == Name ? QVariant() : QVariant(int(Qt::AlignRight | Qt::AlignVCenter));
    const bool display = role == Qt::DisplayRole;
    // Returns per period as percentages: what a quant reads; the sort role keeps the numbers.
    const auto percent = [&](const std::optional<double>& value) -> QVariant {
        if (!value) return display ? QVariant(QStringLiteral("-")) : QVariant();
        return display ? QVariant(QString::number(100 * *value, 'f', 3) + " %") : QVariant(*value);
    };
    switch (index.column()) {
    case Name: return QString::fromStdString(member.name);
    case Cluster: return member.cluster;
    case Distance: return display ? QVariant(QString::number(member.distance, 'g', 5)) : QVariant(member.distance);
    case ClusterSize: return cluster ? QVariant(qlonglong(cluster->size)) : QVariant();
    case MeanReturn: return percent(cluster ? cluster->meanReturn : std::nullopt);
    case Volatility: return percent(cluster ? cluster->volatility : std::nullopt);
    default: return {};
    }
}

QVariant MemberTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case Name: return tr("Asset");
    case Cluster: return tr("Cluster");
    case Distance: return tr("Distance to centroid");
    case ClusterSize: return tr("Cluster size");
    case MeanReturn: return tr("Cluster mean return / period");
    case Volatility: return tr("Cluster volatility / period");
    default: return {};
    }
}

QString MemberTableModel::toCsv() const
{
    std::string text = "id,cluster,distance,cluster_size,cluster_mean_return,cluster_volatility\n";
    if (m_membership) {
        for (const report::Member& member : m_membership->members) {
            const report::ClusterProfile* cluster = profileOf(*m_membership, member.cluster);
            const auto number = [](const std::optional<double>& v) { return v ? std::to_string(*v) : std::string(); };
            text += csvCell(member.name) + ',' + std::to_string(member.cluster) + ',' + std::to_string(member.distance) + ',' +
                    (cluster ? std::to_string(cluster->size) : std::string()) + ',' + number(cluster ? cluster->meanReturn : std::nullopt) +
                    ',' + number(cluster ? cluster->volatility : std::nullopt) + '\n';
        }
    }
    return QString::fromStdString(text);
}

}  // namespace clusterdesk::ui
