// One colour per cluster, the same in every graph: a qualitative palette for the first
// ten, then golden-angle hues with alternating lightness.
#pragma once

#include <QColor>

namespace clusterdesk::ui {

QColor clusterColor(int cluster);

}  // namespace clusterdesk::ui
