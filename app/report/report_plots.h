// A recorded run's graphs as the window draws them (the same ui plots, replayed from
// the record), rendered off screen for a report: as SVG text for HTML and as a QPicture
// (vector) for the PDF.
#pragma once

#include "engine/data/dataset.h"
#include "engine/store/run_store.h"

#include <QByteArray>
#include <QPicture>
#include <QSize>
#include <QString>

#include <vector>

namespace clusterdesk::report {

struct RenderedPlot {
    QString name;      // "clusters", "evolution", "latency", "power"
    QString title;     // as the graph shows it
    QByteArray svg;    // one <svg> element, no XML prologue
    QPicture picture;  // the same drawing, for the PDF
};

// The size every report graph is drawn at, in logical pixels: wide enough for its title
// and legend. Documents scale it to their width (an A4 page holds about 620).
inline const QSize kReportPlotSize(820, 440);

// Clusters (only when data is given: the projection needs the rows), Evolution,
// Latency and Power. Needs a QApplication (the graphs are widgets, never shown).
std::vector<RenderedPlot> renderRunPlots(const store::RunRecord& record, const Dataset* data);

}  // namespace clusterdesk::report
