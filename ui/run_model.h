// What a run reports to the window, as values that cross threads in queued signals:
// the projection of the points, power batches and the final outcome. A RunSeries
// (run_series.h) collects them for one run; a RunSet (run_set.h) holds the runs shown.
#pragma once

#include "engine/cluster/params.h"
#include "engine/telemetry/power_sampler.h"

#include <QMetaType>
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
    std::vector<std::int64_t> clusterRows; // rows per cluster in the whole dataset, not the sample
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
    GrowthLog growth;  // AdaptGrow: its split and merge tests and why it stopped
};

// Power readings since the last batch, with the device names they index.
struct PowerBatch {
    std::vector<PowerSample> samples;
    QStringList devices;  // "cpu package 0 (estimated)"
};

}  // namespace clusterdesk::ui

Q_DECLARE_METATYPE(clusterdesk::IterationStats)
Q_DECLARE_METATYPE(clusterdesk::ui::ClusterProjection)
Q_DECLARE_METATYPE(clusterdesk::ui::RunOutcome)
Q_DECLARE_METATYPE(clusterdesk::ui::PowerBatch)
