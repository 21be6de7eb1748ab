#include "evolution_plot.h"

#include "../run_model.h"
#include "cluster_palette.h"

namespace clusterdesk::ui {
namespace {

constexpr int kLegendBands = 8;

}  // namespace

EvolutionPlot::EvolutionPlot(QWidget* parent)
    : PlotView(parent)
{
    setObjectName("evolutionPlot");
    setTitle(tr("Cluster sizes per iteration"));
    xAxis->setLabel(tr("iteration"));
    useWholeNumberTicks(xAxis);
    yAxis->setLabel(tr("rows per cluster (stacked)"));
    yAxis2->setVisible(true);
    yAxis2->setLabel(tr("k (clusters)"));
    m_inertiaAxis = axisRect()->addAxis(QCPAxis::atRight);
    m_inertiaAxis->setLabel(tr("inertia (sum of squared distances, data units^2)"));
    m_inertiaAxis->setNumberFormat("gb");
    // Bands, k and inertia make a long legend: it goes below the graph, in rows.
    placeLegendBelow(6);
}

QCPGraph* EvolutionPlot::sizeBand(int c) const
{
    return c >= 0 && c < sizeBandCount() ? m_bands[static_cast<std::size_t>(c)] : nullptr;
}

void EvolutionPlot::refresh(const RunModel& model)
{
    m_model = &model;
    const auto& its = model.iterations();
    const int bands = model.maxK();
    clearGraphs();
    clearItems();
    m_bands.clear();
    m_eventMarks = 0;

    const qsizetype n = static_cast<qsizetype>(its.size());
    QVector<double> x(n), k(n), inertia(n), stacked(n, 0.0);
    for (qsizetype i = 0; i < n; ++i) {
        x[i] = its[static_cast<std::size_t>(i)].iteration;
        k[i] = its[static_cast<std::size_t>(i)].k;
        inertia[i] = its[static_cast<std::size_t>(i)].inertia;
    }
    for (int c = 0; c < bands; ++c) {
        for (qsizetype i = 0; i < n; ++i) {
            const auto& sizes = its[static_cast<std::size_t>(i)].sizes;
            if (static_cast<std::size_t>(c) < sizes.size()) stacked[i] += static_cast<double>(sizes[static_cast<std::size_t>(c)]);
        }
        QCPGraph* band = addGraph();
        band->setName(tr("cluster %1").arg(c));
        const QColor colour = clusterColor(c);
        band->setPen(QPen(colour.darker(130), 1));
        band->setBrush(QColor(colour.red(), colour.green(), colour.blue(), 200));
        // Each band fills down to the one below it: the stack; the first to zero.
        if (!m_bands.empty()) band->setChannelFillGraph(m_bands.back());
        band->setData(x, stacked, true);
        if (c >= kLegendBands) band->removeFromLegend();
        m_bands.push_back(band);
    }
    m_k = addGraph(xAxis, yAxis2);
    m_k->setName(tr("k (right axis)"));
    m_k->setPen(QPen(Qt::black, 2));
    m_k->setLineStyle(QCPGraph::lsStepLeft);
    m_k->setData(x, k, true);
    m_inertia = addGraph(xAxis, m_inertiaAxis);
    m_inertia->setName(tr("inertia (far right axis)"));
    m_inertia->setPen(QPen(Qt::darkRed, 2, Qt::DashLine));
    m_inertia->setData(x, inertia, true);

    for (const IterationStats& s : its) {
        const bool split = s.event.rfind("split", 0) == 0;
        const bool merged = s.event.rfind("merged", 0) == 0;
        if (!split && !merged) continue;
        auto* line = new QCPItemStraightLine(this);
        line->point1->setCoords(s.iteration - 0.5, 0);
        line->point2->setCoords(s.iteration - 0.5, 1);
        line->setPen(QPen(split ? QColor(0, 90, 200) : QColor(200, 90, 0), 1.5, Qt::DotLine));
        auto* label = new QCPItemText(this);
        label->position->setTypeX(QCPItemPosition::ptPlotCoords);
        label->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
        label->position->setCoords(s.iteration - 0.5, 0.02 + 0.06 * (m_eventMarks % 4));
        // Labels near the right end extend to the left of their line, so they stay inside.
        const bool nearEnd = s.iteration > 0.7 * static_cast<double>(its.back().iteration);
        label->setPositionAlignment((nearEnd ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignTop);
        label->setText(QString::fromStdString(s.event));
        label->setColor(line->pen().color());
        label->setBrush(QColor(255, 255, 255, 200));
        ++m_eventMarks;
    }
    if (n > 0 && model.finished()) {
        setTitle(tr("Cluster sizes per iteration: %1 iterations, k=%2, inertia %3")
                     .arg(n)
                     .arg(its.back().k)
                     .arg(its.back().inertia, 0, 'g', 6));
    } else {
        setTitle(tr("Cluster sizes per iteration"));
    }
    if (rescaleUnlessZoomed() && n > 0) {
        yAxis->setRangeLower(0);
        yAxis2->setRange(0, model.maxK() * 1.1 + 1);
    }
    replot(QCustomPlot::rpQueuedReplot);
}

QString EvolutionPlot::csv() const
{
    QString out = "iteration,round,k,inertia";
    if (!m_model) return out + "\n";
    const int bands = m_model->maxK();
    for (int c = 0; c < bands; ++c) out += QString(",size_%1").arg(c);
    out += ",event\n";
    for (const IterationStats& s : m_model->iterations()) {
        out += QString("%1,%2,%3,%4").arg(s.iteration).arg(s.round).arg(s.k).arg(s.inertia, 0, 'g', 12);
        for (int c = 0; c < bands; ++c)
            out += "," + QString::number(static_cast<std::size_t>(c) < s.sizes.size() ? s.sizes[static_cast<std::size_t>(c)] : 0);
        out += "," + QString::fromStdString(s.event) + "\n";
    }
    return out;
}

}  // namespace clusterdesk::ui
