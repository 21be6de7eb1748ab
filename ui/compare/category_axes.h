// The axes both comparison charts share: topologies as named categories along x (one
// slot each, at 0, 1, 2, ...) and a logarithmic value axis, because a comparison spans
// one CPU thread to 64 GPUs: two to four orders of magnitude.
#pragma once

#include <qcustomplot.h>

#include <QStringList>

namespace clusterdesk::ui {

// Names the slots 0..n-1 along x after the topologies, labels turned so long
// spellings ("model:h200x8:nodes=4") stay readable.
void setCategoryAxis(QCPAxis* axis, const QStringList& names);
// A log10 axis over [low, high] widened to whole decades. Bars on it keep their base at
// 0: QCustomPlot draws a bar from base to base + value, so a base at the axis bottom
// would lift every top by that much; 0 lies below any log axis and is clipped there,
// so the bars still rise from the bottom.
void setLogAxis(QCPAxis* axis, double low, double high);
// The bottom of a log axis for values down to `low`: the decade below.
double logFloor(double low);

}  // namespace clusterdesk::ui
