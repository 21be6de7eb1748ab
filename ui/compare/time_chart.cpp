#include "time_chart.h"

#include "category_axes.h"

#include "engine/whatif/performance_model.h"

#include <algorithm>
#include <limits>

namespace clusterdesk::ui {
namespace {

constexpr double kBarWidth = 0.38;

QCPBars* makeBars(QCustomPlot* plot, const QString& name, const QColor& colour)
{
    auto* bars = new QCPBars(plot->xAxis, plot->yAxis);
    bars->setName(name);
    bars->setWidth(kBarWidth);
    bars->setPen(QPen(colour.darker(130)));
    bars->setBrush(colour);
    return bars;
}

QCPErrorBars* makeBand(QCPBars* bars, const QString& name)
{
    auto* band = new QCPErrorBars(bars->keyAxis(), bars->valueAxis());
    band->setName(name);
    band->setDataPlottable(bars);
    band->setPen(QPen(QColor(60, 60, 60), 1.2));
    band->setWhiskerWidth(8);
    return band;
}

}  // namespace

TimeChart::TimeChart(QWidget* parent)
    : PlotView(parent)
{
    setObjectName("compareTimeChart");
    setTitle(tr("Time per iteration by topology"));
    xAxis->setLabel(tr("topology"));
    yAxis->setLabel(tr("time per iteration (ms, log scale)"));
    m_measured = makeBars(this, tr("measured"), QColor(31, 119, 180));
    m_predicted = makeBars(this, tr("model calibrated without it (leave-one-out)"), QColor(174, 199, 232));
    m_modeled = makeBars(this, tr("modeled"), QColor(255, 127, 14));
    m_predictedBand = makeBand(m_predicted, tr("model ±25%"));
    m_modeledBand = makeBand(m_modeled, QString());
    m_modeledBand->removeFromLegend();  // one band entry says it for both
    // In the decade of headroom setRows leaves above the tallest bar.
    axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignRight);
    setRows({});
}

void TimeChart::setRows(const std::vector<CompareRow>& rows)
{
    m_rows = rows;
    QStringList names;
    QVector<double> mKeys, mValues, pKeys, pValues, oKeys, oValues;
    double low = std::numeric_limits<double>::max(), high = 0;
    const auto seen = [&](double v) {
        low = std::min(low, v * (1 - whatif::kModelTolerance));
        high = std::max(high, v * (1 + whatif::kModelTolerance));
    };
    for (const CompareRow& row : m_rows) {
        const double slot = names.size();
        names << row.topology;
        if (!row.ok() || row.msPerIteration <= 0) continue;
        seen(row.msPerIteration);
        if (!row.measured) {
            oKeys << slot;
            oValues << row.msPerIteration;
            continue;
        }
        // Measured and its prediction side by side in the topology's slot.
        mKeys << slot - kBarWidth / 2;
        mValues << row.msPerIteration;
        if (row.predictedMs && *row.predictedMs > 0) {
            pKeys << slot + kBarWidth / 2;
            pValues << *row.predictedMs;
            seen(*row.predictedMs);
        }
    }
    if (high <= 0) low = 0.1, high = 10;
    setCategoryAxis(xAxis, names);
    setLogAxis(yAxis, low, high * 10);  // a decade of headroom: the legend sits there
    m_measured->setData(mKeys, mValues, true);
    m_predicted->setData(pKeys, pValues, true);
    m_modeled->setData(oKeys, oValues, true);
    const auto band = [](const QVector<double>& v) {
        QVector<double> e;
        for (double x : v) e << x * whatif::kModelTolerance;
        return e;
    };
    m_predictedBand->setData(band(pValues));
    m_modeledBand->setData(band(oValues));
    replot(QCustomPlot::rpQueuedReplot);
}

int TimeChart::barCount() const
{
    return m_measured->dataCount() + m_predicted->dataCount() + m_modeled->dataCount();
}

QString TimeChart::csv() const
{
    QString out = "topology,kind,ms_per_iteration,model_ms_per_iteration\n";
    for (const CompareRow& row : m_rows) {
        if (!row.ok()) continue;
        out += QString("%1,%2,%3,%4\n")
                   .arg(row.topology, row.measured ? "measured" : "modeled")
                   .arg(row.msPerIteration, 0, 'g', 6)
                   .arg(row.predictedMs ? QString::number(*row.predictedMs, 'g', 6) : QString());
    }
    return out;
}

}  // namespace clusterdesk::ui
