// Evolution: rows per cluster at every iteration as stacked bands (AdaptGrow rounds
// add bands as clusters split), with k and inertia on the right; iterations where
// clusters split or merged are marked with what happened.
#pragma once

#include "plot_view.h"

namespace clusterdesk::ui {

class EvolutionPlot : public PlotView {
    Q_OBJECT
public:
    explicit EvolutionPlot(QWidget* parent = nullptr);

    void refresh(const RunModel& model) override;
    QString csv() const override;

    // The stacked band of cluster c (its top edge: rows in clusters 0..c), k and inertia.
    QCPGraph* sizeBand(int c) const;
    int sizeBandCount() const { return static_cast<int>(m_bands.size()); }
    QCPGraph* kGraph() const { return m_k; }
    QCPGraph* inertiaGraph() const { return m_inertia; }
    int eventMarkCount() const { return m_eventMarks; }

private:
    const RunModel* m_model = nullptr;
    QCPAxis* m_inertiaAxis = nullptr;
    std::vector<QCPGraph*> m_bands;
    QCPGraph* m_k = nullptr;
    QCPGraph* m_inertia = nullptr;
    int m_eventMarks = 0;
};

}  // namespace clusterdesk::ui
