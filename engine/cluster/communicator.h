// The one collective interface the algorithms use. Every shard runs the same
// algorithm on its rows (SPMD) and combines partial results through these calls;
// implementations side by side: in-process threads (local_communicator), and
// later MPI and NCCL. Results are identical on every rank: sums are formed in
// rank order, so every rank sees the same bits.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <vector>

namespace clusterdesk {

class Communicator {
public:
    virtual ~Communicator() = default;

    virtual int rank() const = 0;
    virtual int size() const = 0;

    // Element-wise sums across ranks, in place. Integer sums are exact in any order;
    // double sums are added in rank order.
    virtual void allreduceSum(std::span<std::int64_t> values) = 0;
    virtual void allreduceSum(std::span<double> values) = 0;
    virtual void allreduceMax(std::span<double> values) = 0;
    // Every rank's bytes concatenated in rank order, delivered to every rank.
    virtual std::vector<std::byte> allgather(std::span<const std::byte> mine) = 0;
};

// allgather of trivially copyable values.
template <class T>
std::vector<T> allgatherValues(Communicator& comm, std::span<const T> mine)
{
    const std::vector<std::byte> bytes = comm.allgather(std::as_bytes(mine));
    std::vector<T> out(bytes.size() / sizeof(T));
    if (!out.empty()) std::memcpy(out.data(), bytes.data(), out.size() * sizeof(T));  // memcpy of null is undefined, even for 0 bytes
    return out;
}

}  // namespace clusterdesk
