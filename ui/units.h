// Durations and energies as a reader wants them: a 40 ms run is "40.2 ms", not
// "0.04 s" or "0.00", and 3 mJ is "3.1 mJ", not "0.0 J". Display only: tables sort
// and exports write the plain numbers.
#pragma once

#include <QString>

namespace clusterdesk::ui {

QString formatSeconds(double seconds);  // "812 µs", "40.2 ms", "3.47 s", "12 min 5 s"
QString formatJoules(double joules);    // "3.1 mJ", "12.4 J", "1.52 kJ"

}  // namespace clusterdesk::ui
