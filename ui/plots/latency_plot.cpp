#include "latency_plot.h"

#include "../run_set.h"
#include "cluster_palette.h"
#include "engine/core/percentile.h"

#include <algorithm>

namespace clusterdesk::ui {
namespace {

QCPBars* makeBars(QCustomPlot* plot, const QString& name, const QColor& colour)
{
    auto* bars = new QCPBars(plot->xAxis, plot->yAxis);
    bars->setName(name);
    bars->setPen(QPen(colour.darker(140)));
    bars->setBrush(colour);
    bars->setWidthType(QCPBars::wtPlotCoords);
    bars->setWidth(0.8);
    return bars;
}

double totalMs(const IterationStats& s)
{
    return s.assignMs + s.updateMs + s.reduceMs;
}

}  // namespace

LatencyPlot::LatencyPlot(QWidget* parent)
    : PlotView(parent)
{
    setObjectName("latencyPlot");
    setTitle(tr("Time per iteration by phase"));
    xAxis->setLabel(tr("iteration"));
    useWholeNumberTicks(xAxis);
    yAxis->setLabel(tr("time (ms)"));
    m_assign = makeBars(this, tr("assign (nearest centroid)"), QColor(70, 130, 180));
    m_update = makeBars(this, tr("update (sums, centroids)"), QColor(240, 160, 60));
    m_reduce = makeBars(this, tr("reduce (all-reduce)"), QColor(120, 180, 90));
    m_update->moveAbove(m_assign);
    m_reduce->moveAbove(m_update);
    const char* names[3] = {"p50", "p95", "p99"};
    const QColor colours[3] = {QColor(60, 60, 60), QColor(170, 60, 170), QColor(200, 30, 30)};
    for (int i = 0; i < 3; ++i) {
        m_lines[i] = new QCPItemStraightLine(this);
        m_lines[i]->setPen(QPen(colours[i], 1.2, Qt::DashLine));
        m_lines[i]->setVisible(false);
        m_labels[i] = new QCPItemText(this);
        m_labels[i]->setObjectName(names[i]);
        m_labels[i]->setColor(colours[i]);
        m_labels[i]->setPositionAlignment(Qt::AlignRight | Qt::AlignBottom);
        m_labels[i]->position->setTypeX(QCPItemPosition::ptAxisRectRatio);
        m_labels[i]->position->setTypeY(QCPItemPosition::ptPlotCoords);
        m_labels[i]->setVisible(false);
    }
    axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignLeft);
    m_runGroup = new QCPBarsGroup(this);
    m_runGroup->setSpacingType(QCPBarsGroup::stPlotCoords);
    m_runGroup->setSpacing(0.02);
}

void LatencyPlot::refresh(const RunSet& runs)
{
    m_runs = &runs;
    for (const PhaseBars& bars : m_runBars)
        for (QCPBars* phase : {bars.reduce, bars.update, bars.assign}) removePlottable(phase);  // top first
    m_runBars.clear();
    showPhases(runs.size() == 1);
    if (runs.size() == 1) drawPhases(runs.at(0));
    else drawPhasesPerRun(runs);
    replot(QCustomPlot::rpQueuedReplot);
}

// Stacked phases of several runs would hide each other: they show for one run only.
void LatencyPlot::showPhases(bool phases)
{
    for (QCPBars* bars : {m_assign, m_update, m_reduce}) {
        bars->setVisible(phases);
        if (phases) bars->addToLegend();
        else {
            bars->data()->clear();
            bars->removeFromLegend();
        }
    }
    if (phases) return;
    m_rankReduce.update({});
    m_percentiles = {};
    for (int i = 0; i < 3; ++i) {
        m_lines[i]->setVisible(false);
        m_labels[i]->setVisible(false);
    }
}

void LatencyPlot::drawPhases(const RunSeries& run)
{
    const auto& its = run.iterations();
    const qsizetype n = static_cast<qsizetype>(its.size());
    QVector<double> x(n), assign(n), update(n), reduce(n);
    std::vector<double> totals(static_cast<std::size_t>(n));
    for (qsizetype i = 0; i < n; ++i) {
        const IterationStats& s = its[static_cast<std::size_t>(i)];
        x[i] = s.iteration;
        assign[i] = s.assignMs;
        update[i] = s.updateMs;
        reduce[i] = s.reduceMs;
        totals[static_cast<std::size_t>(i)] = totalMs(s);
    }
    m_assign->setData(x, assign, true);
    m_update->setData(x, update, true);
    m_reduce->setData(x, reduce, true);
    m_rankReduce.update(its);

    std::sort(totals.begin(), totals.end());
    m_percentiles = {percentileOfSorted(totals, 0.50), percentileOfSorted(totals, 0.95), percentileOfSorted(totals, 0.99)};
    const double values[3] = {m_percentiles.p50, m_percentiles.p95, m_percentiles.p99};
    const char* names[3] = {"p50", "p95", "p99"};
    for (int i = 0; i < 3; ++i) {
        m_lines[i]->point1->setCoords(0, values[i]);
        m_lines[i]->point2->setCoords(1, values[i]);
        m_lines[i]->setVisible(n > 0);
        m_labels[i]->position->setCoords(0.99 - 0.12 * i, values[i]);
        m_labels[i]->setText(QString("%1 %2 ms").arg(names[i]).arg(values[i], 0, 'f', 2));
        m_labels[i]->setVisible(n > 0);
    }
    setTitle(n == 0 ? tr("Time per iteration by phase")
                    : tr("Time per iteration by phase: p50 %1 ms, p95 %2 ms, p99 %3 ms over %4 iterations")
                          .arg(m_percentiles.p50, 0, 'f', 2)
                          .arg(m_percentiles.p95, 0, 'f', 2)
                          .arg(m_percentiles.p99, 0, 'f', 2)
                          .arg(n));
    if (rescaleUnlessZoomed() && n > 0) {
        xAxis->setRange(x.front() - 1, x.back() + 1);
        yAxis->setRange(0, std::max(m_percentiles.p99, totals.back()) * 1.15);
    }
}

void LatencyPlot::drawPhasesPerRun(const RunSet& runs)
{
    const double width = 0.8 / std::max(runs.size(), 1);
    double top = 0;
    QStringList medians;
    for (int r = 0; r < runs.size(); ++r) {
        const RunSeries& run = runs.at(r);
        QVector<double> x, assign, update, reduce;
        std::vector<double> totals;
        for (const IterationStats& s : run.iterations()) {
            x << s.iteration;
            assign << s.assignMs;
            update << s.updateMs;
            reduce << s.reduceMs;
            totals.push_back(totalMs(s));
        }
        const QColor colour = clusterColor(r);
        PhaseBars bars{makeBars(this, run.name(), colour), makeBars(this, QString(), colour.lighter(140)),
                       makeBars(this, QString(), colour.lighter(175))};
        bars.update->moveAbove(bars.assign);
        bars.reduce->moveAbove(bars.update);
        for (QCPBars* phase : {bars.assign, bars.update, bars.reduce}) {
            phase->setWidth(width);
            phase->setBarsGroup(m_runGroup);
        }
        bars.update->removeFromLegend();  // the run is named once, by its bottom phase
        bars.reduce->removeFromLegend();
        bars.assign->setData(x, assign, true);
        bars.update->setData(x, update, true);
        bars.reduce->setData(x, reduce, true);
        m_runBars.push_back(bars);
        std::sort(totals.begin(), totals.end());
        if (!totals.empty()) {
            top = std::max(top, totals.back());
            medians << run.name() + tr(" %1 ms").arg(percentileOfSorted(totals, 0.50), 0, 'f', 2);
        }
    }
    setTitle(medians.isEmpty() ? tr("Time per iteration by phase")
                               : tr("Time per iteration by phase (dark to light: assign, update, reduce), p50: %1").arg(medians.join(", ")));
    if (rescaleUnlessZoomed() && top > 0) {
        xAxis->setRange(xAxis->range().lower - 0.5, xAxis->range().upper + 0.5);  // whole bars at the ends
        yAxis->setRange(0, top * 1.15);
    }
}

QString LatencyPlot::csv() const
{
    // One run: its rows, with per-rank reduce columns; several: a leading run column.
    const bool several = m_runs && m_runs->size() != 1;
    QString out = QString(several ? "run," : "") + "iteration,round,assign_ms,update_ms,reduce_ms,total_ms" + m_rankReduce.csvHeader() + "\n";
    if (!m_runs) return out;
    for (int r = 0; r < m_runs->size(); ++r)
        for (const IterationStats& s : m_runs->at(r).iterations())
            out += (several ? m_runs->at(r).name() + "," : QString())
                   + QString("%1,%2,%3,%4,%5,%6%7\n")
                         .arg(s.iteration)
                         .arg(s.round)
                         .arg(s.assignMs, 0, 'g', 9)
                         .arg(s.updateMs, 0, 'g', 9)
                         .arg(s.reduceMs, 0, 'g', 9)
                         .arg(totalMs(s), 0, 'g', 9)
                         .arg(m_rankReduce.csvValues(s));
    return out;
}

}  // namespace clusterdesk::ui
