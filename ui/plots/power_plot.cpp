#include "power_plot.h"

#include "../units.h"

#include "../run_set.h"
#include "cluster_palette.h"

namespace clusterdesk::ui {
namespace {

// A run's samples as one line per device, and the energy they integrate to.
struct PowerTraces {
    std::vector<QVector<double>> seconds, watts;  // per device
    double joules = 0;
};

PowerTraces tracesOf(const RunSeries& run)
{
    const int deviceCount = static_cast<int>(run.powerDevices().size());
    PowerTraces traces;
    traces.seconds.resize(static_cast<std::size_t>(deviceCount));
    traces.watts.resize(static_cast<std::size_t>(deviceCount));
    // Trapezoids between consecutive samples of a device: the energy so far.
    for (const PowerSample& s : run.powerSamples()) {
        if (s.device < 0 || s.device >= deviceCount) continue;
        auto& x = traces.seconds[static_cast<std::size_t>(s.device)];
        auto& w = traces.watts[static_cast<std::size_t>(s.device)];
        if (!x.isEmpty()) traces.joules += 0.5 * (w.back() + s.watts) * (s.seconds - x.back());
        x.push_back(s.seconds);
        w.push_back(s.watts);
    }
    return traces;
}

// What a run used: the outcome's summary once it finished well, else what the samples
// integrate to so far; and the points it clustered per joule.
struct RunEnergy {
    double joules = 0;
    double pointsPerJoule = 0;
    QString source;
};

RunEnergy energyOf(const RunSeries& run, double integratedJoules)
{
    const RunOutcome& outcome = run.outcome();
    const bool done = run.finished() && outcome.error.isEmpty();
    // A stored run recorded without a summary has none to name.
    const bool summarised = done && outcome.power.energyJ > 0;
    RunEnergy energy;
    energy.joules = summarised ? outcome.power.energyJ : integratedJoules;
    const int iterations = done ? outcome.iterations : static_cast<int>(run.iterations().size());
    // As the CLI's points_per_joule: rows visited (rows x iterations) per joule.
    energy.pointsPerJoule = energy.joules > 0 ? static_cast<double>(run.rows()) * iterations / energy.joules : 0;
    energy.source = summarised ? QString::fromStdString(outcome.power.energySource)
                               : (done ? QObject::tr("integrated from the samples") : QObject::tr("so far"));
    return energy;
}

}  // namespace

PowerPlot::PowerPlot(QWidget* parent)
    : PlotView(parent)
{
    setObjectName("powerPlot");
    setTitle(tr("Power per device"));
    xAxis->setLabel(tr("time since the run started (s)"));
    yAxis->setLabel(tr("power (W)"));
    axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignBottom | Qt::AlignRight);
}

void PowerPlot::refresh(const RunSet& runs)
{
    m_runs = &runs;
    // With several runs each line is named and coloured by its run, then its device.
    const bool several = runs.size() > 1;
    int lines = 0;
    bool anySamples = false;
    QStringList energies;
    RunEnergy selected;
    for (int r = 0; r < runs.size(); ++r) {
        const RunSeries& run = runs.at(r);
        const QStringList& devices = run.powerDevices();
        const PowerTraces traces = tracesOf(run);
        for (int d = 0; d < devices.size(); ++d, ++lines) {
            QCPGraph* g = lines < graphCount() ? graph(lines) : addGraph();
            g->setName(several ? run.name() + ": " + devices[d] : devices[d]);
            const QColor colour = several ? clusterColor(r).darker(100 + 40 * d) : clusterColor(d * 3 + 1);
            g->setPen(QPen(colour, 2, devices[d].contains("estimated") ? Qt::DashLine : Qt::SolidLine));
            g->setLineStyle(QCPGraph::lsLine);
            g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, 4));
            g->setData(traces.seconds[static_cast<std::size_t>(d)], traces.watts[static_cast<std::size_t>(d)], true);
        }
        anySamples = anySamples || !run.powerSamples().empty();
        const RunEnergy energy = energyOf(run, traces.joules);
        if (!devices.isEmpty()) energies << tr("%1 %2 (%3)").arg(run.name(), formatJoules(energy.joules), energy.source);
        if (&run == runs.selected()) selected = energy;
    }
    m_energyJ = selected.joules;
    m_pointsPerJoule = selected.pointsPerJoule;
    while (graphCount() > lines) removeGraph(graphCount() - 1);
    if (lines == 0) {
        setTitle(tr("Power per device: no samples yet"));
    } else if (several) {
        setTitle(tr("Power per device: %1").arg(energies.join(", ")));
    } else {
        setTitle(tr("Power per device: %1 (%2), %3 point-iterations per joule")
                     .arg(formatJoules(selected.joules))
                     .arg(selected.source)
                     .arg(selected.pointsPerJoule, 0, 'g', 4));
    }
    if (rescaleUnlessZoomed() && anySamples) yAxis->setRangeLower(0);
    replot(QCustomPlot::rpQueuedReplot);
}

QString PowerPlot::csv() const
{
    // One run: its samples; several: a leading run column.
    const bool several = m_runs && m_runs->size() > 1;
    QString out = QString(several ? "run," : "") + "seconds,device,watts,kind\n";
    if (!m_runs) return out;
    for (int r = 0; r < m_runs->size(); ++r) {
        const RunSeries& run = m_runs->at(r);
        const QStringList& devices = run.powerDevices();
        for (const PowerSample& s : run.powerSamples())
            out += (several ? run.name() + "," : QString())
                   + QString("%1,%2,%3,%4\n")
                         .arg(s.seconds, 0, 'f', 4)
                         .arg(s.device < devices.size() ? devices[s.device] : QString::number(s.device))
                         .arg(s.watts, 0, 'f', 3)
                         .arg(QString::fromStdString(toString(s.kind)));
    }
    return out;
}

}  // namespace clusterdesk::ui
