// What the what-if model knows about a job: its shape, its numerical mode and, per
// Lloyd iteration, how many clusters there were and what share of the rows had to be
// searched (bounds rule out the rest). A recorded run gives the real trajectory; a job
// not yet run is planned from its parameters.
#pragma once

#include "engine/cluster/params.h"

#include <cstdint>
#include <string>
#include <vector>

namespace clusterdesk::whatif {

struct JobIteration {
    int k = 0;
    double searchedShare = 1;  // rows searched / rows
};

struct JobProfile {
    std::int64_t rows = 0, cols = 0;
    Algorithm algorithm = Algorithm::KMeans;
    kernels::Mode mode = kernels::Mode::Fast;
    kernels::Precision precision = kernels::Precision::FP32;
    std::vector<JobIteration> iterations;
    int splitRounds = 0;      // AdaptGrow rounds that tested splits
    int splitIterations = 8;  // 2-means iterations per tested cluster
    std::string basis;        // where the trajectory came from, for the reader

    double meanK() const;
};

// Planned from the parameters: k-means runs maxIterations at k with every row
// searched; AdaptGrow grows from k0 towards kMax, doubling each round.
JobProfile plannedProfile(const KMeansParams& params, std::int64_t rows, std::int64_t cols);
// From a finished run's iteration history; basis names the run.
JobProfile measuredProfile(const KMeansParams& params, std::int64_t rows, std::int64_t cols,
                           const std::vector<IterationStats>& history, const std::string& runId);

}  // namespace clusterdesk::whatif
