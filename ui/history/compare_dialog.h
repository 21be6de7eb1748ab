// Two runs side by side: parameters, topology, metrics, the ARI between their labels
// (1 = the same partition) and, under the table, their inertia curves in one Evolution
// graph. Non-modal, so the History table stays usable.
#pragma once

#include "engine/store/run_store.h"
#include "../run_set.h"

#include <QDialog>

#include <optional>

class QLabel;
class QTableWidget;

namespace clusterdesk::ui {

class EvolutionPlot;

class CompareDialog : public QDialog {
    Q_OBJECT
public:
    explicit CompareDialog(QWidget* parent = nullptr);

    // ari: between the two runs' labels; when there is none, why says why. The graph
    // draws runs() as they are then: the caller fills them first.
    void showRuns(const store::RunInfo& a, const store::RunInfo& b, std::optional<double> ari, const QString& why);
    // The runs the graph overlays, one member per compared run.
    RunSet& runs() { return m_runs; }
    EvolutionPlot& evolution() { return *m_evolution; }

    // "ARI between the labels: 0.9876", or why there is none.
    QString ariText() const;
    QTableWidget& table() { return *m_table; }

private:
    QTableWidget* m_table = nullptr;
    QLabel* m_ari = nullptr;
    RunSet m_runs;
    EvolutionPlot* m_evolution = nullptr;
};

}  // namespace clusterdesk::ui
