#include "energy_chart.h"

#include "category_axes.h"

#include <algorithm>
#include <limits>

namespace clusterdesk::ui {
namespace {

// Measured in shades of blue, anything else in warm colours: an estimate must not look
// like a reading.
QColor colourOf(const QString& source)
{
    if (source == "measured") return QColor(31, 119, 180);
    if (source == "mixed") return QColor(148, 103, 189);
    if (source == "estimated") return QColor(255, 187, 120);
    return QColor(255, 127, 14);  // modeled
}

QString legendOf(const QString& source)
{
    if (source == "measured") return QObject::tr("measured (NVML/RAPL)");
    if (source == "mixed") return QObject::tr("mixed measured and estimated");
    if (source == "estimated") return QObject::tr("estimated (utilisation x TDP)");
    if (source == "modeled") return QObject::tr("modeled");
    return source;
}

}  // namespace

EnergyChart::EnergyChart(QWidget* parent)
    : PlotView(parent)
{
    setObjectName("compareEnergyChart");
    setTitle(tr("Energy per run by topology"));
    xAxis->setLabel(tr("topology"));
    yAxis->setLabel(tr("energy per run (J, log scale)"));
    // In the decade of headroom setRows leaves above the tallest bar.
    axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignLeft);
    setRows({});
}

QCPBars* EnergyChart::barsFor(const QString& source)
{
    auto it = m_bars.find(source);
    if (it != m_bars.end()) return it->second;
    auto* bars = new QCPBars(xAxis, yAxis);
    bars->setName(legendOf(source));
    bars->setWidth(0.6);
    bars->setPen(QPen(colourOf(source).darker(130)));
    bars->setBrush(colourOf(source));
    return m_bars[source] = bars;
}

void EnergyChart::setRows(const std::vector<CompareRow>& rows)
{
    m_rows = rows;
    QStringList names;
    std::map<QString, std::pair<QVector<double>, QVector<double>>> bySource;
    double low = std::numeric_limits<double>::max(), high = 0;
    for (const CompareRow& row : m_rows) {
        const double slot = names.size();
        names << row.topology;
        if (!row.ok() || row.energyJ <= 0) continue;
        auto& [keys, values] = bySource[row.energySource.isEmpty() ? QString("modeled") : row.energySource];
        keys << slot;
        values << row.energyJ;
        low = std::min(low, row.energyJ);
        high = std::max(high, row.energyJ);
    }
    if (high <= 0) low = 1, high = 100;
    setCategoryAxis(xAxis, names);
    setLogAxis(yAxis, low, high * 10);  // a decade of headroom: the legend sits there
    for (auto& [source, bars] : m_bars) bars->data()->clear();
    for (auto& [source, data] : bySource) barsFor(source)->setData(data.first, data.second, true);
    // Only the sources this comparison has are named in the legend.
    for (auto& [source, bars] : m_bars) {
        bars->removeFromLegend();
        if (bars->dataCount() > 0) bars->addToLegend();
    }
    replot(QCustomPlot::rpQueuedReplot);
}

int EnergyChart::barCount() const
{
    int count = 0;
    for (const auto& [source, bars] : m_bars) count += bars->dataCount();
    return count;
}

QString EnergyChart::csv() const
{
    QString out = "topology,energy_j,energy_source\n";
    for (const CompareRow& row : m_rows)
        if (row.ok()) out += QString("%1,%2,%3\n").arg(row.topology).arg(row.energyJ, 0, 'g', 6).arg(row.energySource);
    return out;
}

}  // namespace clusterdesk::ui
