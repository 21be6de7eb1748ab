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

}  // namespace clusterdesk::ui
