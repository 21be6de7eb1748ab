#include "live_history.h"
#include "live_plot.h"

namespace clusterdesk::ui {

LivePowerPlot::LivePowerPlot(const LiveHistory& history, QWidget* parent)
    : LivePlot(history, parent)
{
    setObjectName("livePowerPlot");
    setTitle(tr("Live: energy and power per update"));
    xAxis->setLabel(tr("time since start (s)"));
    yAxis->setLabel(tr("energy (J)"));
    yAxis2->setVisible(true);
    yAxis2->setLabel(tr("mean power (W)"));
    // One stem per update at the time it arrived, on the same time axis as the others.
    QCPGraph* energy = addGraph(xAxis, yAxis);
    energy->setName(tr("energy of the update's run"));
    energy->setLineStyle(QCPGraph::lsImpulse);
    energy->setPen(QPen(QColor(240, 160, 60), 2));
    QCPGraph* watts = addGraph(xAxis, yAxis2);
    watts->setName(tr("mean power (right axis)"));
    // Dots, no line: a noisy series drawn as a wide zigzag line cost a redraw 70 ms.
    watts->setPen(QPen(QColor(200, 30, 30)));
    watts->setLineStyle(QCPGraph::lsNone);
    watts->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, 4));
    placeLegendBelow(2);
}

void LivePowerPlot::draw()
{
    graph(0)->data()->clear();
    graph(1)->data()->clear();
    for (const LivePoint& p : m_history.points()) {
        graph(0)->addData(p.seconds, p.energyJ);
        graph(1)->addData(p.seconds, p.watts);
    }
    if (rescaleUnlessZoomed()) {
        // Headroom, so the highest stem's dot is drawn whole, not cut by the frame.
        yAxis->setRangeLower(0);
        leaveHeadroom(yAxis);
        yAxis2->setRangeLower(0);
        leaveHeadroom(yAxis2);
    }
    replot(QCustomPlot::rpQueuedReplot);
}

QString LivePowerPlot::csv() const
{
    QString out = QStringLiteral("update,seconds,energy_j,mean_w\n");
    for (const LivePoint& p : m_history.points())
        out += QStringLiteral("%1,%2,%3,%4\n").arg(p.update).arg(p.seconds).arg(p.energyJ).arg(p.watts);
    return out;
}

}  // namespace clusterdesk::ui
