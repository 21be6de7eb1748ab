#include "units.h"

#include <cmath>
#include <cstdio>

namespace clusterdesk {
namespace {

// Three significant digits (four from 100) in the unit that keeps the number below
// 1000, or the last unit.
std::string scaled(double value, const char* const units[], const double factors[], int count)
{
    for (int i = 0; i < count; ++i) {
        const double v = value / factors[i];
        if (std::fabs(v) < 1000 || i == count - 1) {
            char text[64];
            std::snprintf(text, sizeof text, "%.*g %s", std::fabs(v) >= 100 ? 4 : 3, v, units[i]);
            return text;
        }
    }
    return {};
}

}  // namespace

std::string formatSeconds(double seconds)
{
    if (seconds >= 60) {
        const auto whole = static_cast<long long>(std::llround(seconds));
        return std::to_string(whole / 60) + " min " + std::to_string(whole % 60) + " s";
    }
    static const char* const units[] = {"µs", "ms", "s"};
    static const double factors[] = {1e-6, 1e-3, 1};
    if (seconds <= 0) return "0 s";
    const int first = seconds < 1e-3 ? 0 : seconds < 1 ? 1 : 2;
    return scaled(seconds, units + first, factors + first, 3 - first);
}

std::string formatJoules(double joules)
{
    static const char* const units[] = {"mJ", "J", "kJ", "MJ"};
    static const double factors[] = {1e-3, 1, 1e3, 1e6};
    if (joules <= 0) return "0 J";
    const int first = joules < 1 ? 0 : 1;
    return scaled(joules, units + first, factors + first, 4 - first);
}

std::string formatPercent(double fraction)
{
    // Fixed decimals, not significant digits: a column of returns lines up, and a
    // return near zero reads as "0.000 %" rather than in exponent notation.
    char text[64];
    std::snprintf(text, sizeof text, "%.3f %%", 100 * fraction);
    return text;
}

}  // namespace clusterdesk
