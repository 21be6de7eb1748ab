// The Live tab: the session started from the Data panel's Live feed, as it goes. On
// top, the drift alert (hidden until one fires) and a line with the newest update;
// below, the evolution of cluster sizes with events, latency with the ingest rate,
// energy per update, and the membership with recent movers.
#pragma once

#include "live_history.h"

#include <QWidget>

class QLabel;

namespace clusterdesk::ui {

class LiveEvolutionPlot;
class LiveLatencyPlot;
class LiveMembersView;
class LivePowerPlot;

class LiveView : public QWidget {
    Q_OBJECT
public:
    explicit LiveView(QWidget* parent = nullptr);

    LiveHistory& history() { return m_history; }
    // Redraws everything from the history (the caller paces it).
    void refresh();

    LiveEvolutionPlot& evolution() { return *m_evolution; }
    LiveLatencyPlot& latency() { return *m_latency; }
    LivePowerPlot& power() { return *m_power; }
    LiveMembersView& members() { return *m_members; }
    QLabel& driftAlert() { return *m_drift; }
    QLabel& summary() { return *m_summary; }

private:
    LiveHistory m_history;
    QLabel* m_drift = nullptr;
    QLabel* m_summary = nullptr;
    LiveEvolutionPlot* m_evolution = nullptr;
    LiveLatencyPlot* m_latency = nullptr;
    LivePowerPlot* m_power = nullptr;
    LiveMembersView* m_members = nullptr;
};

}  // namespace clusterdesk::ui
