// Latency: for one run, each iteration's time split by phase (assign, update, reduce)
// as stacked bars, with the 50th, 95th and 99th percentiles of the iteration time
// marked; below them, for runs over several ranks, each rank's reduce time
// (RankReduceAxes). For several runs side by side, one stacked bar per run at every
// iteration, side by side, in the run's colour shaded by phase (assign darkest, reduce
// lightest), with one legend entry per run and each run's p50 in the title.
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
    // With several runs: run i's phases (assign at the bottom, named as the run).
    struct PhaseBars {
        QCPBars* assign = nullptr;
        QCPBars* update = nullptr;
        QCPBars* reduce = nullptr;
    };
    PhaseBars runBars(int i) const { return m_runBars.at(static_cast<std::size_t>(i)); }
    int runBarsCount() const { return static_cast<int>(m_runBars.size()); }
    const RankReduceAxes& rankReduce() const { return m_rankReduce; }

private:
    void showPhases(bool phases);
    void drawPhases(const RunSeries& run);
    void drawPhasesPerRun(const RunSet& runs);

    const RunSet* m_runs = nullptr;
    QCPBars* m_assign = nullptr;
    QCPBars* m_update = nullptr;
    QCPBars* m_reduce = nullptr;
    QCPItemStraightLine* m_lines[3] = {};
    QCPItemText* m_labels[3] = {};
    LatencyPercentiles m_percentiles;
    RankReduceAxes m_rankReduce{this};
    QCPBarsGroup* m_runGroup = nullptr;  // puts the runs' bars side by side
    std::vector<PhaseBars> m_runBars;
};

}  // namespace clusterdesk::ui
