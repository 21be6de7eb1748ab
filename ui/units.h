// engine/core/units.h for the window: durations, energies and returns as a reader wants
// them ("40.2 ms", not "0.04 s"; "3.1 mJ", not "0.0 J"; "0.046 %"), as QStrings.
#pragma once

#include <QString>

namespace clusterdesk::ui {

QString formatSeconds(double seconds);  // "812 µs", "40.2 ms", "3.47 s", "12 min 5 s"
QString formatJoules(double joules);    // "3.1 mJ", "12.4 J", "1.52 kJ"
QString formatPercent(double fraction); // 0.000458 -> "0.046 %"

}  // namespace clusterdesk::ui
