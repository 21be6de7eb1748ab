// Clusters: the selected run's points on their first two principal components, one
// colour per cluster, centroids marked; hovering a point names its row (or asset) and
// cluster. One run's points at a time: several would hide each other. Under the title,
// for an AdaptGrow run, why it stopped at its k (growth_note.h).
#pragma once

#include "plot_view.h"

#include <vector>

namespace clusterdesk::ui {

struct ClusterProjection;

class ClustersPlot : public PlotView {
    Q_OBJECT
public:
    explicit ClustersPlot(QWidget* parent = nullptr);

    void refresh(const RunSet& runs) override;
    QString csv() const override;

    // Points drawn (the projection's sample) and centroids drawn.
    int pointCount() const;
    int centroidCount() const;
    // Whether it shows "no run yet" instead of points.
    bool placeholderShown() const;

private:
    void showPointUnder(const QPoint& pos);
    void showPlaceholder(bool show);

    // The projection drawn: nothing, or the selected run's.
    const ClusterProjection& shown() const;

    const RunSet* m_runs = nullptr;
    // The run and projection last drawn, and whether other runs were beside it (the
    // title names the run then), so an unchanged picture is not redrawn.
    QString m_drawnRun;
    int m_drawnVersion = -1;
    bool m_drawnBeside = false;
    bool m_drawnFinished = false;
    QCPGraph* m_centroids = nullptr;
    QCPItemText* m_placeholder = nullptr;  // in the middle of the empty plot, until there are points
};

}  // namespace clusterdesk::ui
