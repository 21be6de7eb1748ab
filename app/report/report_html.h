// A report's document as HTML. One writer serves both outputs: the self-contained HTML
// file (graphs as inline SVG, the full membership table) and the HTML that Qt's text
// engine lays out into the PDF (graphs as placeholders that report_pdf.h swaps for
// vector drawings, membership as one paragraph per cluster, which pages quickly). The
// markup is well-formed XML as well as HTML, with no script and no external reference.
#pragma once

#include "report_plots.h"

#include "engine/report/report_content.h"

#include <QString>

#include <vector>

namespace clusterdesk::report {

enum class ReportTarget { Html, Pdf };

// plots[i]: the rendered graphs of content.runs[i]. In the Pdf target a graph is an
// <img src="plot:N"> where N indexes the graphs of all runs in order.
QString reportHtml(const ReportContent& content, const std::vector<std::vector<RenderedPlot>>& plots, ReportTarget target);

// The name a placeholder image carries for graph N, and N back from such a name (-1).
QString plotPlaceholder(int index);
int plotPlaceholderIndex(const QString& name);

}  // namespace clusterdesk::report
