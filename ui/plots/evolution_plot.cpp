#include "evolution_plot.h"

#include "../run_set.h"
#include "cluster_palette.h"
#include "growth_note.h"

#include <algorithm>

namespace clusterdesk::ui {
namespace {

// Bands named in the legend: every cluster up to this many; beyond, the last entry says
// how many more the stack holds, so the legend never silently lists fewer than drawn.
constexpr int kLegendBands = 16;

QString inertiaLabel()
{
    return QObject::tr("inertia (sum of squared distances, data units^2)");
}

}  // namespace

EvolutionPlot::EvolutionPlot(QWidget* parent)
    : PlotView(parent)
{
    setObjectName("evolutionPlot");
    setTitle(tr("Cluster sizes per iteration"));
    xAxis->setLabel(tr("iteration"));
    useWholeNumberTicks(xAxis);
    yAxis2->setVisible(true);
    yAxis2->setLabel(tr("k (clusters)"));
    useWholeNumberTicks(yAxis2);  // k counts clusters: a tick at 2.5 names no k
    m_inertiaAxis = axisRect()->addAxis(QCPAxis::atRight);
    m_inertiaAxis->setLabel(inertiaLabel());
    m_inertiaAxis->setNumberFormat("gb");
    showSizes(true);
    // Bands, k and inertia make a long legend: it goes below the graph, in rows.
    placeLegendBelow(6);
}

QCPGraph* EvolutionPlot::sizeBand(int c) const
{
    return c >= 0 && c < sizeBandCount() ? m_bands[static_cast<std::size_t>(c)] : nullptr;
}

QCPGraph* EvolutionPlot::runInertia(int i) const
{
    return i >= 0 && i < runInertiaCount() ? m_runInertia[static_cast<std::size_t>(i)] : nullptr;
}

void EvolutionPlot::refresh(const RunSet& runs)
{
    m_runs = &runs;
    clearGraphs();
    clearItems();
    m_bands.clear();
    m_k = nullptr;
    m_inertia = nullptr;
    m_runInertia.clear();
    m_eventMarks = 0;
    showSizes(runs.size() == 1);
    if (runs.size() == 1) drawSizes(runs.at(0));
    else drawInertiaPerRun(runs);
    replot(QCustomPlot::rpQueuedReplot);
}

// One run has room for its cluster sizes (left axis); several share the left axis for
// their inertia, so each curve is read against one scale.
void EvolutionPlot::showSizes(bool sizes)
{
    yAxis->setLabel(sizes ? tr("rows per cluster (stacked)") : inertiaLabel());
    m_inertiaAxis->setVisible(sizes);
}

void EvolutionPlot::drawSizes(const RunSeries& run)
{
    const auto& its = run.iterations();
    const int bands = run.maxK();

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
        band->setName(c == kLegendBands - 1 && bands > kLegendBands
                          ? tr("cluster %1 (clusters %2-%3 above it, not listed)").arg(c).arg(c + 1).arg(bands - 1)
                          : tr("cluster %1").arg(c));
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

    const double lastIteration = n > 0 ? its.back().iteration : 0;
    for (const IterationStats& s : its) {
        const bool split = s.event.rfind("split", 0) == 0;
        const bool merged = s.event.rfind("merged", 0) == 0;
        if (!split && !merged) continue;
        // The event's headline ("split 2 of 8 clusters"): its reasons in brackets would run
        // past the graph's edge; the run's record keeps them whole.
        addEventMark(s.iteration - 0.5, lastIteration, QString::fromStdString(s.event.substr(0, s.event.find(" ("))),
                     split ? QColor(0, 90, 200) : QColor(200, 90, 0));
    }
    // Where growth ended, and (in the note under the title) why.
    const GrowthLog& growth = run.outcome().growth;
    const bool grown = run.finished() && growth.stop != GrowthStop::NotGrown;
    if (grown)
        addEventMark(growth.stopIteration + 0.5, lastIteration,
                     tr("growth stopped: %1").arg(QString::fromStdString(toString(growth.stop))), QColor(90, 90, 90));
    setNote(grown ? growthNote(growth) : QString());
    if (n > 0 && run.finished()) {
        // The outcome, not the last iteration: with restarts (n-init) the kept start
        // need not be the last one.
        setTitle(tr("Cluster sizes per iteration: %1 iterations, k=%2, inertia %3")
                     .arg(n)
                     .arg(run.outcome().k)
                     .arg(run.outcome().inertia, 0, 'g', 6));
    } else {
        setTitle(tr("Cluster sizes per iteration"));
    }
    if (rescaleUnlessZoomed() && n > 0) {
        yAxis->setRangeLower(0);
        yAxis2->setRange(0, run.maxK() * 1.1 + 1);
    }
}

void EvolutionPlot::addEventMark(double x, double lastIteration, const QString& text, const QColor& colour)
{
    // Growth stops after its last iteration (x = last + 0.5), past the axis's end: the
    // mark stands at the end instead, or its label would be cut off there.
    x = std::min(x, lastIteration);
    auto* line = new QCPItemStraightLine(this);
    line->point1->setCoords(x, 0);
    line->point2->setCoords(x, 1);
    line->setPen(QPen(colour, 1.5, Qt::DotLine));
    auto* label = new QCPItemText(this);
    label->position->setTypeX(QCPItemPosition::ptPlotCoords);
    label->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
    label->position->setCoords(x, 0.02 + 0.06 * (m_eventMarks % 4));
    // Labels near the right end extend to the left of their line, so they stay inside.
    const bool nearEnd = x > 0.7 * lastIteration;
    label->setPositionAlignment((nearEnd ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignTop);
    label->setText(text);
    label->setColor(colour);
    label->setBrush(QColor(255, 255, 255, 200));
    // Aligned by its box, padding included: without padding a label at the right end
    // touched the axis's edge, which cut its last letter.
    label->setPadding(QMargins(3, 1, 3, 1));
    ++m_eventMarks;
}

void EvolutionPlot::drawInertiaPerRun(const RunSet& runs)
{
    setNote(QString());
    int maxK = 0;
    for (int r = 0; r < runs.size(); ++r) {
        const RunSeries& run = runs.at(r);
        const auto& its = run.iterations();
        QVector<double> x, k, inertia;
        for (const IterationStats& s : its) {
            x << s.iteration;
            k << s.k;
            inertia << s.inertia;
        }
        const QColor colour = clusterColor(r);
        QCPGraph* curve = addGraph();
        curve->setName(run.name());
        curve->setPen(QPen(colour, 2));
        curve->setData(x, inertia, true);
        m_runInertia.push_back(curve);
        QCPGraph* steps = addGraph(xAxis, yAxis2);
        steps->setPen(QPen(colour, 1, Qt::DotLine));
        steps->setLineStyle(QCPGraph::lsStepLeft);
        steps->setData(x, k, true);
        steps->removeFromLegend();  // the run's colour is named once, by its inertia curve
        maxK = std::max(maxK, run.maxK());
    }
    setTitle(runs.size() == 0 ? tr("Inertia per iteration: no runs")
                              : tr("Inertia (solid) and k (dotted steps) per iteration: %1 runs").arg(runs.size()));
    if (rescaleUnlessZoomed() && maxK > 0) {
        yAxis->setRangeLower(0);
        yAxis2->setRange(0, maxK * 1.1 + 1);
    }
}

QString EvolutionPlot::csv() const
{
    if (m_runs && m_runs->size() == 1) return sizesCsv(m_runs->at(0));
    if (m_runs) return inertiaPerRunCsv(*m_runs);
    return "iteration,round,k,inertia\n";
}

QString EvolutionPlot::sizesCsv(const RunSeries& run) const
{
    QString out = "iteration,round,k,inertia";
    const int bands = run.maxK();
    for (int c = 0; c < bands; ++c) out += QString(",size_%1").arg(c);
    out += ",event\n";
    for (const IterationStats& s : run.iterations()) {
        out += QString("%1,%2,%3,%4").arg(s.iteration).arg(s.round).arg(s.k).arg(s.inertia, 0, 'g', 12);
        for (int c = 0; c < bands; ++c)
            out += "," + QString::number(static_cast<std::size_t>(c) < s.sizes.size() ? s.sizes[static_cast<std::size_t>(c)] : 0);
        out += "," + QString::fromStdString(s.event) + "\n";
    }
    return out;
}

QString EvolutionPlot::inertiaPerRunCsv(const RunSet& runs) const
{
    QString out = "run,iteration,round,k,inertia,event\n";
    for (int r = 0; r < runs.size(); ++r)
        for (const IterationStats& s : runs.at(r).iterations())
            out += runs.at(r).name()
                   + QString(",%1,%2,%3,%4,").arg(s.iteration).arg(s.round).arg(s.k).arg(s.inertia, 0, 'g', 12)
                   + QString::fromStdString(s.event) + "\n";
    return out;
}

}  // namespace clusterdesk::ui
