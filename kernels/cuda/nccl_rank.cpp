// NcclRank over libnccl.so.2, loaded on first use (see nccl_plugin.h for why it is not
// linked, and why buffers are staged through host memory).
#include "kernels/cuda/cuda_common.h"
#include "kernels/cuda/nccl_plugin.h"

#include <cuda_runtime_api.h>
#include <dlfcn.h>
#include <nccl.h>

#include <atomic>
#include <cstring>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>

#define CD_EXPORT __attribute__((visibility("default")))

namespace clusterdesk::kernels::cuda {
namespace {

static_assert(kNcclIdBytes == NCCL_UNIQUE_ID_BYTES);

// The NCCL functions this file calls, resolved from libnccl.so.2.
struct NcclLibrary {
    decltype(&ncclGetVersion) getVersion = nullptr;
    decltype(&ncclGetUniqueId) getUniqueId = nullptr;
    decltype(&ncclCommInitRank) commInitRank = nullptr;
    decltype(&ncclCommDestroy) commDestroy = nullptr;
    decltype(&ncclCommAbort) commAbort = nullptr;
    decltype(&ncclCommGetAsyncError) commGetAsyncError = nullptr;
    decltype(&ncclAllReduce) allReduce = nullptr;
    decltype(&ncclAllGather) allGather = nullptr;
    decltype(&ncclGetErrorString) getErrorString = nullptr;
    std::string loadError;
};

template <class Fn>
void resolve(void* handle, const char* name, Fn& fn, std::string& missing)
{
    fn = reinterpret_cast<Fn>(dlsym(handle, name));
    if (!fn) missing += std::string(missing.empty() ? "" : ", ") + name;
}

const NcclLibrary& nccl()
{
    static NcclLibrary lib;
    static std::once_flag once;
    std::call_once(once, [] {
        void* handle = dlopen("libnccl.so.2", RTLD_NOW | RTLD_LOCAL);
        if (!handle) {
            const char* why = dlerror();
            lib.loadError = std::string("cannot load NCCL: ") + (why ? why : "libnccl.so.2 not found");
            return;
        }
        std::string missing;
        resolve(handle, "ncclGetVersion", lib.getVersion, missing);
        resolve(handle, "ncclGetUniqueId", lib.getUniqueId, missing);
        resolve(handle, "ncclCommInitRank", lib.commInitRank, missing);
        resolve(handle, "ncclCommDestroy", lib.commDestroy, missing);
        resolve(handle, "ncclCommAbort", lib.commAbort, missing);
        resolve(handle, "ncclCommGetAsyncError", lib.commGetAsyncError, missing);
        resolve(handle, "ncclAllReduce", lib.allReduce, missing);
        resolve(handle, "ncclAllGather", lib.allGather, missing);
        resolve(handle, "ncclGetErrorString", lib.getErrorString, missing);
        if (!missing.empty()) lib.loadError = "libnccl.so.2 lacks " + missing;
    });
    if (!lib.loadError.empty()) throw std::runtime_error(lib.loadError);
    return lib;
}

void checkNccl(ncclResult_t result, const char* what, const char* file, int line)
{
    if (result == ncclSuccess || result == ncclInProgress) return;
    throw std::runtime_error(std::string(file) + ":" + std::to_string(line) + ": " + what + " failed: " +
                             nccl().getErrorString(result));
}

#define CD_NCCL_CHECK(expr) checkNccl((expr), #expr, __FILE__, __LINE__)

// Makes `device` current for the calling thread and restores the previous one.
class DeviceScope {
public:
    explicit DeviceScope(int device)
    {
        CD_CUDA_CHECK(cudaGetDevice(&m_previous));
        CD_CUDA_CHECK(cudaSetDevice(device));
    }
    ~DeviceScope() { cudaSetDevice(m_previous); }

private:
    int m_previous = 0;
};

class NcclRankImpl final : public NcclRank {
public:
    NcclRankImpl(const ncclUniqueId& id, int size, int rank, int device) : m_size(size), m_rank(rank), m_device(device)
    {
        DeviceScope scope(device);
        CD_CUDA_CHECK(cudaStreamCreateWithFlags(&m_stream, cudaStreamNonBlocking));
        try {
            CD_NCCL_CHECK(nccl().commInitRank(&m_comm, size, id, rank));
        } catch (...) {
            cudaStreamDestroy(m_stream);
            throw;
        }
    }

    ~NcclRankImpl() override
    {
        // No DeviceScope: it throws, and a destructor must not.
        int previous = 0;
        const bool restore = cudaGetDevice(&previous) == cudaSuccess;
        cudaSetDevice(m_device);
        if (m_buffer) cudaFree(m_buffer);
        if (m_comm) nccl().commDestroy(m_comm);  // null once aborted
        cudaStreamDestroy(m_stream);
        if (restore) cudaSetDevice(previous);
    }

    int rank() const override { return m_rank; }
    int size() const override { return m_size; }

    void allreduce(void* values, std::size_t count, NcclType type, NcclOp op) override
    {
        const std::size_t bytes = count * 8;  // both types are 8 bytes wide
        DeviceScope scope(m_device);
        std::byte* buffer = reserve(bytes);
        CD_CUDA_CHECK(cudaMemcpyAsync(buffer, values, bytes, cudaMemcpyHostToDevice, m_stream));
        CD_NCCL_CHECK(nccl().allReduce(buffer, buffer, count, type == NcclType::Int64 ? ncclInt64 : ncclFloat64,
                                       op == NcclOp::Sum ? ncclSum : ncclMax, m_comm, m_stream));
        wait("ncclAllReduce");
        copyBack(values, buffer, bytes);
    }

    void allgather(const void* mine, std::size_t bytes, void* all) override
    {
        const std::size_t total = bytes * static_cast<std::size_t>(m_size);
        DeviceScope scope(m_device);
        std::byte* buffer = reserve(total);
        std::byte* slot = buffer + bytes * static_cast<std::size_t>(m_rank);
        CD_CUDA_CHECK(cudaMemcpyAsync(slot, mine, bytes, cudaMemcpyHostToDevice, m_stream));
        CD_NCCL_CHECK(nccl().allGather(slot, buffer, bytes, ncclUint8, m_comm, m_stream));
        wait("ncclAllGather");
        copyBack(all, buffer, total);
    }

    void abort() override { m_abortRequested = true; }

private:
    std::byte* reserve(std::size_t bytes)
    {
        if (bytes > m_capacity) {
            if (m_buffer) CD_CUDA_CHECK(cudaFree(m_buffer));
            m_buffer = nullptr;
            m_capacity = 0;
            void* fresh = nullptr;
            CD_CUDA_CHECK(cudaMalloc(&fresh, bytes));
            m_buffer = static_cast<std::byte*>(fresh);
            m_capacity = bytes;
        }
        return m_buffer;
    }

    // Into pageable host memory, only once wait() has seen the collective finish: such a
    // copy blocks the calling thread until all earlier work on the stream is done, so
    // issued behind a collective whose peer never arrives it would hang where wait()
    // could not abort it.
    void copyBack(void* host, const std::byte* buffer, std::size_t bytes)
    {
        CD_CUDA_CHECK(cudaMemcpyAsync(host, buffer, bytes, cudaMemcpyDeviceToHost, m_stream));
        CD_CUDA_CHECK(cudaStreamSynchronize(m_stream));
    }

    // Polls instead of cudaStreamSynchronize: a peer that failed never arrives, and
    // then only ncclCommAbort (on abort() or an asynchronous NCCL error) frees the stream.
    void wait(const char* what)
    {
        while (true) {
            const cudaError_t state = cudaStreamQuery(m_stream);
            if (state == cudaSuccess) return;
            if (state != cudaErrorNotReady) throwCudaError(state, what, __FILE__, __LINE__);
            ncclResult_t async = ncclSuccess;
            CD_NCCL_CHECK(nccl().commGetAsyncError(m_comm, &async));
            if (async != ncclSuccess && async != ncclInProgress) {
                abortComm();
                throw std::runtime_error(std::string(__FILE__) + ": " + what + " on rank " + std::to_string(m_rank) +
                                         " failed: " + nccl().getErrorString(async));
            }
            if (m_abortRequested) {
                abortComm();
                throw std::runtime_error(std::string(what) + " on NCCL rank " + std::to_string(m_rank) +
                                         " aborted: another rank failed");
            }
            std::this_thread::yield();
        }
    }

    void abortComm()
    {
        if (m_aborted) return;
        nccl().commAbort(m_comm);
        m_comm = nullptr;
        m_aborted = true;
    }

    int m_size;
    int m_rank;
    int m_device;
    cudaStream_t m_stream = nullptr;
    ncclComm_t m_comm = nullptr;
    std::byte* m_buffer = nullptr;
    std::size_t m_capacity = 0;
    std::atomic<bool> m_abortRequested{false};
    bool m_aborted = false;
};

}  // namespace
}  // namespace clusterdesk::kernels::cuda

extern "C" CD_EXPORT int clusterdesk_nccl_unique_id(unsigned char* id, std::size_t idSize, char* reason,
                                                    std::size_t reasonSize)
{
    using namespace clusterdesk::kernels::cuda;
    try {
        if (idSize != NCCL_UNIQUE_ID_BYTES) throw std::invalid_argument("NCCL unique id buffer has the wrong size");
        ncclUniqueId unique;
        CD_NCCL_CHECK(nccl().getUniqueId(&unique));
        std::memcpy(id, unique.internal, NCCL_UNIQUE_ID_BYTES);
        return 0;
    } catch (const std::exception& e) {
        writeReason(reason, reasonSize, e.what());
    }
    return -1;
}

extern "C" CD_EXPORT clusterdesk::kernels::NcclRank* clusterdesk_nccl_join(const unsigned char* id, std::size_t idSize,
                                                                          int size, int rank, int device, char* reason,
                                                                          std::size_t reasonSize)
{
    using namespace clusterdesk::kernels::cuda;
    try {
        if (idSize != NCCL_UNIQUE_ID_BYTES) throw std::invalid_argument("NCCL unique id buffer has the wrong size");
        if (size < 1 || rank < 0 || rank >= size)
            throw std::invalid_argument("NCCL rank " + std::to_string(rank) + " of " + std::to_string(size) + " is out of range");
        ncclUniqueId unique;
        std::memcpy(unique.internal, id, NCCL_UNIQUE_ID_BYTES);
        return new NcclRankImpl(unique, size, rank, device);
    } catch (const std::exception& e) {
        writeReason(reason, reasonSize, e.what());
    } catch (...) {
        writeReason(reason, reasonSize, "unknown error while joining the NCCL communicator");
    }
    return nullptr;
}
