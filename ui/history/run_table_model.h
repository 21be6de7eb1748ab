// The History tab's table: one row per recorded run (store::RunInfo), with the columns
// a quant sorts and filters by. Qt::DisplayRole is formatted text; kSortRole is the
// value to sort by (numbers as doubles, so 10 sorts after 9; a missing number sorts
// first); kRunIdRole is the run's full id on every column.
#pragma once

#include "engine/store/run_store.h"

#include <QAbstractTableModel>

#include <vector>

namespace clusterdesk::ui {

class RunTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Status, Dataset, Algorithm, K, Mode, Topology, Duration, Energy, Inertia, Ari, Started, Run, ColumnCount };
    static constexpr int kSortRole = Qt::UserRole;
    static constexpr int kRunIdRole = Qt::UserRole + 1;

    explicit RunTableModel(QObject* parent = nullptr);

    // Replaces every row (a refresh from the store).
    void setRuns(std::vector<store::RunInfo> runs);
    const std::vector<store::RunInfo>& runs() const { return m_runs; }
    // Row of the run with this id, or -1.
    int rowOf(const QString& runId) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    // What the metrics JSON says, parsed once per refresh.
    struct Measures {
        double k = 0, inertia = 0, ari = 0, seconds = 0;
        bool hasK = false, hasInertia = false, hasAri = false, hasSeconds = false;
    };
    QVariant display(const store::RunInfo& run, const Measures& m, int column) const;
    QVariant sortKey(const store::RunInfo& run, const Measures& m, int column) const;

    std::vector<store::RunInfo> m_runs;
    std::vector<Measures> m_measures;
};

}  // namespace clusterdesk::ui
