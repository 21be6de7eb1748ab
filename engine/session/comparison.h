// A what-if comparison: one job (data and parameters) on a set of topologies. Those
// that exist here run for real, each through a RunSession (recorded like any run);
// the others (model:...) are predicted by the performance model calibrated on the
// measured ones. Every measured topology also gets the model's leave-one-out
// prediction (calibrated without it), so the model's error is always on show.
//
// Whether the answer changed: in exact mode every measured run must reproduce the
// first one's labels and centroids bit for bit; in fast mode each run's labels are
// scored (ARI) against an exact-mode reference run on the host, made first.
//
// The comparison is recorded in the store: its document (job, topologies, results, the
// model's version and parameters, the catalog's hash) with an edge from every run.
#pragma once

#include "engine/catalog/hardware_catalog.h"
#include "engine/exec/pool_launcher.h"
#include "engine/store/run_store.h"
#include "engine/whatif/performance_model.h"

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace clusterdesk::session {

struct ComparisonRequest {
    std::shared_ptr<const Dataset> data;
    KMeansParams params;
    std::vector<std::string> topologies;  // placement spellings (whatif/placement.h)
    PoolOptions pool;
    store::RunStore* store = nullptr;     // null: nothing recorded (and no calibration from history)
    HardwareCatalog catalog;
};

struct TopologyOutcome {
    std::string topology;
    bool measured = false;
    std::string status = "ok";          // "ok", "failed", "cancelled"
    std::string failure;
    std::string runId;
    double msPerIteration = 0;          // measured, or predicted
    whatif::PhaseTimes phases;          // measured (rank 0, per iteration), or predicted
    std::optional<double> predictedMsPerIteration;  // measured: leave-one-out prediction
    whatif::PhaseTimes predictedPhases;             // measured: the same, per phase
    int iterations = 0;
    double totalS = 0;
    double energyJ = 0;
    std::string energySource;           // "measured", "estimated", "mixed" or "modeled"
    double costUsd = 0;
    double pointsPerJoule = 0;          // rows x iterations per joule
    bool fitsInMemory = true;
    double memoryNeededGiB = 0;
    int devices = 1;                    // GPUs or sockets; shards for this machine
    double speedup = 0;                 // against the first topology, per iteration
    double efficiency = 0;              // against the first topology on the same device, per device (or core) added
    std::optional<bool> identical;      // exact mode, measured: labels and centroids equal the first run's
    std::optional<double> ari;          // fast mode, measured: against the exact reference
};

struct ComparisonResult {
    std::vector<TopologyOutcome> topologies;
    whatif::ModelParameters model;      // calibrated on every measured run
    std::string referenceRunId;         // fast mode: the exact reference run
    std::string comparisonId;           // in the store; empty when not recorded
    std::string recordProblem;          // why it is not recorded, empty when it is
    bool cancelled = false;
};

struct ComparisonControl {
    // Each measured topology as soon as its run ends, before the model has been fitted
    // (no prediction, speedup or efficiency yet): what a window shows while it waits.
    std::function<void(const TopologyOutcome&)> onMeasured;
    // Each topology complete, in the order given, once everything has run.
    std::function<void(const TopologyOutcome&)> onTopology;
    // Iterations of the measured run in progress.
    std::function<void(const std::string& topology, const IterationStats&)> onIteration;
    const std::atomic<bool>* cancel = nullptr;
};

// The comparison's document as recorded and as `whatif --json` prints it, and one
// topology's entry of it.
std::string comparisonJson(const ComparisonRequest& request, const ComparisonResult& result);
std::string outcomeJson(const TopologyOutcome& outcome);

// A job given by its shape alone (no data: "what would 1M x 256, k = 20,000 take on eight
// P100?"): modeled topologies only, with the model's defaults. UsageError for a
// topology that would run here.
std::vector<TopologyOutcome> predictShape(const whatif::JobProfile& job, const std::vector<std::string>& topologies,
                                          const HardwareCatalog& catalog);

// Places every topology first (UsageError naming a bad or repeated one: nothing runs then), then
// runs the measured ones in order and predicts the rest. A cancel stops the measured
// run in progress; what finished is kept, recorded and returned with cancelled set.
ComparisonResult runComparison(const ComparisonRequest& request, const ComparisonControl& control = {});

}  // namespace clusterdesk::session
