// "Energy per run by topology": one bar per topology in joules (log scale), coloured
// by where the figure comes from (measured by NVML/RAPL, estimated from utilisation
// and TDP, mixed, or modeled), so estimates are never mistaken for measurements.
#pragma once

#include "compare_row.h"
#include "ui/plots/plot_view.h"

#include <map>
#include <vector>

namespace clusterdesk::ui {

class EnergyChart : public PlotView {
    Q_OBJECT
public:
    explicit EnergyChart(QWidget* parent = nullptr);

    // Redraws from the comparison's rows so far (failed rows are left out).
    void setRows(const std::vector<CompareRow>& rows);
    // The comparison's outcomes are handed in by setRows, not read from the window's runs.
    void refresh(const RunSet&) override {}
    QString csv() const override;
    // Bars drawn, of every source.
    int barCount() const;

private:
    QCPBars* barsFor(const QString& source);

    std::vector<CompareRow> m_rows;
    std::map<QString, QCPBars*> m_bars;  // by energy source
};

}  // namespace clusterdesk::ui
