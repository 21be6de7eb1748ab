#include "nccl_communicator.h"

#include "../core/error.h"
#include "kernels/backend_registry.h"
#include "kernels/cuda/nccl_plugin.h"

#include <algorithm>
#include <array>
#include <exception>

namespace clusterdesk {
namespace {

using kernels::NcclOp;
using kernels::NcclType;

// What each rank tells the others before anyone joins: whether it can, why not, and
// (rank 0) the unique id.
struct JoinOffer {
    std::uint8_t ready = 0;
    std::array<unsigned char, kernels::kNcclIdBytes> id{};
    std::array<char, 383> reason{};
};

void setReason(JoinOffer& offer, const std::string& text)
{
    const std::size_t n = std::min(text.size(), offer.reason.size() - 1);
    std::copy_n(text.begin(), n, offer.reason.begin());
    offer.reason[n] = '\0';
}

// The first rank that is not ready, and why; empty when all are.
std::string firstRefusal(const std::vector<JoinOffer>& offers)
{
    for (std::size_t r = 0; r < offers.size(); ++r)
        if (!offers[r].ready) return "rank " + std::to_string(r) + ": " + offers[r].reason.data();
    return {};
}

template <class Fn>
Fn pluginEntry(const char* name, std::string& reason)
{
    return reinterpret_cast<Fn>(kernels::cudaPluginSymbol(name, reason));
}

// Runs an NcclRank call, turning its std::runtime_error into a DeviceError that names the rank.
template <class Call>
void guarded(int rank, const char* what, Call call)
{
    try {
        call();
    } catch (const std::exception& e) {
        throw DeviceError("NCCL communicator rank " + std::to_string(rank) + ": " + what + ": " + e.what());
    }
}

}  // namespace

std::unique_ptr<NcclCommunicator> NcclCommunicator::join(Communicator& bootstrap, int device, std::string& whyNot)
{
    // 1. Can this rank take part? (Checked before anyone enters ncclCommInitRank, which
    // would wait forever for a rank that never comes.)
    JoinOffer mine;
    std::string reason;
    const auto uniqueId = pluginEntry<kernels::NcclUniqueIdFn>("clusterdesk_nccl_unique_id", reason);
    const auto joinFn = pluginEntry<kernels::NcclJoinFn>("clusterdesk_nccl_join", reason);
    const kernels::CudaAvailability cuda = kernels::cudaAvailability();
    if (!uniqueId || !joinFn) {
        setReason(mine, reason);
    } else if (device < 0 || device >= cuda.deviceCount) {
        setReason(mine, cuda.deviceCount == 0 ? cuda.reason
                                              : "no GPU " + std::to_string(device) + " (" + std::to_string(cuda.deviceCount) + " present)");
    } else if (bootstrap.rank() == 0) {
        std::array<char, 512> text{};
        if (uniqueId(mine.id.data(), mine.id.size(), text.data(), text.size()) == 0) mine.ready = 1;
        else setReason(mine, text.data());
    } else {
        mine.ready = 1;
    }
    const std::vector<JoinOffer> offers = allgatherValues(bootstrap, std::span<const JoinOffer>(&mine, 1));
    whyNot = firstRefusal(offers);
    if (!whyNot.empty()) return nullptr;

    // 2. Join with rank 0's id, then agree that everyone did.
    std::array<char, 512> text{};
    std::unique_ptr<kernels::NcclRank> rank(
        joinFn(offers[0].id.data(), offers[0].id.size(), bootstrap.size(), bootstrap.rank(), device, text.data(), text.size()));
    JoinOffer joined;
    joined.ready = rank ? 1 : 0;
    if (!rank) setReason(joined, std::string("joining NCCL on GPU ") + std::to_string(device) + ": " + text.data());
    whyNot = firstRefusal(allgatherValues(bootstrap, std::span<const JoinOffer>(&joined, 1)));
    if (!whyNot.empty()) return nullptr;
    return std::make_unique<NcclCommunicator>(std::move(rank));
}

NcclJoin joinNccl(Communicator& bootstrap, int device, const std::string& bootstrapName)
{
    NcclJoin out{nullptr, bootstrapName};
    if (device < 0 || bootstrap.size() < 2) return out;
    std::string whyNot;
    out.communicator = NcclCommunicator::join(bootstrap, device, whyNot);
    out.description = out.communicator ? "NCCL over " + bootstrapName : bootstrapName + " (NCCL not used: " + whyNot + ")";
    return out;
}

NcclCommunicator::NcclCommunicator(std::unique_ptr<kernels::NcclRank> rank) : m_rank(std::move(rank)) {}

NcclCommunicator::~NcclCommunicator() = default;

int NcclCommunicator::rank() const { return m_rank->rank(); }
int NcclCommunicator::size() const { return m_rank->size(); }

void NcclCommunicator::allreduceSum(std::span<std::int64_t> values)
{
    if (values.empty()) return;
    guarded(rank(), "int64 sum", [&] { m_rank->allreduce(values.data(), values.size(), NcclType::Int64, NcclOp::Sum); });
}

void NcclCommunicator::allreduceSum(std::span<double> values)
{
    if (values.empty()) return;
    const std::size_t n = values.size();
    std::vector<double> all(n * static_cast<std::size_t>(size()));
    guarded(rank(), "double sum (gather)", [&] { m_rank->allgather(values.data(), n * sizeof(double), all.data()); });
    // Rank order, as the local and MPI communicators add.
    for (std::size_t i = 0; i < n; ++i) {
        double acc = all[i];
        for (int r = 1; r < size(); ++r) acc += all[static_cast<std::size_t>(r) * n + i];
        values[i] = acc;
    }
}

void NcclCommunicator::allreduceMax(std::span<double> values)
{
    if (values.empty()) return;
    guarded(rank(), "double max", [&] { m_rank->allreduce(values.data(), values.size(), NcclType::Float64, NcclOp::Max); });
}

std::vector<std::byte> NcclCommunicator::allgather(std::span<const std::byte> mine)
{
    // NCCL gathers equal counts: sizes first, then every contribution padded to the largest.
    const auto ranks = static_cast<std::size_t>(size());
    const std::int64_t mySize = static_cast<std::int64_t>(mine.size());
    std::vector<std::int64_t> sizes(ranks);
    guarded(rank(), "allgather (sizes)", [&] { m_rank->allgather(&mySize, sizeof mySize, sizes.data()); });
    const auto widest = static_cast<std::size_t>(*std::max_element(sizes.begin(), sizes.end()));
    std::vector<std::byte> out;
    if (widest == 0) return out;
    std::vector<std::byte> padded(widest), all(widest * ranks);
    std::copy(mine.begin(), mine.end(), padded.begin());
    guarded(rank(), "allgather", [&] { m_rank->allgather(padded.data(), widest, all.data()); });
    for (std::size_t r = 0; r < ranks; ++r) {
        const auto first = all.begin() + static_cast<std::ptrdiff_t>(r * widest);
        out.insert(out.end(), first, first + sizes[r]);
    }
    return out;
}

void NcclCommunicator::abort()
{
    m_rank->abort();
}

}  // namespace clusterdesk
