// Latency: for one run, each iteration's time split by phase (assign, update, reduce)
// as stacked bars, with the 50th, 95th and 99th percentiles of the iteration time
// marked; below them, for runs over several ranks, each rank's reduce time
// (RankReduceAxes). For several runs side by side, each run's time per iteration (all
// phases) as a line named as the run; the CSV keeps every run's phases.
#pragma once

#include "plot_view.h"
#include "rank_reduce_axes.h"

namespace clusterdesk::ui {

class RunSeries;

struct LatencyPercentiles {
    double p50 = 0, p95 = 0, p99 = 0;  // milliseconds per iteration
};

class LatencyPlot : public PlotView {
    Q_OBJECT
public:
    explicit LatencyPlot(QWidget* parent = nullptr);

    void refresh(const RunSet& runs) override;
    QString csv() const override;

    QCPBars* assignBars() const { return m_assign; }
    QCPBars* updateBars() const { return m_update; }
    QCPBars* reduceBars() const { return m_reduce; }
    // Of the run drawn by phase; zero while several runs are drawn.
    LatencyPercentiles percentiles() const { return m_percentiles; }
    // With several runs: run i's time per iteration, named as the run.
    QCPGraph* runTotal(int i) const;
    int runTotalCount() const { return static_cast<int>(m_runTotals.size()); }
    const RankReduceAxes& rankReduce() const { return m_rankReduce; }

private:
    void showPhases(bool phases);
    void drawPhases(const RunSeries& run);
    void drawTotalPerRun(const RunSet& runs);

    const RunSet* m_runs = nullptr;
    QCPBars* m_assign = nullptr;
    QCPBars* m_update = nullptr;
    QCPBars* m_reduce = nullptr;
    QCPItemStraightLine* m_lines[3] = {};
    QCPItemText* m_labels[3] = {};
    LatencyPercentiles m_percentiles;
    RankReduceAxes m_rankReduce{this};
    std::vector<QCPGraph*> m_runTotals;
};

}  // namespace clusterdesk::ui
