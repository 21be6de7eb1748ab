// The Members tab's table: every row of the dataset with its cluster, its distance to
// the cluster's centroid and its cluster's size and, for price data, the cluster's mean
// return and volatility. A table model over report::Membership (no copy per cell), so a
// million rows cost nothing until they are scrolled to.
//
// Sorting (a header click, through sort()) and filtering are the model's own, done by
// arrangeMembers on a pool thread: the table keeps showing the last arrangement, and
// the window stays responsive, until the new one is ready. A newer request, or a new
// membership, makes a pending one's result be dropped. The selection stays on its
// members through a sort or a filter that keeps them.
#pragma once

#include "member_order.h"

#include "engine/report/membership.h"

#include <QAbstractTableModel>

#include <cstdint>
#include <memory>
#include <vector>

namespace clusterdesk::ui {

class MemberTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Name, Cluster, Distance, ClusterSize, MeanReturn, Volatility, ColumnCount };
    static constexpr int kSortRole = Qt::UserRole + 1;  // numbers as numbers

    explicit MemberTableModel(QObject* parent = nullptr);

    // Shown in the current sort and filter (in the membership's order until they are applied).
    void setMembership(std::shared_ptr<const report::Membership> membership);
    const report::Membership* membership() const { return m_membership.get(); }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;

    // Keeps the members whose name holds the text (any case), or the cluster it numbers.
    void setFilterText(const QString& text);
    const MemberArrangement& arrangement() const { return m_wanted; }
    // A sort or filter asked for is still being worked out.
    bool isArranging() const { return m_shownGeneration != m_generation; }

    // Every member as CSV, in the membership's order (by cluster, then nearest first),
    // whatever the table's sort and filter (names quoted where needed).
    QString toCsv() const;

signals:
    // The table now shows the arrangement last asked for.
    void arranged();
    void arrangingChanged(bool arranging);

private:
    void rearrange();
    void startArranging();
    void show(std::vector<std::int32_t> rows, std::uint64_t generation);
    void setBusy(bool busy);  // emits arrangingChanged when it changes

    std::shared_ptr<const report::Membership> m_membership;
    MemberArrangement m_wanted;
    std::vector<std::int32_t> m_rows;  // what each table row shows: an index into members
    std::uint64_t m_generation = 0;    // of the last request
    std::uint64_t m_shownGeneration = 0;
    bool m_working = false;  // a pool task is arranging (maybe for a superseded request)
    bool m_busy = false;     // as arrangingChanged last said
};

}  // namespace clusterdesk::ui
