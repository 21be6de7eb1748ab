#include "run_clustering.h"

#include "../core/error.h"
#include "kernels/backend_registry.h"
#include "local_communicator.h"
#include "nccl_communicator.h"
#include "pool_launcher.h"
#include "shard_run.h"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <chrono>
#include <exception>
#include <mutex>
#include <thread>

namespace clusterdesk {

void validate(const KMeansParams& params, const Dataset& data, const Topology& topology)
{
    const auto rows = std::to_string(data.rows);
    if (data.rows < 1 || data.cols < 1) throw UsageError("the dataset is empty (" + rows + " rows, " + std::to_string(data.cols) + " columns)");
    const int k = params.algorithm == Algorithm::KMeans ? params.k : params.kMax;
    const char* name = params.algorithm == Algorithm::KMeans ? "k" : "kmax";
    if (k < 1) throw UsageError(std::string(name) + " must be at least 1 (" + name + "=" + std::to_string(k) + ")");
    if (k > data.rows) throw UsageError(std::string(name) + " must not exceed the number of rows (" + name + "=" + std::to_string(k) + ", rows=" + rows + ")");
    if (params.algorithm == Algorithm::AdaptGrow && (params.k0 < 1 || params.k0 > params.kMax))
        throw UsageError("k0 must be between 1 and kmax (k0=" + std::to_string(params.k0) + ", kmax=" + std::to_string(params.kMax) + ")");
    if (params.maxIterations < 1) throw UsageError("max iterations must be at least 1 (got " + std::to_string(params.maxIterations) + ")");
    if (!(params.tolerance >= 0)) throw UsageError("tolerance must be >= 0 (got " + std::to_string(params.tolerance) + ")");
    if (static_cast<std::int64_t>(topology.shards.size()) > data.rows)
        throw UsageError("more shards than rows (shards=" + std::to_string(topology.shards.size()) + ", rows=" + rows + ")");
    const int startK = params.algorithm == Algorithm::KMeans ? params.k : params.k0;
    if (params.init == InitMethod::Given && params.initialCentroids.size() != static_cast<std::size_t>(startK * data.cols))
        throw UsageError("initial centroids have " + std::to_string(params.initialCentroids.size()) + " values; expected " +
                         (params.algorithm == Algorithm::KMeans ? "k" : "k0") + " x cols = " + std::to_string(startK) +
                         " x " + std::to_string(data.cols));
    // Squared distances are float32: values whose squares overflow would turn every
    // distance into inf and every answer into noise.
    float maxAbs = 0;
    for (float v : data.values) maxAbs = std::max(maxAbs, std::fabs(v));
    if (maxAbs > maxFeatureMagnitude(data.cols))
        throw DataError(data.source, 0, 0, "values up to " + std::to_string(maxAbs) + " in " + std::to_string(data.cols) +
                                               " columns overflow float32 squared distances; rescale the data");
}

void validate(int threads)
{
    if (threads < 0 || threads > kMaxThreads)
        throw UsageError("threads must be between 1 and " + std::to_string(kMaxThreads) + " (got " + std::to_string(threads) + ")");
}

namespace {

// Whether the shards of a local topology should try NCCL: only between GPUs, and only
// distinct ones (NCCL refuses two ranks on one device). Otherwise says why not.
bool wantsNccl(const Topology& topology, std::string& whyNot)
{
    if (topology.shards.size() < 2 || topology.shards.front().rfind("cuda:", 0) != 0) return false;
    std::vector<std::string> sorted = topology.shards;
    std::sort(sorted.begin(), sorted.end());
    if (std::adjacent_find(sorted.begin(), sorted.end()) == sorted.end()) return true;
    whyNot = "NCCL needs distinct GPUs; " + topology.spec + " lists one more than once";
    return false;
}

int deviceIndex(const std::string& shardName)
{
    return std::stoi(shardName.substr(shardName.find(':') + 1));
}

}  // namespace

RunReport runClustering(const Dataset& data, const KMeansParams& params, const Topology& topology, int threads,
                        const RunControl& control)
{
    validate(params, data, topology);
    validate(threads);
    if (topology.pool) return runPool(data, params, topology, threads, control);
    const auto start = std::chrono::steady_clock::now();
    const int shards = static_cast<int>(topology.shards.size());
    const int totalThreads = threads > 0 ? threads : omp_get_num_procs();
    const int threadsPerShard = std::max(1, totalThreads / shards);

    LocalGroup group(shards);
    RunReport report;
    std::vector<std::string> devices(static_cast<std::size_t>(shards));
    std::exception_ptr failure;
    std::mutex failureMutex;
    std::string ncclWhyNot;
    const bool tryNccl = wantsNccl(topology, ncclWhyNot);
    // Per shard, kept until every thread has joined, so a failing shard can abort the
    // others' NCCL collectives; slots are written under failureMutex.
    std::vector<std::unique_ptr<NcclCommunicator>> ncclRanks(static_cast<std::size_t>(shards));
    if (shards > 1) report.communicator = "local threads";

    auto shardMain = [&](int rank) {
        try {
            omp_set_num_threads(threadsPerShard);  // per OS thread: rank 0's is the caller's, restored below
            std::unique_ptr<kernels::Backend> backend;
            try {
                backend = kernels::createBackend(topology.shards[static_cast<std::size_t>(rank)]);
            } catch (const kernels::BackendUnavailable& e) {
                throw DeviceError(e.what());
            }
            devices[static_cast<std::size_t>(rank)] = backend->deviceName();
            auto local = group.member(rank);
            Communicator* comm = local.get();
            if (tryNccl) {
                // Collective over the local group: all shards get NCCL or none does.
                NcclJoin joined = joinNccl(*local, deviceIndex(topology.shards[static_cast<std::size_t>(rank)]), "local threads");
                auto& nccl = joined.communicator;
                std::lock_guard lock(failureMutex);
                if (rank == 0) report.communicator = joined.description;
                if (nccl) comm = nccl.get();
                if (nccl && failure) nccl->abort();  // a shard failed before this one registered
                ncclRanks[static_cast<std::size_t>(rank)] = std::move(nccl);
            }
            ClusterResult result = runShard(data, params, *backend, *comm, control);
            if (rank == 0) report.result = std::move(result);
            // NCCL tears a communicator down together with its peers, so each shard
            // destroys its own on its own thread (one thread destroying them in turn
            // could wait on a peer it has not reached yet); outside the lock, which
            // peers still need to register or abort.
            std::unique_ptr<NcclCommunicator> mine;
            {
                std::lock_guard lock(failureMutex);
                mine = std::move(ncclRanks[static_cast<std::size_t>(rank)]);
            }
        } catch (...) {
            {
                std::lock_guard lock(failureMutex);
                if (!failure) failure = std::current_exception();
                // Shards waiting in an NCCL collective for this one are released too.
                for (const auto& nccl : ncclRanks)
                    if (nccl) nccl->abort();
            }
            group.abort();
        }
    };

    const int callerThreads = omp_get_max_threads();
    std::vector<std::thread> workers;
    try {
        for (int rank = 1; rank < shards; ++rank) workers.emplace_back(shardMain, rank);
    } catch (...) {
        // The ranks already started wait in a collective: release them before giving up.
        group.abort();
        for (auto& worker : workers) worker.join();
        throw DeviceError("cannot start " + std::to_string(shards) + " shard threads");
    }
    shardMain(0);
    for (auto& worker : workers) worker.join();
    omp_set_num_threads(callerThreads);
    if (failure) std::rethrow_exception(failure);

    report.backend = topology.shards.front().rfind("cuda", 0) == 0 ? "cuda" : "host";
    if (!ncclWhyNot.empty()) report.communicator += " (" + ncclWhyNot + ")";
    std::sort(devices.begin(), devices.end());
    devices.erase(std::unique(devices.begin(), devices.end()), devices.end());
    report.devices = devices;
    report.secondsTotal = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return report;
}

}  // namespace clusterdesk
