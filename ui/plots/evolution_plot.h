// Evolution: for one run, rows per cluster at every iteration as stacked bands
// (AdaptGrow rounds add bands as clusters split), with k and inertia on the right;
// iterations where clusters split or merged are marked with what happened, the end of
// AdaptGrow's growth too, and under the title why it stopped (growth_note.h). For several
// runs side by side, each run's inertia curve (left axis, one legend entry per run)
// and its k as steps of the same colour (right axis).
#pragma once

#include "plot_view.h"

namespace clusterdesk::ui {

class RunSeries;

class EvolutionPlot : public PlotView {
    Q_OBJECT
public:
    explicit EvolutionPlot(QWidget* parent = nullptr);

    void refresh(const RunSet& runs) override;
    QString csv() const override;

    // The stacked band of cluster c (its top edge: rows in clusters 0..c), k and inertia.
    QCPGraph* sizeBand(int c) const;
    int sizeBandCount() const { return static_cast<int>(m_bands.size()); }
    QCPGraph* kGraph() const { return m_k; }
    QCPGraph* inertiaGraph() const { return m_inertia; }
    int eventMarkCount() const { return m_eventMarks; }
    // With several runs: run i's inertia curve, named as the run.
    QCPGraph* runInertia(int i) const;
    int runInertiaCount() const { return static_cast<int>(m_runInertia.size()); }

private:
    void showSizes(bool sizes);
    void drawSizes(const RunSeries& run);
    void drawInertiaPerRun(const RunSet& runs);
    // A dotted vertical line at iteration x with its label (drawn to the left of the line
    // near the last iteration, so it stays inside).
    void addEventMark(double x, double lastIteration, const QString& text, const QColor& colour);
    QString sizesCsv(const RunSeries& run) const;
    QString inertiaPerRunCsv(const RunSet& runs) const;

    const RunSet* m_runs = nullptr;
    QCPAxis* m_inertiaAxis = nullptr;
    std::vector<QCPGraph*> m_bands;
    QCPGraph* m_k = nullptr;
    QCPGraph* m_inertia = nullptr;
    int m_eventMarks = 0;
    std::vector<QCPGraph*> m_runInertia;
};

}  // namespace clusterdesk::ui
