// Latency: each iteration's time split by phase (assign, update, reduce) as stacked
// bars, with the 50th, 95th and 99th percentiles of the iteration time marked; below
// them, for runs over several ranks, each rank's reduce time (RankReduceAxes).
#pragma once

#include "plot_view.h"
#include "rank_reduce_axes.h"

namespace clusterdesk::ui {

struct LatencyPercentiles {
    double p50 = 0, p95 = 0, p99 = 0;  // milliseconds per iteration
};

class LatencyPlot : public PlotView {
    Q_OBJECT
public:
    explicit LatencyPlot(QWidget* parent = nullptr);

    void refresh(const RunModel& model) override;
    QString csv() const override;

    QCPBars* assignBars() const { return m_assign; }
    QCPBars* updateBars() const { return m_update; }
    QCPBars* reduceBars() const { return m_reduce; }
    LatencyPercentiles percentiles() const { return m_percentiles; }
    const RankReduceAxes& rankReduce() const { return m_rankReduce; }

private:
    const RunModel* m_model = nullptr;
    QCPBars* m_assign = nullptr;
    QCPBars* m_update = nullptr;
    QCPBars* m_reduce = nullptr;
    QCPItemStraightLine* m_lines[3] = {};
    QCPItemText* m_labels[3] = {};
    LatencyPercentiles m_percentiles;
    RankReduceAxes m_rankReduce{this};
};

}  // namespace clusterdesk::ui
