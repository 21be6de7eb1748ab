#include "scaling_chart.h"

#include "category_axes.h"

#include <algorithm>
#include <limits>

namespace clusterdesk::ui {
namespace {

QCPGraph* makeLine(QCustomPlot* plot, const QString& name, const QColor& colour, Qt::PenStyle style)
{
    QCPGraph* graph = plot->addGraph();
    graph->setName(name);
    graph->setPen(QPen(colour, 2, style));
    graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, colour, Qt::white, 6));
    return graph;
}

}  // namespace

ScalingChart::ScalingChart(QWidget* parent)
    : PlotView(parent)
{
    setObjectName("compareScalingChart");
    setTitle(tr("Predicted scaling"));
    xAxis->setLabel(tr("GPUs (log scale)"));
    yAxis->setLabel(tr("time per iteration (ms, log scale)"));
    xAxis->setScaleType(QCPAxis::stLogarithmic);
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    for (int g = 1; g <= 64; g *= 2) ticker->addTick(g, QString::number(g));
    xAxis->setTicker(ticker);
    xAxis->setSubTicks(false);
    xAxis->setRange(0.8, 80);
    m_total = makeLine(this, tr("per iteration (model)"), QColor(255, 127, 14), Qt::SolidLine);
    m_assign = makeLine(this, tr("assign"), QColor(31, 119, 180), Qt::DashLine);
    m_reduce = makeLine(this, tr("reduce (all-reduce)"), QColor(44, 160, 44), Qt::DashLine);
    m_marker = new QCPItemStraightLine(this);
    m_marker->setPen(QPen(QColor(170, 30, 30), 1.5, Qt::DotLine));
    axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignRight);
    setPoints(QString(), {});
}

void ScalingChart::setPoints(const QString& device, const std::vector<ScalingPoint>& points)
{
    m_points = points;
    // A log axis has no zero: a phase that takes none (no all-reduce on one GPU) is
    // left out of its line rather than drawn from minus infinity.
    QVector<double> totalX, total, assignX, assign, reduceX, reduce;
    const auto add = [](QVector<double>& xs, QVector<double>& ys, double x, double y) {
        if (y > 0) xs << x, ys << y;
    };
    double low = std::numeric_limits<double>::max(), high = 0;
    m_dominatesFrom = 0;
    for (const ScalingPoint& p : m_points) {
        add(totalX, total, p.gpus, p.msPerIteration);
        add(assignX, assign, p.gpus, p.assignMs);
        add(reduceX, reduce, p.gpus, p.reduceMs);
        for (double v : {p.msPerIteration, p.assignMs, p.reduceMs})
            if (v > 0) low = std::min(low, v), high = std::max(high, v);
        if (!m_dominatesFrom && p.reduceMs > p.assignMs) m_dominatesFrom = p.gpus;
    }
    if (high <= 0) low = 0.001, high = 1;
    m_total->setData(totalX, total, true);
    m_assign->setData(assignX, assign, true);
    m_reduce->setData(reduceX, reduce, true);
    setLogAxis(yAxis, low, high * 10);  // a decade of headroom: the legend sits there
    // The dotted marker's meaning goes in the title (reduce takes longer than assign from
    // there): a label inside the axes would cross the lines.
    QString title = device.isEmpty() ? tr("Predicted scaling") : tr("Predicted scaling on %1").arg(device);
    if (m_dominatesFrom > 0) title += tr("\ncommunication dominates from %1 GPUs").arg(m_dominatesFrom);
    else if (!m_points.empty()) title += tr("\ncompute dominates up to %1 GPUs").arg(m_points.back().gpus);
    setTitle(title);
    m_marker->setVisible(m_dominatesFrom > 0);
    m_marker->point1->setCoords(m_dominatesFrom, 1);
    m_marker->point2->setCoords(m_dominatesFrom, 10);
    replot(QCustomPlot::rpQueuedReplot);
}

QString ScalingChart::csv() const
{
    QString out = "gpus,topology,ms_per_iteration,assign_ms,reduce_ms\n";
    for (const ScalingPoint& p : m_points)
        out += QString("%1,%2,%3,%4,%5\n")
                   .arg(p.gpus)
                   .arg(p.topology)
                   .arg(p.msPerIteration, 0, 'g', 6)
                   .arg(p.assignMs, 0, 'g', 6)
                   .arg(p.reduceMs, 0, 'g', 6);
    return out;
}

}  // namespace clusterdesk::ui
