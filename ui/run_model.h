// What the window knows about the current dataset and run: the iterations reported so
// far, the power samples, the projection of the points and the final outcome. Fed by
// the glue through queued signals (UI thread only); the plots read it when they redraw.
#pragma once

#include "engine/cluster/params.h"
#include "engine/telemetry/power_sampler.h"

#include <QMetaType>
#include <QObject>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <vector>

namespace clusterdesk::ui {

// The points on their first two principal components: a deterministic sample of at
// most a few thousand rows (all rows when there are fewer), so a 1,000,000-row run
// never ships its rows to the UI thread.
struct ClusterProjection {
    std::vector<double> x, y;              // one per sampled row
    std::vector<int> cluster;              // its cluster
    std::vector<std::int64_t> row;         // its row in the dataset
    QStringList names;                     // its row name (asset), or empty
    std::vector<double> centroidX, centroidY;
    double explained[2] = {0, 0};          // fraction of variance on PC1 and PC2
    std::int64_t totalRows = 0;
};

// How a run ended.
struct RunOutcome {
    bool cancelled = false;
    bool converged = false;
    int k = 0;
    int iterations = 0;
    double inertia = 0;
    double seconds = 0;
    std::vector<std::int64_t> sizes;
    PowerSummary power;
    QString backend;
    QString error;  // non-empty when the run failed
};

// Power readings since the last batch, with the device names they index.
struct PowerBatch {
    std::vector<PowerSample> samples;
    QStringList devices;  // "cpu package 0 (estimated)"
};

class RunModel : public QObject {
    Q_OBJECT
public:
    explicit RunModel(QObject* parent = nullptr);

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

Q_DECLARE_METATYPE(clusterdesk::IterationStats)
Q_DECLARE_METATYPE(clusterdesk::ui::ClusterProjection)
Q_DECLARE_METATYPE(clusterdesk::ui::RunOutcome)
Q_DECLARE_METATYPE(clusterdesk::ui::PowerBatch)
