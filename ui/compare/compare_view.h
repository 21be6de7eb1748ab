// The Compare tab: one job on several topologies ("what if"), measured here or
// predicted by the model. Pick topologies, Run; rows fill the table and the two charts
// as each topology finishes; Cancel stops the measured run in progress after its
// current iteration. It runs nothing itself: it asks through signals and shows what the
// glue (app/gui/compare_controller) hands it.
#pragma once

#include "compare_row.h"
#include "scaling_chart.h"

#include <QWidget>

#include <vector>

class QLabel;
class QPushButton;

namespace clusterdesk::ui {

class CompareTable;
class EnergyChart;
class ScalingChart;
class TimeChart;
class TopologyPicker;

class CompareView : public QWidget {
    Q_OBJECT
public:
    explicit CompareView(QWidget* parent = nullptr);

    TopologyPicker& picker() { return *m_picker; }
    CompareTable& table() { return *m_table; }
    TimeChart& timeChart() { return *m_time; }
    EnergyChart& energyChart() { return *m_energy; }
    ScalingChart& scalingChart() { return *m_scaling; }
    QPushButton* runButton() const { return m_run; }
    QPushButton* cancelButton() const { return m_cancel; }
    // The line under the buttons: what runs now, or how the last comparison ended.
    QString progressText() const;
    // The last error, empty when there is none.
    QString errorText() const;
    const std::vector<CompareRow>& rows() const { return m_rows; }
    bool running() const { return m_running; }

public slots:
    // A comparison of `count` topologies starts: the last one's results are cleared.
    void begin(int count);
    // The measured topology running now has completed `iteration` iterations.
    void showProgress(const QString& topology, int iteration);
    void addRow(const clusterdesk::ui::CompareRow& row);
    // The model's scaling curve for the compared job on `device` (calibrated on this
    // comparison's measured runs).
    void setScaling(const QString& device, const std::vector<clusterdesk::ui::ScalingPoint>& points);
    // The comparison ended (done or cancelled): `summary` says how.
    void finish(const QString& summary);
    // What went wrong (a bad spelling, no data, not recorded): shown until the next Run.
    void showError(const QString& message);

signals:
    void runRequested(const QStringList& topologies);
    void cancelRequested();

private:
    void setRunning(bool running);

    TopologyPicker* m_picker = nullptr;
    QPushButton* m_run = nullptr;
    QPushButton* m_cancel = nullptr;
    QLabel* m_progress = nullptr;
    QLabel* m_error = nullptr;
    CompareTable* m_table = nullptr;
    TimeChart* m_time = nullptr;
    EnergyChart* m_energy = nullptr;
    ScalingChart* m_scaling = nullptr;
    std::vector<CompareRow> m_rows;
    int m_count = 0;
    bool m_running = false;
};

}  // namespace clusterdesk::ui
