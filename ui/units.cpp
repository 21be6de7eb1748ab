#include "units.h"

#include "engine/core/units.h"

namespace clusterdesk::ui {

QString formatSeconds(double seconds)
{
    return QString::fromStdString(clusterdesk::formatSeconds(seconds));
}

QString formatJoules(double joules)
{
    return QString::fromStdString(clusterdesk::formatJoules(joules));
}

QString formatPercent(double fraction)
{
    return QString::fromStdString(clusterdesk::formatPercent(fraction));
}

}  // namespace clusterdesk::ui
