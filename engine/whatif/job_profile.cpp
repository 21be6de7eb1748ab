#include "job_profile.h"

#include <algorithm>

namespace clusterdesk::whatif {

double JobProfile::meanK() const
{
    if (iterations.empty()) return 0;
    double sum = 0;
    for (const JobIteration& it : iterations) sum += it.k;
    return sum / static_cast<double>(iterations.size());
}

namespace {

JobProfile shapeOf(const KMeansParams& params, std::int64_t rows, std::int64_t cols)
{
    JobProfile job;
    job.rows = rows;
    job.cols = cols;
    job.algorithm = params.algorithm;
    job.mode = params.mode;
    job.precision = params.precision;
    job.splitIterations = params.splitIterations;
    return job;
}

}  // namespace

JobProfile plannedProfile(const KMeansParams& params, std::int64_t rows, std::int64_t cols)
{
    JobProfile job = shapeOf(params, rows, cols);
    const int iterations = std::max(params.maxIterations, 1);
    if (params.algorithm == Algorithm::KMeans) {
        job.iterations.assign(static_cast<std::size_t>(iterations), {params.k, 1.0});
        job.basis = "planned: k=" + std::to_string(params.k) + ", " + std::to_string(iterations) + " iterations, every row searched";
        return job;
    }
    // AdaptGrow converges within a round in far fewer than maxIterations on real data;
    // ten per round is what recorded runs show, and a recorded run replaces this plan.
    const int perRound = std::min(iterations, 10);
    for (int k = std::max(params.k0, 1);; k = std::min(2 * k, params.kMax)) {
        for (int i = 0; i < perRound; ++i) job.iterations.push_back({k, 1.0});
        ++job.splitRounds;
        if (k >= params.kMax || job.splitRounds >= params.maxRounds) break;
    }
    job.basis = "planned: AdaptGrow doubling k from " + std::to_string(params.k0) + " to " + std::to_string(params.kMax) + ", " +
                std::to_string(perRound) + " iterations per round";
    return job;
}

JobProfile measuredProfile(const KMeansParams& params, std::int64_t rows, std::int64_t cols,
                           const std::vector<IterationStats>& history, const std::string& runId)
{
    JobProfile job = shapeOf(params, rows, cols);
    int lastRound = -1;
    for (const IterationStats& s : history) {
        const double share = rows > 0 ? std::clamp(static_cast<double>(s.rowsSearched) / static_cast<double>(rows), 0.0, 1.0) : 1.0;
        job.iterations.push_back({s.k, share});
        if (s.round != lastRound) {
            lastRound = s.round;
            if (s.round > 0) ++job.splitRounds;
        }
    }
    job.basis = "measured: run " + runId;
    return job;
}

}  // namespace clusterdesk::whatif
