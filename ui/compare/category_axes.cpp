#include "category_axes.h"

#include <algorithm>
#include <cmath>

namespace clusterdesk::ui {

void setCategoryAxis(QCPAxis* axis, const QStringList& names)
{
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    for (int i = 0; i < names.size(); ++i) ticker->addTick(i, names[i]);
    axis->setTicker(ticker);
    // Turned up to the left, so each label ends at its tick: QCustomPlot drops a label
    // that would cross the widget's edge, and the last ones would to the right.
    axis->setTickLabelRotation(names.size() > 3 ? -30 : 0);
    axis->setSubTicks(false);
    axis->grid()->setZeroLinePen(Qt::NoPen);  // slot 0 is a topology, not a zero
    axis->setRange(-0.6, std::max<int>(1, static_cast<int>(names.size())) - 0.4);
}

double logFloor(double low)
{
    return std::pow(10.0, std::floor(std::log10(low > 0 ? low : 1e-3)));
}

void setLogAxis(QCPAxis* axis, double low, double high)
{
    axis->setScaleType(QCPAxis::stLogarithmic);
    auto ticker = QSharedPointer<QCPAxisTickerLog>::create();
    ticker->setLogBase(10);
    axis->setTicker(ticker);
    axis->setNumberFormat("gbc");
    axis->setNumberPrecision(3);
    const double bottom = logFloor(low);
    const double top = std::pow(10.0, std::ceil(std::log10(high > bottom ? high : bottom * 10)));
    axis->setRange(bottom, top > bottom ? top : bottom * 10);
}

}  // namespace clusterdesk::ui
