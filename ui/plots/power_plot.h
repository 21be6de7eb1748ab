// Power: watts over time per device, each series labelled measured or estimated, with
// the run's energy in joules and the points clustered per joule.
#pragma once

#include "plot_view.h"

namespace clusterdesk::ui {

class PowerPlot : public PlotView {
    Q_OBJECT
public:
    explicit PowerPlot(QWidget* parent = nullptr);

    void refresh(const RunModel& model) override;
    QString csv() const override;

    // Joules of the whole run once it finished; while it runs, integrated so far.
    double energyJoules() const { return m_energyJ; }
    double pointsPerJoule() const { return m_pointsPerJoule; }

private:
    const RunModel* m_model = nullptr;
    double m_energyJ = 0;
    double m_pointsPerJoule = 0;
};

}  // namespace clusterdesk::ui
