#include "run_status.h"

#include "run_series.h"
#include "units.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>

namespace clusterdesk::ui {

RunStatus::RunStatus(QWidget* parent)
    : QWidget(parent)
{
    setObjectName("runStatus");
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_label = new QLabel(tr("Ready"), this);
    m_label->setObjectName("runStatusText");
    m_bar = new QProgressBar(this);
    m_bar->setObjectName("runProgress");
    m_bar->setMaximumWidth(220);
    m_bar->setTextVisible(false);
    m_bar->setRange(0, 1);
    m_bar->setValue(0);
    layout->addWidget(m_label);
    layout->addWidget(m_bar);
}

void RunStatus::startClock(const QString& starting)
{
    m_start = std::chrono::steady_clock::now();
    m_starting = starting;
    m_bar->setRange(0, 0);  // busy: no iteration count yet
    m_label->setText(tr("%1... %2 s").arg(m_starting).arg(0.0, 0, 'f', 1));
}

QString RunStatus::text() const
{
    return m_label->text();
}

void RunStatus::refresh(const RunSeries& model, bool adaptGrow)
{
    const auto& its = model.iterations();
    const int n = static_cast<int>(its.size());
    if (model.finished()) {
        const RunOutcome& o = model.outcome();
        // Empty again once the run is over: the label says how it ended.
        m_bar->setRange(0, 1);
        m_bar->setValue(0);
        if (!o.error.isEmpty()) m_label->setText(tr("Run failed"));
        else
            m_label->setText(tr("%1 after %2 iterations in %3: k=%4, inertia %5")
                                 .arg(o.cancelled ? tr("Cancelled") : (o.converged ? tr("Converged") : tr("Stopped at max iterations")))
                                 .arg(o.iterations)
                                 .arg(formatSeconds(o.seconds))
                                 .arg(o.k)
                                 .arg(o.inertia, 0, 'g', 6));
        return;
    }
    if (!model.running()) return;
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - m_start).count();
    if (n == 0) {
        m_bar->setRange(0, 0);  // busy: initialisation has no iteration count yet
        m_label->setText(tr("%1... %2 s").arg(m_starting).arg(elapsed, 0, 'f', 1));
        return;
    }
    if (adaptGrow) {
        // Rounds go on until no split is above the noise edge: no honest total to show.
        m_bar->setRange(0, 0);
        m_label->setText(tr("Iteration %1, round %2, k=%3, %4 s (AdaptGrow: ends when no split is above the noise edge)")
                             .arg(n)
                             .arg(its.back().round)
                             .arg(its.back().k)
                             .arg(elapsed, 0, 'f', 1));
        return;
    }
    double iterationMs = 0;
    for (const IterationStats& s : its) iterationMs += s.assignMs + s.updateMs + s.reduceMs;
    iterationMs /= n;
    const int left = std::max(0, model.maxIterations() - n);
    m_bar->setRange(0, model.maxIterations());
    m_bar->setValue(n);
    m_label->setText(tr("Iteration %1 of at most %2, %3 s, ETA at most %4 s")
                         .arg(n)
                         .arg(model.maxIterations())
                         .arg(elapsed, 0, 'f', 1)
                         .arg(left * iterationMs / 1000.0, 0, 'f', 1));
}

}  // namespace clusterdesk::ui
