// Durations, energies and returns as a reader wants them: a 40 ms run is "40.2 ms",
// not "0.04 s" or "0.00", 3 mJ is "3.1 mJ", not "0.0 J", and a return of 0.000458 per
// period is "0.046 %". Display only: tables sort and exports write the plain numbers.
// One definition for every front end (the CLI's run summary and reports here, the
// window through ui/units.h).
#pragma once

#include <string>

namespace clusterdesk {

std::string formatSeconds(double seconds);  // "812 µs", "40.2 ms", "3.47 s", "12 min 5 s"
std::string formatJoules(double joules);    // "3.1 mJ", "12.4 J", "1.52 kJ"
std::string formatPercent(double fraction); // 0.000458 -> "0.046 %", -0.0146 -> "-1.460 %"

}  // namespace clusterdesk
