#include "compare_view.h"

#include "compare_table.h"
#include "energy_chart.h"
#include "scaling_chart.h"
#include "time_chart.h"
#include "topology_picker.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

namespace clusterdesk::ui {

CompareView::CompareView(QWidget* parent)
    : QWidget(parent)
{
    setObjectName("compareView");
    m_picker = new TopologyPicker(this);
    m_run = new QPushButton(tr("Run comparison"), this);
    m_run->setObjectName("compareRun");
    m_run->setToolTip(tr("Runs the loaded data with the Engine panel's parameters on every checked topology"));
    m_cancel = new QPushButton(tr("Cancel"), this);
    m_cancel->setObjectName("compareCancel");
    m_progress = new QLabel(tr("Pick topologies and run: measured ones run here, modeled ones are predicted."), this);
    m_progress->setObjectName("compareProgress");
    m_progress->setWordWrap(true);
    m_error = new QLabel(this);
    m_error->setObjectName("compareError");
    m_error->setWordWrap(true);
    m_error->setStyleSheet("color: #aa1e1e;");
    m_error->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_error->hide();

    auto* side = new QWidget(this);
    auto* sideLayout = new QVBoxLayout(side);
    sideLayout->setContentsMargins(0, 0, 0, 0);
    sideLayout->addWidget(m_picker, 1);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_run);
    buttons->addWidget(m_cancel);
    sideLayout->addLayout(buttons);
    sideLayout->addWidget(m_progress);
    sideLayout->addWidget(m_error);
    side->setMaximumWidth(280);

    m_table = new CompareTable(this);
    m_time = new TimeChart(this);
    m_energy = new EnergyChart(this);
    m_scaling = new ScalingChart(this);
    // Equal thirds of the width, whatever each title asks for.
    auto* charts = new QWidget(this);
    auto* chartsLayout = new QHBoxLayout(charts);
    chartsLayout->setContentsMargins(0, 0, 0, 0);
    for (QWidget* chart : std::initializer_list<QWidget*>{m_time, m_energy, m_scaling}) {
        chart->setMinimumWidth(200);
        chartsLayout->addWidget(chart, 1);
    }
    // The table holds a handful of rows; the graphs get two thirds of the height.
    auto* results = new QWidget(this);
    auto* resultsLayout = new QVBoxLayout(results);
    resultsLayout->setContentsMargins(0, 0, 0, 0);
    resultsLayout->addWidget(m_table, 1);
    resultsLayout->addWidget(charts, 2);

    auto* layout = new QHBoxLayout(this);
    layout->addWidget(side);
    layout->addWidget(results, 1);

    connect(m_run, &QPushButton::clicked, this, [this] { emit runRequested(m_picker->topologies()); });
    connect(m_cancel, &QPushButton::clicked, this, [this] {
        m_progress->setText(tr("Cancelling after the current iteration..."));
        emit cancelRequested();
    });
    setRunning(false);
}

QString CompareView::progressText() const
{
    return m_progress->text();
}

QString CompareView::errorText() const
{
    return m_error->isHidden() ? QString() : m_error->text();
}

void CompareView::setRunning(bool running)
{
    m_running = running;
    m_run->setEnabled(!running);
    m_cancel->setEnabled(running);
    m_picker->setEnabled(!running);
}

void CompareView::begin(int count)
{
    m_count = count;
    m_rows.clear();
    m_table->clearRows();
    m_time->setRows(m_rows);
    m_energy->setRows(m_rows);
    m_scaling->setPoints(QString(), {});
    m_error->hide();
    m_progress->setText(tr("starting (%1 topologies)...").arg(count));
    setRunning(true);
}

void CompareView::showProgress(const QString& topology, int iteration)
{
    if (!m_running) return;  // a late report of a comparison already over
    m_progress->setText(tr("running %1 (%2 of %3), iteration %4...")
                            .arg(topology)
                            .arg(m_rows.size() + 1)
                            .arg(m_count)
                            .arg(iteration));
}

void CompareView::addRow(const CompareRow& row)
{
    // A topology reported again (complete after its preliminary row) replaces its row.
    for (std::size_t i = 0; i < m_rows.size(); ++i)
        if (m_rows[i].topology == row.topology) {
            m_rows[i] = row;
            m_table->setRow(static_cast<int>(i), row);
            m_time->setRows(m_rows);
            m_energy->setRows(m_rows);
            return;
        }
    m_rows.push_back(row);
    m_table->addRow(row);
    m_time->setRows(m_rows);
    m_energy->setRows(m_rows);
}

void CompareView::setScaling(const QString& device, const std::vector<ScalingPoint>& points)
{
    m_scaling->setPoints(device, points);
}

void CompareView::finish(const QString& summary)
{
    m_progress->setText(summary);
    setRunning(false);
}

void CompareView::showError(const QString& message)
{
    m_error->setText(message);
    m_error->show();
}

}  // namespace clusterdesk::ui
