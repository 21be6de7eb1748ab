// Clusters: the points on their first two principal components, one colour per
// cluster, centroids marked; hovering a point names its row (or asset) and cluster.
#pragma once

#include "plot_view.h"

#include <vector>

namespace clusterdesk::ui {

class ClustersPlot : public PlotView {
    Q_OBJECT
public:
    explicit ClustersPlot(QWidget* parent = nullptr);

    void refresh(const RunModel& model) override;
    QString csv() const override;

    // Points drawn (the projection's sample) and centroids drawn.
    int pointCount() const;
    int centroidCount() const;

private:
    void showPointUnder(const QPoint& pos);

    const RunModel* m_model = nullptr;
    int m_drawnVersion = -1;  // the projection last drawn, so an unchanged one is not redrawn
    QCPGraph* m_centroids = nullptr;
};

}  // namespace clusterdesk::ui
