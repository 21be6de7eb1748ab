#include "rank.h"

#include "heartbeat.h"
#include "engine/core/error.h"
#include "engine/core/test_hooks.h"
#include "engine/exec/mpi_communicator.h"
#include "engine/exec/nccl_communicator.h"
#include "engine/exec/pool_job.h"
#include "engine/exec/run_clustering.h"
#include "engine/exec/shard_run.h"
#include "kernels/backend_registry.h"

#include <mpi.h>
#include <omp.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <mutex>
#include <optional>
#include <sstream>

namespace clusterdesk::worker {
namespace {

struct Failure {
    std::string kind = "error";
    std::string message;
    std::string file;
    std::int64_t line = 0;
    std::int64_t column = 0;
    int exitCode = 4;
};

Failure describe(std::exception_ptr error)
{
    Failure f;
    try {
        std::rethrow_exception(error);
    } catch (const UsageError& e) {
        f = {"usage", e.what(), {}, 0, 0, 2};
    } catch (const DataError& e) {
        f = {"data", e.message(), e.file(), e.line(), e.column(), 3};
    } catch (const DeviceError& e) {
        f = {"device", e.what(), {}, 0, 0, 4};
    } catch (const kernels::BackendUnavailable& e) {
        f = {"device", e.what(), {}, 0, 0, 4};
    } catch (const std::bad_alloc&) {
        f = {"device", "out of memory", {}, 0, 0, 4};
    } catch (const std::exception& e) {
        f = {"error", e.what(), {}, 0, 0, 4};
    }
    return f;
}

// Whole lines only: one line per write, whatever thread writes. One lock per stream, so
// a heartbeat on stderr never waits behind rank 0 writing a long result to a full pipe.
void writeLine(std::FILE* stream, const std::string& line)
{
    static std::mutex outMutex, errMutex;
    std::lock_guard lock(stream == stdout ? outMutex : errMutex);
    const std::string withNewline = line + '\n';
    std::fwrite(withNewline.data(), 1, withNewline.size(), stream);
    std::fflush(stream);
}

// Rank 0's progress lines go to stdout.
void emit(const std::string& line)
{
    writeLine(stdout, line);
}

// Heartbeats go to stderr: mpirun merges every rank's stdout into one stream chunk by
// chunk, so another rank's heartbeat could land inside rank 0's long result line. A
// heartbeat is one short write, which arrives whole.
void emitHeartbeat(const std::string& line)
{
    writeLine(stderr, line);
}

void report(int rank, const Failure& f)
{
    emit(errorLine(rank, f.kind, f.message, f.file, f.line, f.column));
    std::fprintf(stderr, "clusterdesk-worker rank %d: %s\n", rank, f.message.c_str());
    std::fflush(stderr);
}

std::string readFile(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in) throw UsageError("cannot read the pool job " + path);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

// Every rank reaches this with or without a failure of its own; all agree on the
// outcome, so a failure before the run ends every rank cleanly (no MPI_Abort) and the
// lowest failing rank reports it. Returns the exit code (0: carry on).
int agree(Communicator& comm, const std::optional<Failure>& mine)
{
    const std::byte flag{static_cast<unsigned char>(mine ? 1 : 0)};
    const auto flags = comm.allgather(std::span<const std::byte>(&flag, 1));
    for (int r = 0; r < comm.size(); ++r) {
        if (flags[static_cast<std::size_t>(r)] == std::byte{0}) continue;
        if (r == comm.rank()) report(r, *mine);
        return mine ? mine->exitCode : 4;
    }
    return 0;
}

// Threads for this rank: the job's number, or this node's cores shared among the
// ranks on the node.
void setThreads(const PoolJob& job)
{
    int threads = job.threadsPerRank;
    if (threads <= 0) {
        MPI_Comm node;
        int local = 1;
        if (MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node) == MPI_SUCCESS) {
            MPI_Comm_size(node, &local);
            MPI_Comm_free(&node);
        }
        threads = std::max(1, omp_get_num_procs() / std::max(1, local));
    }
    omp_set_num_threads(threads);
}

// The GPU of this rank's node it should use: its rank among the ranks on the node, modulo
// the node's GPUs (so 4 ranks on a 2-GPU node share them two by two). Collective.
int nodeGpu()
{
    MPI_Comm node;
    int localRank = 0;
    if (MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node) == MPI_SUCCESS) {
        MPI_Comm_rank(node, &localRank);
        MPI_Comm_free(&node);
    }
    const int gpus = kernels::cudaAvailability().deviceCount;
    return gpus > 0 ? localRank % gpus : localRank;  // without GPUs, createBackend says why
}

// SIGUSR1 (the launcher's cancel, which mpirun forwards to every rank) asks rank 0's
// run to stop after the current iteration; the ranks agree on it in the next all-reduce
// and rank 0 still prints the partial result.
std::atomic<bool> g_cancel{false};

void onCancelSignal(int)
{
    g_cancel = true;
}

// Test hook (honoured only by builds with CLUSTERDESK_TEST_HOOKS): CLUSTERDESK_WORKER_TEST_HANG=RANK:COLLECTIVES:MODE makes
// rank RANK hang, without dying, once it has completed COLLECTIVES collectives: MODE
// "stop" freezes the whole process (SIGSTOP: heartbeats stop too), "sleep" blocks only
// the run (heartbeats go on, progress stops). The launcher's watchdog must catch both.
void installHangHook(ProgressCommunicator& comm)
{
    const char* spec = test_hooks::variable("CLUSTERDESK_WORKER_TEST_HANG");
    int rank = -1;
    unsigned long long after = 0;
    char mode[16] = {};
    if (!spec || std::sscanf(spec, "%d:%llu:%15s", &rank, &after, mode) != 3 || rank != comm.rank()) return;
    const bool stop = std::string(mode) == "stop";
    comm.afterCollective = [after, stop](std::uint64_t done) {
        if (done != after) return;
        std::fprintf(stderr, "clusterdesk-worker: test hook: hanging (%s) after %llu collectives\n", stop ? "stop" : "sleep", after);
        std::fflush(stderr);
        if (stop) raise(SIGSTOP);
        while (true) pause();
    };
}

int runJob(const std::string& jobPath)
{
    MpiCommunicator mpi(MPI_COMM_WORLD);
    ProgressCommunicator comm(mpi);
    installHangHook(comm);
    const Heartbeat heartbeat(comm, emitHeartbeat);
    const int rank = comm.rank();

    // 1. Job and data, on every rank; a rank that cannot read them (a remote node
    // without the file) stops every rank, with its reason.
    PoolJob job;
    Dataset data;
    std::optional<Failure> failure;
    try {
        job = poolJobFromJson(readFile(jobPath));
    } catch (...) {
        failure = describe(std::current_exception());
    }
    if (const int code = agree(comm, failure)) return code;
    setThreads(job);  // collective when the job leaves the count to the node
    try {
        data = loadPoolData(job);
    } catch (...) {
        failure = describe(std::current_exception());
    }
    if (const int code = agree(comm, failure)) return code;

    // 2. Every rank must hold the same data: compare content hashes (and the launcher's).
    std::string hash = data.contentHash();
    hash.resize(64, ' ');
    const auto all = comm.allgather(std::as_bytes(std::span<const char>(hash.data(), hash.size())));
    const std::string hashes(reinterpret_cast<const char*>(all.data()), all.size());
    auto hashOf = [&](int r) { return hashes.substr(static_cast<std::size_t>(r) * 64, 64); };
    for (int r = 0; r < comm.size(); ++r) {
        std::string problem;
        if (!job.expectedHash.empty() && hashOf(r) != job.expectedHash)
            problem = "rank " + std::to_string(r) + " loaded a different dataset from " + data.source + " (content hash " +
                      hashOf(r) + ") than the launcher has (" + job.expectedHash +
                      "); every node must see the same data";
        else if (hashOf(r) != hashOf(0))
            problem = "rank " + std::to_string(r) + " loaded a different dataset (content hash " + hashOf(r) +
                      ") than rank 0 (" + hashOf(0) + ") from " + data.source;
        if (problem.empty()) continue;
        if (rank == 0) report(0, {"data", problem, data.source, 0, 0, 3});
        return 3;
    }

    // 3. Parameters against the data (the same verdict on every rank).
    try {
        validate(job.params, data, comm.size());
    } catch (...) {
        if (rank == 0) report(0, describe(std::current_exception()));
        return describe(std::current_exception()).exitCode;
    }

    // 4. Each rank's backend: the host, or a GPU of its node. A rank that cannot have
    // its backend stops every rank, with its reason. A small shard runs on one thread.
    omp_set_num_threads(shardThreads(data, rank, comm.size(), omp_get_max_threads()));
    std::unique_ptr<kernels::Backend> backend;
    const int device = job.rankBackend == "cuda" ? nodeGpu() : -1;
    try {
        backend = kernels::createBackend(device < 0 ? std::string("host") : "cuda:" + std::to_string(device));
    } catch (...) {
        failure = describe(std::current_exception());
    }
    if (const int code = agree(comm, failure)) return code;

    // 5. GPU ranks exchange their sums over NCCL, bootstrapped through MPI, when every
    // rank can (join is collective and all-or-none); otherwise over MPI, saying why.
    const NcclJoin nccl = joinNccl(comm, device, "MPI");
    if (nccl.communicator) comm.route(*nccl.communicator);

    // 6. The run. A failure here may leave other ranks inside a collective, so it
    // aborts the whole job.
    try {
        RunControl control;
        if (rank == 0) control.onIteration = [](const IterationStats& s) { emit(iterationLine(s)); };
        control.cancel = &g_cancel;
        const ClusterResult result = runShard(data, job.params, *backend, comm, control);
        if (rank == 0) emit(resultLine(result, nccl.description));
    } catch (...) {
        const Failure f = describe(std::current_exception());
        report(rank, f);
        MPI_Abort(MPI_COMM_WORLD, f.exitCode);
        return f.exitCode;
    }
    return 0;
}

}  // namespace

int runRank(const std::string& jobPath, int& argc, char**& argv)
{
    struct sigaction cancel = {};
    cancel.sa_handler = onCancelSignal;
    sigemptyset(&cancel.sa_mask);
    sigaction(SIGUSR1, &cancel, nullptr);
    if (MPI_Init(&argc, &argv) != MPI_SUCCESS) {
        std::cerr << "clusterdesk-worker: MPI_Init failed\n";
        return 4;
    }
    int code = 4;
    try {
        code = runJob(jobPath);
    } catch (const std::exception& e) {
        // Only MpiCommunicator's setup can get here.
        std::cerr << "clusterdesk-worker: " << e.what() << '\n';
        MPI_Abort(MPI_COMM_WORLD, 4);
    }
    MPI_Finalize();
    return code;
}

}  // namespace clusterdesk::worker
