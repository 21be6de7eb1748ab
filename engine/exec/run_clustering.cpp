#include "run_clustering.h"

#include "../core/error.h"
#include "executor.h"

namespace clusterdesk {

void validate(const KMeansParams& params, const Dataset& data, int shards)
{
    const auto rows = std::to_string(data.rows);
    if (data.rows < 1 || data.cols < 1) throw UsageError("the dataset is empty (" + rows + " rows, " + std::to_string(data.cols) + " columns)");
    const int k = params.algorithm == Algorithm::KMeans ? params.k : params.kMax;
    const char* name = params.algorithm == Algorithm::KMeans ? "k" : "kmax";
    if (k < 1) throw UsageError(std::string(name) + " must be at least 1 (" + name + "=" + std::to_string(k) + ")");
    if (k > data.rows) throw UsageError(std::string(name) + " must not exceed the number of rows (" + name + "=" + std::to_string(k) + ", rows=" + rows + ")");
    if (params.algorithm == Algorithm::AdaptGrow && (params.k0 < 1 || params.k0 > params.kMax))
        throw UsageError("k0 must be between 1 and kmax (k0=" + std::to_string(params.k0) + ", kmax=" + std::to_string(params.kMax) + ")");
    if (params.nInit < 1 || params.nInit > 1000) throw UsageError("initialisations (n-init) must be between 1 and 1000 (got " + std::to_string(params.nInit) + ")");
    if (params.nInit > 1 && params.init == InitMethod::Given)
        throw UsageError("n-init needs random initialisations; given initial centroids are one start");
    if (params.maxIterations < 1) throw UsageError("max iterations must be at least 1 (got " + std::to_string(params.maxIterations) + ")");
    if (!(params.tolerance >= 0)) throw UsageError("tolerance must be >= 0 (got " + std::to_string(params.tolerance) + ")");
    if (shards > data.rows) throw UsageError("more shards than rows (shards=" + std::to_string(shards) + ", rows=" + rows + ")");
    const int startK = params.algorithm == Algorithm::KMeans ? params.k : params.k0;
    if (params.init == InitMethod::Given && params.initialCentroids.size() != static_cast<std::size_t>(startK * data.cols))
        throw UsageError("initial centroids have " + std::to_string(params.initialCentroids.size()) + " values; expected " +
                         (params.algorithm == Algorithm::KMeans ? "k" : "k0") + " x cols = " + std::to_string(startK) +
                         " x " + std::to_string(data.cols));
    // Values too large for float32 squared distances are refused by the scale pass
    // every run starts with (computeScales), not by a pass of their own here.
}

void validate(int threads)
{
    if (threads < 0 || threads > kMaxThreads)
        throw UsageError("threads must be between 1 and " + std::to_string(kMaxThreads) + " (got " + std::to_string(threads) + ")");
}

RunReport runClustering(const Dataset& data, const KMeansParams& params, const Topology& topology, int threads,
                        const RunControl& control)
{
    return makeExecutor(topology)->execute(data, params, threads, control);
}

}  // namespace clusterdesk
