// The Members tab's table: every row of the dataset with its cluster, its distance to
// the cluster's centroid and its cluster's size and, for price data, the cluster's mean
// return and volatility. A table model over report::Membership (no copy per cell), so a
// million rows cost nothing until they are scrolled to.
#pragma once

#include "engine/report/membership.h"

#include <QAbstractTableModel>

#include <memory>

namespace clusterdesk::ui {

class MemberTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Name, Cluster, Distance, ClusterSize, MeanReturn, Volatility, ColumnCount };
    static constexpr int kSortRole = Qt::UserRole + 1;  // numbers as numbers

    explicit MemberTableModel(QObject* parent = nullptr);

    void setMembership(std::shared_ptr<const report::Membership> membership);
    const report::Membership* membership() const { return m_membership.get(); }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

    // The table as CSV, every row in the model's order (names quoted where needed).
    QString toCsv() const;

private:
    std::shared_ptr<const report::Membership> m_membership;
};

}  // namespace clusterdesk::ui
