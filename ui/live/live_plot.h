// The graphs of a live session. They draw the session's LiveHistory, not runs: the
// RunSet that the window passes to every graph is not theirs, so refresh() only
// redraws from the history they were given.
#pragma once

#include "../plots/plot_view.h"

namespace clusterdesk::ui {

class LiveHistory;

class LivePlot : public PlotView {
    Q_OBJECT
public:
    LivePlot(const LiveHistory& history, QWidget* parent);

    void refresh(const RunSet&) override { draw(); }
    virtual void draw() = 0;

protected:
    const LiveHistory& m_history;
};

// Cluster sizes over wall time, one line per stable cluster id, with every update that
// had births, deaths, splits or merges marked by a labelled vertical line.
class LiveEvolutionPlot : public LivePlot {
    Q_OBJECT
public:
    LiveEvolutionPlot(const LiveHistory& history, QWidget* parent = nullptr);
    void draw() override;
    QString csv() const override;
};

// Receive-to-published latency per update, the running p50, p99 and p99.9, and the
// feed's ingest rate on the right axis.
class LiveLatencyPlot : public LivePlot {
    Q_OBJECT
public:
    LiveLatencyPlot(const LiveHistory& history, QWidget* parent = nullptr);
    void draw() override;
    QString csv() const override;
};

// Energy of each update's run (a stem at the time it arrived, left axis) and the mean
// power it drew (right axis).
class LivePowerPlot : public LivePlot {
    Q_OBJECT
public:
    LivePowerPlot(const LiveHistory& history, QWidget* parent = nullptr);
    void draw() override;
    QString csv() const override;
};

}  // namespace clusterdesk::ui
