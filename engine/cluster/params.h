// What a clustering run is asked to do. This struct is also what the CLI parses and
// the store serialises, so every field has a default and says what it means.
#pragma once

#include "growth_log.h"
#include "kernels/kernel_types.h"

#include <cstdint>
#include <string>
#include <vector>

namespace clusterdesk {

enum class Algorithm { KMeans, AdaptGrow };
enum class InitMethod { KMeansPlusPlus, KMeansParallel, Given };

struct KMeansParams {
    Algorithm algorithm = Algorithm::KMeans;
    int k = 8;                      // clusters (k-means)
    int k0 = 2;                     // AdaptGrow: clusters to start from
    int kMax = 64;                  // AdaptGrow: never grow beyond this
    bool merge = true;              // AdaptGrow: also merge neighbour pairs that noise alone could separate
    InitMethod init = InitMethod::KMeansPlusPlus;
    std::vector<float> initialCentroids;  // k x cols, row-major, when init == Given
    int nInit = 1;                  // k-means: initialisations (seeds seed, seed+1, ...), the lowest inertia kept;
                                    // AdaptGrow: k-means restarts at the k it chose, competing with its partition
    int maxIterations = 100;        // Lloyd iterations per run (per round for AdaptGrow)
    double tolerance = 1e-4;        // stop when |inertia change| / inertia falls below this
    std::uint64_t seed = 1;         // every random choice derives from it
    kernels::Mode mode = kernels::Mode::Fast;
    kernels::Precision precision = kernels::Precision::FP32;
    int parallelRounds = 5;         // k-means||: oversampling rounds
    double oversampling = 2.0;      // k-means||: expected picks per round, as a multiple of k
    int splitIterations = 8;        // AdaptGrow: 2-means iterations inside each tested cluster
    int maxRounds = 32;             // AdaptGrow: split/merge rounds at most
};

std::string toString(Algorithm algorithm);
std::string toString(InitMethod init);

// One rank's (shard's) phase latencies in one iteration.
struct RankTiming {
    double assignMs = 0;
    double updateMs = 0;
    double reduceMs = 0;            // includes waiting for the slowest rank to arrive
};

// Per-iteration record, read by logs, graphs and the store.
struct IterationStats {
    int iteration = 0;              // counts across the whole run
    int round = 0;                  // AdaptGrow round (0 for k-means)
    int k = 0;
    double inertia = 0;             // sum of squared distances to the centroids the rows were assigned to
    std::vector<std::int64_t> sizes;  // rows per cluster
    double assignMs = 0;            // nearest-centroid pass
    double updateMs = 0;            // partial sums and new centroids
    double reduceMs = 0;            // all-reduce of the partial sums
    std::int64_t rowsSearched = 0;  // rows whose nearest centroid had to be searched (the rest were ruled out by bounds)
    std::string event;              // "split 3 of 8 clusters", "merged 2 pairs", or empty
    std::vector<RankTiming> ranks;  // every rank's phase latencies, in rank order (the fields above are rank 0's)
};

struct ClusterResult {
    int k = 0;
    std::int64_t cols = 0;
    std::vector<float> centroids;   // k x cols
    std::vector<std::int32_t> labels;  // one per row (rank 0 only in multi-rank runs)
    std::vector<std::int64_t> sizes;
    double inertia = 0;             // of the final centroids with their nearest-centroid labels
    int iterations = 0;
    double initMs = 0;              // fixed-point scales and initial centroids
    bool converged = false;
    bool cancelled = false;
    std::vector<IterationStats> history;
    GrowthLog growth;               // AdaptGrow: every split and merge test and why growth stopped
};

}  // namespace clusterdesk
