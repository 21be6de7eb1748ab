#include "cluster_palette.h"

#include <cmath>

namespace clusterdesk::ui {

QColor clusterColor(int cluster)
{
    // The first ten: a qualitative palette whose neighbours are easy to tell apart.
    static const QColor kFirst[] = {{31, 119, 180}, {255, 127, 14}, {44, 160, 44},  {214, 39, 40},  {148, 103, 189},
                                    {140, 86, 75},  {227, 119, 194}, {127, 127, 127}, {188, 189, 34}, {23, 190, 207}};
    if (cluster >= 0 && cluster < 10) return kFirst[cluster];
    constexpr double kGoldenAngle = 137.508;
    const double hue = std::fmod(cluster * kGoldenAngle, 360.0);
    const int lightness = (cluster % 3 == 0) ? 120 : (cluster % 3 == 1 ? 150 : 95);
    return QColor::fromHsl(static_cast<int>(hue), 170, lightness);
}

}  // namespace clusterdesk::ui
