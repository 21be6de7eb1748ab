// The report as PDF through Qt's own text engine: the Pdf-target HTML laid out by a
// QTextDocument, its graph placeholders drawn as vector pictures, printed to a
// QPdfWriter (A4, page numbers from QTextDocument::print).
#pragma once

#include "report_plots.h"

#include <QByteArray>
#include <QString>

#include <vector>

namespace clusterdesk::report {

// html: reportHtml(..., ReportTarget::Pdf); plots: every run's graphs in order, as the
// placeholders number them.
QByteArray reportPdf(const QString& html, const QString& title, const std::vector<const RenderedPlot*>& plots);

}  // namespace clusterdesk::report
