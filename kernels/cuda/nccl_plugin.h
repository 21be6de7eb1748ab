// NCCL through the CUDA plug-in: the C entry points that libclusterdesk_cuda.so adds
// for collectives between GPUs, looked up with kernels::cudaPluginSymbol, and the
// object they return. The plug-in does not link NCCL: it dlopens libnccl.so.2 on first
// use, so a GPU machine without NCCL keeps its CUDA backend and only loses NCCL (the
// entry points then fail with the loader's reason).
//
// Buffers are host memory: every call stages host -> device buffer -> NCCL -> host on
// the rank's own stream. That is the first step: the partial sums the algorithms reduce
// are host vectors today (Backend::trackedSums and friends fill host PartialSums), and
// they are k x d values, so the two copies cost microseconds next to an assign pass.
// A device-resident path would have the backends hand out device partial sums.
#pragma once

#include <cstddef>
#include <cstdint>

namespace clusterdesk::kernels {

enum class NcclType : int { Int64 = 0, Float64 = 1 };
enum class NcclOp : int { Sum = 0, Max = 1 };

// One rank of an NCCL communicator, bound to one device. Calls block until the result
// is back in host memory; errors throw std::runtime_error with the file, line and the
// NCCL or CUDA message. Not thread-safe except abort().
class NcclRank {
public:
    virtual ~NcclRank() = default;
    virtual int rank() const = 0;
    virtual int size() const = 0;
    // Element-wise across ranks, in place.
    virtual void allreduce(void* values, std::size_t count, NcclType type, NcclOp op) = 0;
    // Every rank's `bytes` bytes (the same count on every rank) into all, in rank order
    // (all has size() * bytes bytes).
    virtual void allgather(const void* mine, std::size_t bytes, void* all) = 0;
    // From any thread: a collective in progress (or the next one) aborts the NCCL
    // communicator and throws instead of waiting for a peer that will never come.
    virtual void abort() = 0;
};

inline constexpr std::size_t kNcclIdBytes = 128;  // NCCL_UNIQUE_ID_BYTES

}  // namespace clusterdesk::kernels

extern "C" {
// A fresh NCCL unique id (kNcclIdBytes bytes) for rank 0 to hand to every rank; 0, or
// -1 with the reason (no libnccl, NCCL error) written.
int clusterdesk_nccl_unique_id(unsigned char* id, std::size_t idSize, char* reason, std::size_t reasonSize);
// Rank `rank` of `size` on CUDA device `device`, joining every rank that passes the
// same id; blocks until all have joined. Null with the reason written on failure. The
// caller owns the result.
clusterdesk::kernels::NcclRank* clusterdesk_nccl_join(const unsigned char* id, std::size_t idSize, int size, int rank,
                                                      int device, char* reason, std::size_t reasonSize);
}

namespace clusterdesk::kernels {
using NcclUniqueIdFn = int (*)(unsigned char*, std::size_t, char*, std::size_t);
using NcclJoinFn = NcclRank* (*)(const unsigned char*, std::size_t, int, int, int, char*, std::size_t);
}  // namespace clusterdesk::kernels
