#include "power_plot.h"

#include "../run_model.h"
#include "cluster_palette.h"

namespace clusterdesk::ui {

PowerPlot::PowerPlot(QWidget* parent)
    : PlotView(parent)
{
    setObjectName("powerPlot");
    setTitle(tr("Power per device"));
    xAxis->setLabel(tr("time since the run started (s)"));
    yAxis->setLabel(tr("power (W)"));
    axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignBottom | Qt::AlignRight);
}

void PowerPlot::refresh(const RunModel& model)
{
    m_model = &model;
    const QStringList& devices = model.powerDevices();
    const auto& samples = model.powerSamples();
    const int deviceCount = static_cast<int>(devices.size());
    while (graphCount() > deviceCount) removeGraph(graphCount() - 1);
    std::vector<QVector<double>> xs(static_cast<std::size_t>(deviceCount)), ws(static_cast<std::size_t>(deviceCount));
    // Trapezoids between consecutive samples of a device: the energy so far.
    double joules = 0;
    for (const PowerSample& s : samples) {
        if (s.device < 0 || s.device >= deviceCount) continue;
        auto& x = xs[static_cast<std::size_t>(s.device)];
        auto& w = ws[static_cast<std::size_t>(s.device)];
        if (!x.isEmpty()) joules += 0.5 * (w.back() + s.watts) * (s.seconds - x.back());
        x.push_back(s.seconds);
        w.push_back(s.watts);
    }
    for (int d = 0; d < deviceCount; ++d) {
        QCPGraph* g = d < graphCount() ? graph(d) : addGraph();
        g->setName(devices[d]);
        g->setPen(QPen(clusterColor(d * 3 + 1), 2, devices[d].contains("estimated") ? Qt::DashLine : Qt::SolidLine));
        g->setLineStyle(QCPGraph::lsLine);
        g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, 4));
        g->setData(xs[static_cast<std::size_t>(d)], ws[static_cast<std::size_t>(d)], true);
    }
    const RunOutcome& outcome = model.outcome();
    const bool done = model.finished() && outcome.error.isEmpty();
    m_energyJ = done && outcome.power.energyJ > 0 ? outcome.power.energyJ : joules;
    const int iterations = done ? outcome.iterations : static_cast<int>(model.iterations().size());
    // As the CLI's points_per_joule: rows visited (rows x iterations) per joule.
    m_pointsPerJoule = m_energyJ > 0 ? static_cast<double>(model.rows()) * iterations / m_energyJ : 0;
    if (deviceCount == 0) {
        setTitle(tr("Power per device: no samples yet"));
    } else {
        const QString source = done ? QString::fromStdString(outcome.power.energySource) : tr("so far");
        setTitle(tr("Power per device: %1 J (%2), %3 points per joule")
                     .arg(m_energyJ, 0, 'f', 2)
                     .arg(source)
                     .arg(m_pointsPerJoule, 0, 'g', 4));
    }
    if (rescaleUnlessZoomed() && !samples.empty()) yAxis->setRangeLower(0);
    replot(QCustomPlot::rpQueuedReplot);
}

QString PowerPlot::csv() const
{
    QString out = "seconds,device,watts,kind\n";
    if (!m_model) return out;
    const QStringList& devices = m_model->powerDevices();
    for (const PowerSample& s : m_model->powerSamples())
        out += QString("%1,%2,%3,%4\n")
                   .arg(s.seconds, 0, 'f', 4)
                   .arg(s.device < devices.size() ? devices[s.device] : QString::number(s.device))
                   .arg(s.watts, 0, 'f', 3)
                   .arg(QString::fromStdString(toString(s.kind)));
    return out;
}

}  // namespace clusterdesk::ui
