// Two runs side by side: every field that applies to them under a readable name and
// unit, the ones that differ highlighted, the ARI between their labels (1 = the same
// partition), and under the table their Evolution, Latency and Power overlaid, side by
// side. Non-modal, so the History table stays usable.
#pragma once

#include "engine/store/run_store.h"
#include "../run_set.h"

#include <QDialog>

#include <optional>

class QLabel;
class QTableWidget;

namespace clusterdesk::ui {

class EvolutionPlot;
class LatencyPlot;
class PowerPlot;

class CompareDialog : public QDialog {
    Q_OBJECT
public:
    explicit CompareDialog(QWidget* parent = nullptr);

    // ari: between the two runs' labels; when there is none, why says why. The graphs
    // draw runs() as they are then: the caller fills them first.
    void showRuns(const store::RunInfo& a, const store::RunInfo& b, std::optional<double> ari, const QString& why);
    // The runs the graphs overlay, one member per compared run.
    RunSet& runs() { return m_runs; }
    EvolutionPlot& evolution() { return *m_evolution; }
    LatencyPlot& latency() { return *m_latency; }
    PowerPlot& power() { return *m_power; }

    // "ARI between the labels: 0.9876", or why there is none.
    QString ariText() const;
    QTableWidget& table() { return *m_table; }
    // Whether the table's row `row` is highlighted as differing.
    bool highlighted(int row) const;

private:
    QTableWidget* m_table = nullptr;
    QLabel* m_ari = nullptr;
    RunSet m_runs;
    EvolutionPlot* m_evolution = nullptr;
    LatencyPlot* m_latency = nullptr;
    PowerPlot* m_power = nullptr;
};

}  // namespace clusterdesk::ui
