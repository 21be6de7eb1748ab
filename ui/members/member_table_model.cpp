#include "member_table_model.h"

#include "ui/units.h"

#include "engine/core/csv_cell.h"

#include <QFutureWatcher>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <numeric>

namespace clusterdesk::ui {

MemberTableModel::MemberTableModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

namespace {

// Every member, in the membership's order.
std::vector<std::int32_t> allMembers(const report::Membership* membership)
{
    std::vector<std::int32_t> rows(membership ? membership->members.size() : 0);
    std::iota(rows.begin(), rows.end(), 0);
    return rows;
}

}  // namespace

void MemberTableModel::setMembership(std::shared_ptr<const report::Membership> membership)
{
    beginResetModel();
    m_membership = std::move(membership);
    m_rows = allMembers(m_membership.get());
    endResetModel();
    rearrange();
}

void MemberTableModel::sort(int column, Qt::SortOrder order)
{
    // Column -1 (no sort) is the membership's own order: by cluster, then nearest first.
    m_wanted.column = column >= 0 && column < ColumnCount ? column : Cluster;
    m_wanted.descending = column >= 0 && order == Qt::DescendingOrder;
    rearrange();
}

void MemberTableModel::setFilterText(const QString& text)
{
    const bool same = text.trimmed() == m_wanted.filter.trimmed();
    m_wanted.filter = text;
    if (!same) rearrange();
}

void MemberTableModel::rearrange()
{
    ++m_generation;
    if (!m_membership || m_wanted.isMembershipOrder())
        show(allMembers(m_membership.get()), m_generation);
    else if (!m_working)
        startArranging();
    // else: the task at work is superseded; when it ends, the latest request starts. A
    // burst of keystrokes costs two arrangements at most, not one per key.
    setBusy(isArranging());
}

void MemberTableModel::startArranging()
{
    m_working = true;
    const std::uint64_t generation = m_generation;
    using Watcher = QFutureWatcher<std::vector<std::int32_t>>;
    auto* watcher = new Watcher(this);
    connect(watcher, &Watcher::finished, this, [this, watcher, generation] {
        watcher->deleteLater();
        m_working = false;
        if (generation == m_generation)
            show(watcher->future().takeResult(), generation);
        else if (isArranging())
            startArranging();
        setBusy(isArranging());
    });
    // The task holds the membership, so a new one (or this model's end) cannot free it
    // under the sort.
    watcher->setFuture(QtConcurrent::run([membership = m_membership, wanted = m_wanted] { return arrangeMembers(*membership, wanted); }));
}

void MemberTableModel::show(std::vector<std::int32_t> rows, std::uint64_t generation)
{
    // Where each member is now shown (-1: filtered out), so that the selection and the
    // current cell stay on their members when the rows are sorted or filtered, as long
    // as those members are still shown.
    std::vector<std::int32_t> shownAt(m_membership ? m_membership->members.size() : 0, -1);
    for (std::size_t r = 0; r < rows.size(); ++r) shownAt[static_cast<std::size_t>(rows[r])] = static_cast<std::int32_t>(r);
    const bool reordered = rows.size() == m_rows.size() &&
                           std::all_of(m_rows.begin(), m_rows.end(), [&](std::int32_t m) { return shownAt[static_cast<std::size_t>(m)] >= 0; });
    const auto hint = reordered ? QAbstractItemModel::VerticalSortHint : QAbstractItemModel::NoLayoutChangeHint;
    emit layoutAboutToBeChanged({}, hint);
    const QModelIndexList before = persistentIndexList();
    QModelIndexList after;
    after.reserve(before.size());
    for (const QModelIndex& at : before) {
        const std::int32_t row = shownAt[static_cast<std::size_t>(m_rows[static_cast<std::size_t>(at.row())])];
        after.push_back(row >= 0 ? createIndex(row, at.column()) : QModelIndex());
    }
    m_rows = std::move(rows);
    changePersistentIndexList(before, after);
    emit layoutChanged({}, hint);
    m_shownGeneration = generation;
    emit arranged();
}

void MemberTableModel::setBusy(bool busy)
{
    if (busy == m_busy) return;
    m_busy = busy;
    emit arrangingChanged(busy);
}

int MemberTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int MemberTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant MemberTableModel::data(const QModelIndex& index, int role) const
{
    if (!m_membership || !index.isValid() || static_cast<std::size_t>(index.row()) >= m_rows.size() ||
        (role != Qt::DisplayRole && role != kSortRole && role != Qt::TextAlignmentRole))
        return {};
    const report::Member& member = m_membership->members[static_cast<std::size_t>(m_rows[static_cast<std::size_t>(index.row())])];
    const report::ClusterProfile* cluster = profileOf(*m_membership, member.cluster);
    if (role == Qt::TextAlignmentRole)
        return index.column() == Name ? QVariant() : QVariant(int(Qt::AlignRight | Qt::AlignVCenter));
    const bool display = role == Qt::DisplayRole;
    // Returns per period as percentages: what a quant reads; the sort role keeps the numbers.
    const auto percent = [&](const std::optional<double>& value) -> QVariant {
        if (!value) return display ? QVariant(QStringLiteral("-")) : QVariant();
        return display ? QVariant(formatPercent(*value)) : QVariant(*value);
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
