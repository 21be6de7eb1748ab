#include "rank_reduce_axes.h"

#include "cluster_palette.h"
#include "plot_view.h"

#include <qcustomplot.h>

#include <algorithm>

namespace clusterdesk::ui {

RankReduceAxes::RankReduceAxes(QCustomPlot* plot)
    : m_plot(plot)
    , m_margins(new QCPMarginGroup(plot))
{
}

void RankReduceAxes::setRanks(int ranks)
{
    if (ranks == this->ranks()) return;
    for (QCPGraph* g : m_graphs) {
        g->removeFromLegend(m_legend);  // removeGraph only clears the main legend
        m_plot->removeGraph(g);
    }
    m_graphs.clear();
    if (ranks == 0) {
        // Its axes go with it (the graphs on them were removed first).
        m_plot->axisRect(0)->setMarginGroup(QCP::msLeft | QCP::msRight, nullptr);
        m_plot->plotLayout()->remove(m_rect);
        m_plot->plotLayout()->simplify();
        m_rect = nullptr;
        m_legend = nullptr;
        return;
    }
    if (!m_rect) {
        QCPAxisRect* main = m_plot->axisRect(0);
        m_rect = new QCPAxisRect(m_plot);
        m_rect->setObjectName("rankReduceAxes");
        // Directly below the bars (the legend strip, if any, stays last).
        int row = 0;
        while (row < m_plot->plotLayout()->rowCount() && m_plot->plotLayout()->element(row, 0) != main) ++row;
        m_plot->plotLayout()->insertRow(row + 1);
        m_plot->plotLayout()->addElement(row + 1, 0, m_rect);
        m_plot->plotLayout()->setRowStretchFactor(row + 1, 0.45);
        main->setMarginGroup(QCP::msLeft | QCP::msRight, m_margins);
        m_rect->setMarginGroup(QCP::msLeft | QCP::msRight, m_margins);
        QCPAxis* x = m_rect->axis(QCPAxis::atBottom);
        QCPAxis* y = m_rect->axis(QCPAxis::atLeft);
        x->setLabel(QObject::tr("iteration"));
        PlotView::useWholeNumberTicks(x);
        y->setLabel(QObject::tr("reduce per rank (ms)"));
        x->setRange(main->axis(QCPAxis::atBottom)->range());
        QObject::connect(main->axis(QCPAxis::atBottom), qOverload<const QCPRange&>(&QCPAxis::rangeChanged), x,
                         qOverload<const QCPRange&>(&QCPAxis::setRange));
        m_legend = new QCPLegend;
        m_rect->insetLayout()->addElement(m_legend, Qt::AlignTop | Qt::AlignRight);
        m_legend->setLayer("legend");
        m_legend->setFont(m_plot->legend->font());
        m_legend->setBrush(QColor(255, 255, 255, 220));
        m_legend->setFillOrder(QCPLegend::foColumnsFirst);
        m_legend->setWrap(8);
    }
    for (int r = 0; r < ranks; ++r) {
        QCPGraph* g = m_plot->addGraph(m_rect->axis(QCPAxis::atBottom), m_rect->axis(QCPAxis::atLeft));
        g->setName(QObject::tr("rank %1").arg(r));
        g->setPen(QPen(clusterColor(r), 1.5));
        g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, 4));
        g->removeFromLegend();
        g->addToLegend(m_legend);
        m_graphs.push_back(g);
    }
}

void RankReduceAxes::update(const std::vector<IterationStats>& iterations)
{
    std::size_t ranks = 0;
    for (const IterationStats& s : iterations) ranks = std::max(ranks, s.ranks.size());
    if (ranks < 2) ranks = 0;  // one shard waits for no one: nothing to compare
    setRanks(static_cast<int>(ranks));
    if (ranks == 0) return;
    double top = 0;
    for (std::size_t r = 0; r < ranks; ++r) {
        QVector<double> x, ms;
        for (const IterationStats& s : iterations) {
            if (r >= s.ranks.size()) continue;
            x << s.iteration;
            ms << s.ranks[r].reduceMs;
            top = std::max(top, s.ranks[r].reduceMs);
        }
        m_graphs[r]->setData(x, ms, true);
    }
    m_rect->axis(QCPAxis::atLeft)->setRange(0, top > 0 ? top * 1.15 : 1);
}

QString RankReduceAxes::csvHeader() const
{
    QString header;
    for (int r = 0; r < ranks(); ++r) header += QString(",reduce_ms_rank%1").arg(r);
    return header;
}

QString RankReduceAxes::csvValues(const IterationStats& stats) const
{
    QString values;
    for (std::size_t r = 0; r < static_cast<std::size_t>(ranks()); ++r)
        values += r < stats.ranks.size() ? QString(",%1").arg(stats.ranks[r].reduceMs, 0, 'g', 9) : QString(",");
    return values;
}

}  // namespace clusterdesk::ui
