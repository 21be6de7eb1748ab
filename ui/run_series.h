// One run as the window shows it: its name in legends ("host", "pool:2", a run id),
// whether it runs or finished, the iterations reported so far, the power samples, the
// projection of the points and the final outcome. Fed through queued signals (UI
// thread only); the plots read it through the RunSet that holds it when they redraw.
#pragma once

#include "run_model.h"

#include <QObject>
#include <QString>

#include <cstdint>
#include <vector>

namespace clusterdesk::ui {

class RunSeries : public QObject {
    Q_OBJECT
public:
    // id: unique within its set; name: what legends call it.
    RunSeries(const QString& id, const QString& name, QObject* parent = nullptr);

    const QString& id() const { return m_id; }
    const QString& name() const { return m_name; }
    void setName(const QString& name);

    // A new run on rows x cols: clears everything from the previous one.
    void beginRun(std::int64_t rows, int maxIterations);
    void addIteration(const IterationStats& stats);
    void addPower(const PowerBatch& batch);
    void setProjection(const ClusterProjection& projection);
    void finish(const RunOutcome& outcome);

    bool running() const { return m_running; }
    bool finished() const { return m_finished; }
    std::int64_t rows() const { return m_rows; }
    int maxIterations() const { return m_maxIterations; }
    const std::vector<IterationStats>& iterations() const { return m_iterations; }
    const std::vector<PowerSample>& powerSamples() const { return m_power; }
    const QStringList& powerDevices() const { return m_powerDevices; }
    const ClusterProjection& projection() const { return m_projection; }
    // Changes whenever the projection does, so a plot redraws it only then.
    int projectionVersion() const { return m_projectionVersion; }
    const RunOutcome& outcome() const { return m_outcome; }
    // Largest k seen in any iteration (the number of bands in the evolution plot).
    int maxK() const { return m_maxK; }

signals:
    void changed();  // something new to draw; the window coalesces these to screen rate
    void runFinished();

private:
    QString m_id;
    QString m_name;
    std::int64_t m_rows = 0;
    int m_maxIterations = 0;
    bool m_running = false;
    bool m_finished = false;
    int m_maxK = 0;
    std::vector<IterationStats> m_iterations;
    std::vector<PowerSample> m_power;
    QStringList m_powerDevices;
    ClusterProjection m_projection;
    int m_projectionVersion = 0;
    RunOutcome m_outcome;
};

}  // namespace clusterdesk::ui
