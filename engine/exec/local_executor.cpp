#include "local_executor.h"

#include "../core/error.h"
#include "kernels/backend_registry.h"
#include "local_communicator.h"
#include "nccl_communicator.h"
#include "shard_run.h"

#include <omp.h>

#include <algorithm>
#include <chrono>
#include <exception>
#include <mutex>
#include <thread>

namespace clusterdesk {
namespace {

// Whether the shards of a local topology should try NCCL: only between GPUs, and only
// distinct ones (NCCL refuses two ranks on one device). Otherwise says why not.
bool wantsNccl(const Topology& topology, std::string& whyNot)
{
    if (topology.kind != Topology::Kind::Cuda || topology.gpus.size() < 2) return false;
    std::vector<int> sorted = topology.gpus;
    std::sort(sorted.begin(), sorted.end());
    if (std::adjacent_find(sorted.begin(), sorted.end()) == sorted.end()) return true;
    whyNot = "NCCL needs distinct GPUs; " + toString(topology) + " lists one more than once";
    return false;
}

}  // namespace

LocalExecutor::LocalExecutor(Topology topology)
    : m_topology(std::move(topology))
{
    if (m_topology.isPool()) throw UsageError("topology '" + toString(m_topology) + "' runs in a pool, not in this process");
}

RunReport LocalExecutor::execute(const Dataset& data, const KMeansParams& params, int threads, const RunControl& control)
{
    const Topology& topology = m_topology;
    validate(params, data, topology.shardCount());
    validate(threads);
    const auto start = std::chrono::steady_clock::now();
    const int shards = topology.shardCount();
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
            // Per OS thread: rank 0's is the caller's, restored below.
            omp_set_num_threads(shardThreads(data, rank, shards, threadsPerShard));
            std::unique_ptr<kernels::Backend> backend;
            try {
                backend = kernels::createBackend(topology.shardBackend(rank));
            } catch (const kernels::BackendUnavailable& e) {
                throw DeviceError(e.what());
            }
            devices[static_cast<std::size_t>(rank)] = backend->deviceName();
            auto local = group.member(rank);
            Communicator* comm = local.get();
            if (tryNccl) {
                // Collective over the local group: all shards get NCCL or none does.
                NcclJoin joined = joinNccl(*local, topology.gpus[static_cast<std::size_t>(rank)], "local threads");
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

    report.backend = topology.onGpus() ? "cuda" : "host";
    if (!ncclWhyNot.empty()) report.communicator += " (" + ncclWhyNot + ")";
    std::sort(devices.begin(), devices.end());
    devices.erase(std::unique(devices.begin(), devices.end()), devices.end());
    report.devices = devices;
    report.secondsTotal = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return report;
}

}  // namespace clusterdesk
