// Communicator over NCCL, one rank per GPU: the shards of a cuda:0,1,... run (threads of
// one process) or, bootstrapped through MPI, every GPU of every pool rank. NCCL lives
// in the CUDA plug-in (kernels/cuda/nccl_plugin.h), so this file needs no CUDA to
// build and a machine without a GPU or NCCL just never gets one.
//
// Where the data lives: the algorithms hand host spans (their partial sums, k x d
// values), and the plug-in stages them host -> device buffer -> NCCL -> host per call.
// A first step: the GPUs exchange the sums over NVLink/PCIe without the host adding
// them, but each call pays two small copies (see nccl_plugin.h).
//
// Results follow the Communicator contract: int64 sums and double maxima are
// ncclAllReduce (exact in any order); double sums are an ncclAllGather of every rank's
// vector added in rank order on each rank, so the bits equal the local and MPI
// communicators' for the same number of ranks (an ncclSum of doubles would not).
#pragma once

#include "../cluster/communicator.h"

#include <memory>
#include <string>

namespace clusterdesk {

namespace kernels {
class NcclRank;
}

class NcclCommunicator final : public Communicator {
public:
    // Collective over `bootstrap` (local threads or MPI): every rank calls it with its
    // CUDA device. Rank 0 makes the NCCL unique id, bootstrap.allgather hands it to
    // every rank, and each joins on its device. When any rank cannot (no plug-in, no
    // libnccl, no such GPU, NCCL init failed) every rank gets null and `whyNot` names
    // the rank and the reason; the caller keeps using the bootstrap.
    static std::unique_ptr<NcclCommunicator> join(Communicator& bootstrap, int device, std::string& whyNot);
    // Wraps a rank that has joined (join() does this; tests wrap stand-ins).
    explicit NcclCommunicator(std::unique_ptr<kernels::NcclRank> rank);
    ~NcclCommunicator() override;

    int rank() const override;
    int size() const override;
    void allreduceSum(std::span<std::int64_t> values) override;
    void allreduceSum(std::span<double> values) override;
    void allreduceMax(std::span<double> values) override;
    std::vector<std::byte> allgather(std::span<const std::byte> mine) override;

    // Thread-safe: a collective in progress on this rank throws DeviceError instead of
    // waiting for a rank that failed.
    void abort();

private:
    std::unique_ptr<kernels::NcclRank> m_rank;
};

// What a rank's collectives run on after joinNccl.
struct NcclJoin {
    std::unique_ptr<NcclCommunicator> communicator;  // null: they stay on the bootstrap
    std::string description;  // for reports: "NCCL over MPI", "MPI (NCCL not used: <why>)", "MPI"
};

// The one way a rank takes NCCL, for the shards of a local cuda:0,1,... run and for
// pool ranks alike. A rank on GPU `device` (>= 0) with peers joins over `bootstrap`
// (collective and all-or-none: NcclCommunicator::join); with no GPU (-1) or no peers
// nothing is tried. Every rank must pass a GPU or every rank -1. bootstrapName names the
// bootstrap in the description ("MPI", "local threads").
NcclJoin joinNccl(Communicator& bootstrap, int device, const std::string& bootstrapName);

}  // namespace clusterdesk
