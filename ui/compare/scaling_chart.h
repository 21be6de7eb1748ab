// "Predicted scaling": the model's time per iteration of the compared job on 1 to 64
// GPUs of one kind (1, 2, 4, 8 in a node, then nodes of 8), on log axes, with the
// assign and reduce phases beside the total, and a marker where the all-reduce starts
// to take longer than the assignment: from there more GPUs mostly add communication.
#pragma once

#include "ui/plots/plot_view.h"

#include <vector>

namespace clusterdesk::ui {

struct ScalingPoint {
    int gpus = 1;
    QString topology;       // "model:h200x8:nodes=2"
    double msPerIteration = 0;
    double assignMs = 0;
    double reduceMs = 0;
};

class ScalingChart : public PlotView {
    Q_OBJECT
public:
    explicit ScalingChart(QWidget* parent = nullptr);

    // device: what the GPUs are ("h200"); points in increasing GPU count; empty: cleared.
    void setPoints(const QString& device, const std::vector<ScalingPoint>& points);
    // The comparison's model predictions are handed in by setPoints, not read from the window's runs.
    void refresh(const RunSet&) override {}
    QString csv() const override;
    // The fewest GPUs at which reduce exceeds assign; 0 when it never does up to the last point.
    int communicationDominatesFrom() const { return m_dominatesFrom; }
    int pointCount() const { return static_cast<int>(m_points.size()); }

private:
    std::vector<ScalingPoint> m_points;
    QCPGraph* m_total = nullptr;
    QCPGraph* m_assign = nullptr;
    QCPGraph* m_reduce = nullptr;
    QCPItemStraightLine* m_marker = nullptr;
    int m_dominatesFrom = 0;
};

}  // namespace clusterdesk::ui
