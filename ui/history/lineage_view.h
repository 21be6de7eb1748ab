// The Lineage view of one run: the dataset it read, the runs it derives from (re-run
// of, warm-started from), the runs derived from it, the runs it was compared with and
// the reports that include it, as a small tree. Every node shows its short hash or id;
// double-clicking a run selects it in the History table.
#pragma once

#include "engine/store/run_store.h"

#include <QTreeWidget>

#include <vector>

namespace clusterdesk::ui {

class LineageView : public QTreeWidget {
    Q_OBJECT
public:
    static constexpr int kRunIdRole = Qt::UserRole;  // on run nodes: the full run id

    explicit LineageView(QWidget* parent = nullptr);

    // edges: every edge into and out of the run (RunStore::lineage / RunRecord::lineage).
    void showRun(const store::RunInfo& run, const std::vector<store::LineageEdge>& edges);
    void showNothing(const QString& why);

signals:
    void runActivated(const QString& runId);
};

}  // namespace clusterdesk::ui
