// "Time per iteration by topology": a bar per topology on a log scale in ms, measured
// bars beside modeled ones. A measured topology also gets the model's leave-one-out
// prediction as a second bar, so the model's error is on show; every modeled bar
// carries a ±25% band, the error the model is expected to stay within.
#pragma once

#include "compare_row.h"
#include "ui/plots/plot_view.h"

#include <vector>

namespace clusterdesk::ui {

class TimeChart : public PlotView {
    Q_OBJECT
public:
    explicit TimeChart(QWidget* parent = nullptr);

    // Redraws from the comparison's rows so far (failed rows are left out).
    void setRows(const std::vector<CompareRow>& rows);
    // The comparison's outcomes are handed in by setRows, not read from the window's runs.
    void refresh(const RunSet&) override {}
    QString csv() const override;
    // Bars drawn: measured, model predictions of measured, modeled.
    int barCount() const;

private:
    std::vector<CompareRow> m_rows;
    QCPBars* m_measured = nullptr;
    QCPBars* m_predicted = nullptr;  // leave-one-out predictions of the measured ones
    QCPBars* m_modeled = nullptr;
    QCPErrorBars* m_predictedBand = nullptr;
    QCPErrorBars* m_modeledBand = nullptr;
};

}  // namespace clusterdesk::ui
