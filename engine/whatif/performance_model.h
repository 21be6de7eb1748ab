// The what-if performance model: a job's time, energy and cost on a placement, per
// iteration and per phase, and its calibration from measured runs.
//
// Per Lloyd iteration, on the slowest shard (rows / shards of them):
//   assign    roofline: 2·rows·k·d·searched FLOPs at the device's peak times an
//             efficiency, or the rows' bytes at its memory bandwidth, whichever is slower
//   update    memory-bound: the rows and their labels read once
//   reduce    the all-reduce of k·(d+1) 64-bit sums over the slowest link level:
//             latency·⌈log2 S⌉ (a tree's rounds) + 2(S−1)/S·bytes / bandwidth (a ring's)
//   transfer  GPUs: the centroids down and the sums up over the host link
// Per run: initialisation and the final labels (one assignment each), AdaptGrow's split
// passes (2-means inside every cluster), the rows' upload to GPUs, and a fixed start-up
// cost per kind of communicator (starting MPI ranks is seconds, threads are not).
//
// Calibration fits the efficiencies, the latency of each link that measured runs used,
// and the start-up costs from those runs; what nothing measured keeps its default, and
// the parameters say which runs they were fitted on.
#pragma once

#include "job_profile.h"
#include "placement.h"

#include <map>
#include <string>
#include <vector>

namespace clusterdesk::whatif {

inline constexpr const char* kModelVersion = "clusterdesk-whatif-1";
// The model is expected within this fraction of a measured time per iteration (DESIGN:
// measured beside modeled, with the model's error); tests/bench/whatif_model.py holds it
// to that, the CLI's table and the window's Compare tab mark a prediction beyond it.
inline constexpr double kModelTolerance = 0.25;

// A prediction against the measured time: its error as a fraction of the measured time
// (+0.27 is 27 % slower than measured), and whether that misses kModelTolerance.
struct PredictionError {
    double fraction = 0;
    bool missed = false;
};
inline PredictionError predictionError(double measuredMs, double predictedMs)
{
    const double fraction = predictedMs / measuredMs - 1;
    return {fraction, fraction > kModelTolerance || fraction < -kModelTolerance};
}

struct ModelParameters {
    // Fractions of the FP32 (GPU fast mode: the precision's) peak the assignment reaches,
    // indexed by mode (0 fast, 1 exact).
    double cpuCompute[2] = {0.20, 0.18};
    // CPU shards that share cores (more shards than cores) compute and update at this
    // multiple of the efficiencies here: time slicing, cache sharing and smaller working sets do not
    // cancel out, and measured runs say by how much.
    double cpuSharedCoreFactor = 1;
    double gpuCompute[2] = {0.60, 0.25};
    // Fractions of the memory bandwidth the update reaches.
    double cpuMemory = 0.5;
    double gpuMemory = 0.7;
    std::map<std::string, double> linkLatencyUs;  // link id -> fitted latency per ring step (else the catalog's)
    std::map<std::string, double> startupS;       // "cpu threads", "gpu nccl", ... -> fixed seconds per run
    std::vector<std::string> fittedOn;            // the runs calibration used (their ids, or topologies when not recorded)
    std::vector<std::string> fitted;              // which parameters they set ("cpu exact compute", "link threads", ...)
};

struct PhaseTimes {
    double assignMs = 0, updateMs = 0, reduceMs = 0, transferMs = 0;
    double total() const { return assignMs + updateMs + reduceMs + transferMs; }
    // "assign (compute)", "assign (memory)", "update", "reduce", "transfer": the largest.
    std::string bottleneck;
};

struct Prediction {
    PhaseTimes perIteration;     // mean over the job's iterations
    double msPerIteration = 0;
    int iterations = 0;
    double totalS = 0;           // iterations and the per-run costs
    double watts = 0;            // mean draw of the devices used
    double energyJ = 0;
    double costUsd = 0;
    double memoryNeededGiB = 0;  // per device
    bool fitsInMemory = true;
};

Prediction predict(const JobProfile& job, const Placement& where, const ModelParameters& params);

// One measured run as calibration reads it: rank 0's phases in a typical iteration
// (medians over the iterations, so one the OS stalled does not count).
struct Observation {
    std::string runId;
    JobProfile job;
    Placement where;
    double assignMs = 0, updateMs = 0, reduceMs = 0;
    double secondsTotal = 0;
};

// Observation of a finished run's history.
Observation observe(const std::string& runId, const JobProfile& job, const Placement& where,
                    const std::vector<IterationStats>& history, double secondsTotal);

// Starts from `defaults` and fits what the observations measure.
ModelParameters calibrate(const std::vector<Observation>& observations, const ModelParameters& defaults = {});

// The parameters as JSON text (what a comparison records and the CLI prints).
std::string parametersJson(const ModelParameters& params);

}  // namespace clusterdesk::whatif
