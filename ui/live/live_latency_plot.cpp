#include "live_history.h"
#include "live_plot.h"

namespace clusterdesk::ui {

LiveLatencyPlot::LiveLatencyPlot(const LiveHistory& history, QWidget* parent)
    : LivePlot(history, parent)
{
    setObjectName("liveLatencyPlot");
    setTitle(tr("Live: receive-to-published latency per update"));
    xAxis->setLabel(tr("time since start (s)"));
    yAxis->setLabel(tr("latency (ms)"));
    yAxis2->setVisible(true);
    yAxis2->setLabel(tr("messages/s"));  // the legend names it: the ingest rate
    struct Line {
        const char* name;
        QColor colour;
        Qt::PenStyle style;
    };
    const Line lines[] = {{"update", QColor(70, 130, 180), Qt::SolidLine},
                          {"p50", QColor(60, 60, 60), Qt::DashLine},
                          {"p99", QColor(170, 60, 170), Qt::DashLine},
                          {"p99.9", QColor(200, 30, 30), Qt::DashLine}};
    for (const Line& line : lines) {
        QCPGraph* g = addGraph();
        g->setName(line.name == QStringLiteral("update") ? tr("latency of the update") : tr("%1 so far").arg(line.name));
        g->setPen(QPen(line.colour, 1.4, line.style));
    }
    // Each update's latency as dots: drawn as a wide zigzag line it made the redraw slow.
    graph(0)->setLineStyle(QCPGraph::lsNone);
    graph(0)->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, 4));
    QCPGraph* rate = addGraph(xAxis, yAxis2);
    rate->setName(tr("ingest rate (right axis)"));
    rate->setPen(QPen(QColor(120, 180, 90), 1.2));
    placeLegendBelow(3);  // five long names: two rows fit a narrow window
}

void LiveLatencyPlot::draw()
{
    for (int i = 0; i < graphCount(); ++i) graph(i)->data()->clear();
    for (const LivePoint& p : m_history.points()) {
        const double values[] = {p.latencyMs, p.p50, p.p99, p.p999, p.ingestRate};
        for (int i = 0; i < 5; ++i) graph(i)->addData(p.seconds, values[i]);
    }
    if (rescaleUnlessZoomed()) {
        yAxis->setRangeLower(0);
        leaveHeadroom(yAxis);
        yAxis2->rescale();
        yAxis2->setRangeLower(0);
        leaveHeadroom(yAxis2);
    }
    replot(QCustomPlot::rpQueuedReplot);
}

QString LiveLatencyPlot::csv() const
{
    QString out = QStringLiteral("update,seconds,latency_ms,p50_ms,p99_ms,p999_ms,ingest_messages_per_s\n");
    for (const LivePoint& p : m_history.points())
        out += QStringLiteral("%1,%2,%3,%4,%5,%6,%7\n")
                   .arg(p.update)
                   .arg(p.seconds)
                   .arg(p.latencyMs)
                   .arg(p.p50)
                   .arg(p.p99)
                   .arg(p.p999)
                   .arg(p.ingestRate);
    return out;
}

}  // namespace clusterdesk::ui
