// Power: watts over time per device, each series labelled measured or estimated, with
// the run's energy in joules and the points clustered per joule. Several runs side by
// side: every run's devices, named "run: device", and each run's energy in the title.
#pragma once

#include "plot_view.h"

namespace clusterdesk::ui {

class PowerPlot : public PlotView {
    Q_OBJECT
public:
    explicit PowerPlot(QWidget* parent = nullptr);

    void refresh(const RunSet& runs) override;
    QString csv() const override;

    // Of the selected run: joules of the whole run once it finished; while it runs,
    // integrated so far.
    double energyJoules() const { return m_energyJ; }
    double pointsPerJoule() const { return m_pointsPerJoule; }

private:
    const RunSet* m_runs = nullptr;
    double m_energyJ = 0;
    double m_pointsPerJoule = 0;
};

}  // namespace clusterdesk::ui
