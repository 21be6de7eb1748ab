#include "live_history.h"
#include "live_plot.h"

#include "../plots/cluster_palette.h"

#include <set>

namespace clusterdesk::ui {

LiveEvolutionPlot::LiveEvolutionPlot(const LiveHistory& history, QWidget* parent)
    : LivePlot(history, parent)
{
    setObjectName("liveEvolutionPlot");
    setTitle(tr("Live: cluster sizes over time (events marked)"));
    xAxis->setLabel(tr("time since start (s)"));
    yAxis->setLabel(tr("assets in cluster"));
    placeLegendBelow(5);
}

void LiveEvolutionPlot::draw()
{
    clearGraphs();
    clearItems();
    const std::vector<LivePoint>& points = m_history.points();
    std::set<int> ids;
    for (const LivePoint& p : points)
        for (const auto& [id, size] : p.sizes) ids.insert(id);
    for (int id : ids) {
        QCPGraph* g = addGraph();
        g->setName(tr("cluster %1").arg(id));
        g->setPen(QPen(clusterColor(id), 1.6));
        for (const LivePoint& p : points) {
            const auto size = p.sizes.find(id);
            // A cluster that does not exist at an update has no point there (a gap).
            g->addData(p.seconds, size == p.sizes.end() ? qQNaN() : size->second);
        }
    }
    for (const LivePoint& p : points) {
        if (p.events.isEmpty()) continue;
        auto* line = new QCPItemStraightLine(this);
        line->point1->setCoords(p.seconds, 0);
        line->point2->setCoords(p.seconds, 1);
        line->setPen(QPen(QColor(120, 120, 120), 1, Qt::DashLine));
        auto* label = new QCPItemText(this);
        label->setText(p.events);
        label->setColor(QColor(80, 80, 80));
        label->setRotation(-90);
        label->setPositionAlignment(Qt::AlignRight | Qt::AlignBottom);
        label->position->setTypeX(QCPItemPosition::ptPlotCoords);
        label->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
        label->position->setCoords(p.seconds, 0.02);
    }
    if (rescaleUnlessZoomed()) yAxis->setRangeLower(0);
    replot(QCustomPlot::rpQueuedReplot);
}

QString LiveEvolutionPlot::csv() const
{
    QString out = QStringLiteral("update,seconds,cluster,assets,events\n");
    for (const LivePoint& p : m_history.points())
        for (const auto& [id, size] : p.sizes)
            out += QStringLiteral("%1,%2,%3,%4,\"%5\"\n").arg(p.update).arg(p.seconds).arg(id).arg(size).arg(p.events);
    return out;
}

}  // namespace clusterdesk::ui
