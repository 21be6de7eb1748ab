#include "report_plots.h"

#include "app/gui/cluster_projection.h"
#include "app/gui/stored_run.h"
#include "ui/plots/clusters_plot.h"
#include "ui/plots/evolution_plot.h"
#include "ui/plots/latency_plot.h"
#include "ui/plots/power_plot.h"
#include "ui/run_set.h"

#include <QBuffer>
#include <QRegularExpression>
#include <QSvgGenerator>

#include <memory>

namespace clusterdesk::report {
namespace {

// Rows drawn in a report's Clusters graph: every cluster's shape shows, and the graph
// (an SVG element, a PDF drawing) stays small; its title says how many were drawn.
constexpr std::size_t kReportProjectedPoints = 2000;

RenderedPlot render(ui::PlotView& plot, const ui::RunSet& runs, const QString& name)
{
    plot.resize(kReportPlotSize);
    plot.refresh(runs);
    RenderedPlot out;
    out.name = name;
    out.title = plot.title();
    QBuffer buffer(&out.svg);
    buffer.open(QIODevice::WriteOnly);
    QSvgGenerator generator;
    generator.setOutputDevice(&buffer);
    generator.setSize(kReportPlotSize);
    generator.setViewBox(QRect(QPoint(0, 0), kReportPlotSize));
    generator.setTitle(out.title);
    plot.paint(generator, kReportPlotSize.width(), kReportPlotSize.height());
    // Inline in HTML: the element only, without the XML prologue, as wide as the page
    // allows (the generator sizes it in millimetres at its own resolution).
    const qsizetype start = out.svg.indexOf("<svg");
    if (start > 0) out.svg.remove(0, start);
    const QString svg = QString::fromUtf8(out.svg).replace(QRegularExpression("^<svg width=\"[^\"]*\" height=\"[^\"]*\""),
                                                           QString("<svg width=\"100%\" style=\"max-width: %1px; height: auto\"").arg(kReportPlotSize.width()));
    out.svg = svg.toUtf8();
    plot.paint(out.picture, kReportPlotSize.width(), kReportPlotSize.height());
    return out;
}

}  // namespace

std::vector<RenderedPlot> renderRunPlots(const store::RunRecord& record, const Dataset* data)
{
    std::optional<ui::ClusterProjection> projection;
    if (data && !record.labels.empty()) {
        ClusterResult result;
        result.k = record.k;
        result.cols = record.cols;
        result.centroids = record.centroids;
        result.labels = record.labels;
        projection = gui::projectClusters(*data, result, kReportProjectedPoints);
    }
    ui::RunSet runs;
    gui::replayRun(runs.add(QString::fromStdString(record.info.id), QString::fromStdString(record.info.id).left(8)), record, projection);

    std::vector<RenderedPlot> plots;
    if (projection) {
        ui::ClustersPlot clusters;
        plots.push_back(render(clusters, runs, "clusters"));
    }
    ui::EvolutionPlot evolution;
    plots.push_back(render(evolution, runs, "evolution"));
    ui::LatencyPlot latency;
    plots.push_back(render(latency, runs, "latency"));
    ui::PowerPlot power;
    plots.push_back(render(power, runs, "power"));
    return plots;
}

}  // namespace clusterdesk::report
