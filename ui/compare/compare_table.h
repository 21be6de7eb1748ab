// The comparison's results, one row per topology as it finishes: measured or modeled,
// time per iteration beside the model's prediction, the bottleneck phase, total time,
// energy with where it comes from, cost, speedup, efficiency, and whether the answer
// changed (✓ identical in exact mode, the ARI against the exact reference in fast
// mode, CHANGED when the labels differ).
#pragma once

#include "compare_row.h"

#include <QTableWidget>

namespace clusterdesk::ui {

class CompareTable : public QTableWidget {
    Q_OBJECT
public:
    enum Column { Topology, Kind, MsPerIteration, Model, Bottleneck, TotalS, Energy, Cost, Speedup, Efficiency, Answer, ColumnCount };

    explicit CompareTable(QWidget* parent = nullptr);

    void addRow(const CompareRow& row);
    // Rewrites row r (a topology reported again, now complete).
    void setRow(int r, const CompareRow& row);
    void clearRows();
    // "✓ identical", "ARI 0.9876", "CHANGED", "-", plus "does not fit" when it would not.
    static QString answerOf(const CompareRow& row);
};

}  // namespace clusterdesk::ui
