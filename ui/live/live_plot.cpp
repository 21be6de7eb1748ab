#include "live_plot.h"

namespace clusterdesk::ui {

LivePlot::LivePlot(const LiveHistory& history, QWidget* parent)
    : PlotView(parent)
    , m_history(history)
{
}

}  // namespace clusterdesk::ui
