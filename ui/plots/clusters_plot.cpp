#include "clusters_plot.h"

#include "../run_set.h"
#include "cluster_palette.h"
#include "growth_note.h"

#include <QToolTip>

#include <algorithm>

namespace clusterdesk::ui {
namespace {

// Clusters shown by name in the legend; beyond this the colours speak for themselves.
constexpr int kLegendClusters = 10;

}  // namespace

ClustersPlot::ClustersPlot(QWidget* parent)
    : PlotView(parent)
{
    setObjectName("clustersPlot");
    setTitle(tr("Clusters on the first two principal components"));
    xAxis->setLabel(tr("PC1 (data units)"));
    yAxis->setLabel(tr("PC2 (data units)"));
    placeLegendBelow(6);  // the points fill the whole rectangle
    setMouseTracking(true);
    // Before any run: what to do, rather than empty axes from 0 to 5.
    m_placeholder = new QCPItemText(this);
    m_placeholder->position->setType(QCPItemPosition::ptAxisRectRatio);
    m_placeholder->position->setCoords(0.5, 0.5);
    m_placeholder->setText(tr("No clusters yet: load data and press Run"));
    QFont big = font();
    big.setPointSizeF(big.pointSizeF() * 1.3);
    m_placeholder->setFont(big);
    m_placeholder->setColor(Qt::darkGray);
    showPlaceholder(true);
    connect(this, &QCustomPlot::mouseMove, this, [this](QMouseEvent* event) { showPointUnder(event->pos()); });
}

bool ClustersPlot::placeholderShown() const
{
    return m_placeholder->visible();
}

void ClustersPlot::showPlaceholder(bool show)
{
    m_placeholder->setVisible(show);
    xAxis->setTickLabels(!show);
    yAxis->setTickLabels(!show);
}

const ClusterProjection& ClustersPlot::shown() const
{
    static const ClusterProjection kNothing;
    const RunSeries* run = m_runs ? m_runs->selected() : nullptr;
    return run ? run->projection() : kNothing;
}

void ClustersPlot::refresh(const RunSet& runs)
{
    m_runs = &runs;
    const RunSeries* run = runs.selected();
    const QString runId = run ? run->id() : QString();
    const int version = run ? run->projectionVersion() : -1;
    const bool beside = runs.size() > 1;
    const bool finished = run && run->finished();
    if (m_drawnRun == runId && m_drawnVersion == version && m_drawnBeside == beside && m_drawnFinished == finished) return;
    m_drawnRun = runId;
    m_drawnVersion = version;
    m_drawnBeside = beside;
    m_drawnFinished = finished;
    // Why this k, once the run has said (AdaptGrow).
    setNote(finished ? growthNote(run->outcome().growth) : QString());
    const ClusterProjection& p = shown();

    clearGraphs();
    m_centroids = nullptr;
    int clusters = static_cast<int>(p.centroidX.size());
    for (int c : p.cluster) clusters = std::max(clusters, c + 1);
    std::vector<QVector<double>> xs(static_cast<std::size_t>(clusters)), ys(static_cast<std::size_t>(clusters));
    for (std::size_t i = 0; i < p.x.size(); ++i) {
        xs[static_cast<std::size_t>(p.cluster[i])].push_back(p.x[i]);
        ys[static_cast<std::size_t>(p.cluster[i])].push_back(p.y[i]);
    }
    const double markerSize = p.x.size() > 2000 ? 3 : 6;
    for (int c = 0; c < clusters; ++c) {
        QCPGraph* g = addGraph();
        // The cluster's size in the dataset, not in the sample drawn (the title says how
        // many rows are drawn).
        const std::int64_t size = static_cast<std::size_t>(c) < p.clusterRows.size() ? p.clusterRows[static_cast<std::size_t>(c)]
                                                                                     : xs[static_cast<std::size_t>(c)].size();
        g->setName(tr("cluster %1 (%2)").arg(c).arg(size));
        g->setLineStyle(QCPGraph::lsNone);
        g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, clusterColor(c), markerSize));
        g->setData(xs[static_cast<std::size_t>(c)], ys[static_cast<std::size_t>(c)]);  // QCPGraph sorts by x
        g->setAdaptiveSampling(true);
        if (c >= kLegendClusters) g->removeFromLegend();
    }
    if (!p.centroidX.empty()) {
        m_centroids = addGraph();
        m_centroids->setName(tr("centroids (%1)").arg(p.centroidX.size()));
        m_centroids->setLineStyle(QCPGraph::lsNone);
        m_centroids->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCrossCircle, QPen(Qt::black, 2), Qt::white, 11));
        m_centroids->setData(QVector<double>(p.centroidX.begin(), p.centroidX.end()),
                             QVector<double>(p.centroidY.begin(), p.centroidY.end()));
    }
    showPlaceholder(p.x.empty());
    if (p.totalRows > 0) {
        // Beside other runs, the title says whose points these are.
        const QString whose = beside ? tr("Clusters of %1").arg(run->name()) : tr("Clusters");
        setTitle(whose
                 + tr(" on the first two principal components: %1 of %2 rows shown, %3% + %4% of the variance")
                       .arg(p.x.size())
                       .arg(p.totalRows)
                       .arg(100 * p.explained[0], 0, 'f', 1)
                       .arg(100 * p.explained[1], 0, 'f', 1));
    }
    if (rescaleUnlessZoomed()) {  // a margin, so points at the edges are whole
        xAxis->scaleRange(1.08);
        yAxis->scaleRange(1.08);
    }
    replot(QCustomPlot::rpQueuedReplot);
}

int ClustersPlot::pointCount() const
{
    int n = 0;
    for (int i = 0; i < graphCount(); ++i)
        if (graph(i) != m_centroids) n += graph(i)->dataCount();
    return n;
}

int ClustersPlot::centroidCount() const
{
    return m_centroids ? m_centroids->dataCount() : 0;
}

QString ClustersPlot::csv() const
{
    QString out = "pc1,pc2,cluster,row,name\n";
    const ClusterProjection& p = shown();
    for (std::size_t i = 0; i < p.x.size(); ++i) {
        const QString name = i < static_cast<std::size_t>(p.names.size()) ? p.names[static_cast<qsizetype>(i)] : QString();
        out += QString("%1,%2,%3,%4,%5\n").arg(p.x[i], 0, 'g', 9).arg(p.y[i], 0, 'g', 9).arg(p.cluster[i]).arg(p.row[i]).arg(name);
    }
    return out;
}

void ClustersPlot::showPointUnder(const QPoint& pos)
{
    const ClusterProjection& p = shown();
    constexpr double kPickPixels = 6;
    double best = kPickPixels * kPickPixels;
    std::size_t pick = p.x.size();
    for (std::size_t i = 0; i < p.x.size(); ++i) {
        const double dx = xAxis->coordToPixel(p.x[i]) - pos.x();
        const double dy = yAxis->coordToPixel(p.y[i]) - pos.y();
        if (dx * dx + dy * dy < best) {
            best = dx * dx + dy * dy;
            pick = i;
        }
    }
    if (pick == p.x.size()) {
        QToolTip::hideText();
        return;
    }
    const QString name = pick < static_cast<std::size_t>(p.names.size()) ? p.names[static_cast<qsizetype>(pick)] : QString();
    const QString what = name.isEmpty() ? tr("row %1").arg(p.row[pick] + 1) : tr("%1 (row %2)").arg(name).arg(p.row[pick] + 1);
    QToolTip::showText(mapToGlobal(pos), tr("%1\ncluster %2").arg(what).arg(p.cluster[pick]), this);
}

}  // namespace clusterdesk::ui
