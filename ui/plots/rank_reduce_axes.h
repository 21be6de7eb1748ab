// The reduce phase per rank, under the Latency graph's stacked bars: one line per rank
// (shard, GPU or pool rank) of its all-reduce ms per iteration, from
// IterationStats::ranks. Its axes appear only for runs over two ranks or more and share
// the bars' iteration axis. A rank's reduce time includes waiting for the slowest rank,
// so the rank that reduces least is the one the others wait for.
#pragma once

#include "engine/cluster/params.h"

#include <QString>

#include <vector>

class QCustomPlot;
class QCPAxisRect;
class QCPGraph;
class QCPLegend;
class QCPMarginGroup;

namespace clusterdesk::ui {

class RankReduceAxes {
public:
    // Adds its axes below plot's main axis rectangle when there is something to show.
    explicit RankReduceAxes(QCustomPlot* plot);

    void update(const std::vector<IterationStats>& iterations);

    int ranks() const { return static_cast<int>(m_graphs.size()); }
    QCPGraph* graph(int rank) const { return m_graphs.at(static_cast<std::size_t>(rank)); }
    QCPAxisRect* axisRect() const { return m_rect; }

    // CSV columns for one iteration: ",reduce_ms_rank0,..." (header) and its values.
    QString csvHeader() const;
    QString csvValues(const IterationStats& stats) const;

private:
    void setRanks(int ranks);

    QCustomPlot* m_plot;
    QCPMarginGroup* m_margins = nullptr;
    QCPAxisRect* m_rect = nullptr;
    QCPLegend* m_legend = nullptr;
    std::vector<QCPGraph*> m_graphs;
};

}  // namespace clusterdesk::ui
