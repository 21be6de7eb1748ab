#include "live_view.h"

#include "live_members_view.h"
#include "live_plot.h"

#include <QLabel>
#include <QSplitter>
#include <QVBoxLayout>

namespace clusterdesk::ui {

LiveView::LiveView(QWidget* parent)
    : QWidget(parent)
{
    setObjectName("liveView");
    m_drift = new QLabel(this);
    m_drift->setObjectName("driftAlert");
    m_drift->setStyleSheet("QLabel { background: #c0392b; color: white; font-weight: bold; padding: 4px; }");
    m_drift->setWordWrap(true);
    m_drift->hide();
    m_summary = new QLabel(tr("No live session yet: start one from the Data panel's Live feed."), this);
    m_summary->setObjectName("liveSummary");

    m_evolution = new LiveEvolutionPlot(m_history);
    m_latency = new LiveLatencyPlot(m_history);
    m_power = new LivePowerPlot(m_history);
    m_members = new LiveMembersView(m_history);
    auto* graphs = new QSplitter(Qt::Vertical);
    graphs->addWidget(m_evolution);
    graphs->addWidget(m_latency);
    graphs->addWidget(m_power);
    graphs->setStretchFactor(0, 3);
    graphs->setStretchFactor(1, 2);
    graphs->setStretchFactor(2, 2);
    auto* split = new QSplitter(Qt::Horizontal);
    split->addWidget(graphs);
    split->addWidget(m_members);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    split->setSizes({900, 340});

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_drift);
    layout->addWidget(m_summary);
    layout->addWidget(split, 1);
}

void LiveView::refresh()
{
    if (!m_history.empty()) {
        const LivePoint& p = m_history.points().back();
        QString text = tr("Update %1 at %2 s: k = %3, %4 moved; latency %5 ms (p50 %6, p99 %7, p99.9 %8); "
                          "%9 messages/s")
                           .arg(p.update)
                           .arg(p.seconds, 0, 'f', 1)
                           .arg(p.k)
                           .arg(p.moved == 1 ? tr("1 asset") : tr("%1 assets").arg(p.moved))
                           .arg(p.latencyMs, 0, 'f', 2)
                           .arg(p.p50, 0, 'f', 2)
                           .arg(p.p99, 0, 'f', 2)
                           .arg(p.p999, 0, 'f', 2)
                           .arg(p.ingestRate, 0, 'f', 0);
        if (p.ari) text += tr("; ARI against the feed's sectors %1").arg(*p.ari, 0, 'f', 3);
        // A window across a gap still clusters (its return is scaled to one bar), but the
        // quant should know the picture skipped time.
        if (m_history.missingBars() > 0)
            text += tr("; %1 bars without any tick this session (a quiet feed or a reconnect)").arg(m_history.missingBars());
        m_summary->setText(text);
    }
    m_drift->setVisible(m_history.driftUpdate() > 0);
    if (m_history.driftUpdate() > 0)
        m_drift->setText(tr("Drift alert at update %1: %2").arg(m_history.driftUpdate()).arg(m_history.drift()));
    m_evolution->draw();
    m_latency->draw();
    m_power->draw();
    m_members->draw();
}

}  // namespace clusterdesk::ui
