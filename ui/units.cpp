#include "units.h"

#include <cmath>

namespace clusterdesk::ui {
namespace {

// Three significant digits in the unit that keeps the number between 1 and 1000.
QString scaled(double value, const char* const units[], const double factors[], int count)
{
    for (int i = 0; i < count; ++i) {
        const double v = value / factors[i];
        if (std::fabs(v) < 1000 || i == count - 1) return QString::number(v, 'g', std::fabs(v) >= 100 ? 4 : 3) + " " + units[i];
    }
    return {};
}

}  // namespace

QString formatSeconds(double seconds)
{
    if (seconds >= 60) {
        const auto whole = static_cast<long long>(std::llround(seconds));
        return QString("%1 min %2 s").arg(whole / 60).arg(whole % 60);
    }
    static const char* const units[] = {"µs", "ms", "s"};
    static const double factors[] = {1e-6, 1e-3, 1};
    if (seconds <= 0) return QStringLiteral("0 s");
    return scaled(seconds, seconds < 1e-3 ? units : seconds < 1 ? units + 1 : units + 2,
                  seconds < 1e-3 ? factors : seconds < 1 ? factors + 1 : factors + 2, seconds < 1e-3 ? 3 : seconds < 1 ? 2 : 1);
}

QString formatJoules(double joules)
{
    static const char* const units[] = {"mJ", "J", "kJ", "MJ"};
    static const double factors[] = {1e-3, 1, 1e3, 1e6};
    if (joules <= 0) return QStringLiteral("0 J");
    const int first = joules < 1 ? 0 : 1;
    return scaled(joules, units + first, factors + first, 4 - first);
}

}  // namespace clusterdesk::ui
