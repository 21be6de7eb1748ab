// The NCCL communicator joined over the local communicator (one thread per rank). On
// any machine: when a rank cannot use NCCL, every rank gets none and the same reason
// naming that rank, so the caller falls back without anyone hanging in NCCL's init.
// On any machine, over a stand-in for the plug-in's NcclRank: what the adapter adds
// (rank-order double sums, unequal allgathers padded and trimmed). With a GPU (else
// skipped, saying why): real NCCL sums equal the local communicator's, bit for bit.
#include "engine/exec/local_communicator.h"
#include "engine/exec/nccl_communicator.h"
#include "kernels/backend_registry.h"
#include "kernels/cuda/nccl_plugin.h"

#include "doctest_support.h"

#include <cstdint>
#include <string>
#include <vector>

#include <cstring>
#include <memory>
#include <stdexcept>
#include <thread>

using namespace clusterdesk;

namespace {

struct Joined {
    std::unique_ptr<NcclCommunicator> comm;
    std::string whyNot;
};

// Rank r joins on devices[r]; returns what each rank got.
std::vector<Joined> joinAll(const std::vector<int>& devices)
{
    const int n = static_cast<int>(devices.size());
    LocalGroup group(n);
    std::vector<Joined> out(devices.size());
    std::vector<std::thread> threads;
    for (int r = 0; r < n; ++r)
        threads.emplace_back([&, r] {
            auto local = group.member(r);
            Joined& j = out[static_cast<std::size_t>(r)];
            j.comm = NcclCommunicator::join(*local, devices[static_cast<std::size_t>(r)], j.whyNot);
        });
    for (auto& t : threads) t.join();
    return out;
}

// NCCL's semantics over the local communicator: element-wise int64 sums and double
// maxima, equal-count gathers (a mismatch throws, as NCCL would misbehave).
class StandInRank final : public kernels::NcclRank {
public:
    explicit StandInRank(std::unique_ptr<Communicator> local) : m_local(std::move(local)) {}
    int rank() const override { return m_local->rank(); }
    int size() const override { return m_local->size(); }
    void allreduce(void* values, std::size_t count, kernels::NcclType type, kernels::NcclOp op) override
    {
        if (type == kernels::NcclType::Int64 && op == kernels::NcclOp::Sum)
            m_local->allreduceSum(std::span(static_cast<std::int64_t*>(values), count));
        else if (type == kernels::NcclType::Float64 && op == kernels::NcclOp::Max)
            m_local->allreduceMax(std::span(static_cast<double*>(values), count));
        else
            throw std::runtime_error("the adapter asked for an operation it promises not to use");
    }
    void allgather(const void* mine, std::size_t bytes, void* all) override
    {
        const auto out = m_local->allgather(std::span(static_cast<const std::byte*>(mine), bytes));
        if (out.size() != bytes * static_cast<std::size_t>(size())) throw std::runtime_error("unequal allgather counts");
        std::memcpy(all, out.data(), out.size());
    }
    void abort() override {}

private:
    std::unique_ptr<Communicator> m_local;
};

}  // namespace

TEST_CASE("refusedEverywhereWhenOneRankCannot")
{
    // Rank 2 asks for a GPU no machine has: nobody joins, all say why, naming rank 2
    // (or rank 0, on a machine where no rank can).
    const std::vector<Joined> got = joinAll({0, 0, 4096});
    const int devices = kernels::cudaAvailability().deviceCount;
    for (const Joined& j : got) {
        REQUIRE(!j.comm);
        REQUIRE_EQ(j.whyNot, got[0].whyNot);
    }
    const std::string why = got[0].whyNot;
    MESSAGE(test::format("%s", std::string(why).c_str()));
    REQUIRE_MESSAGE(test::startsWith(why, devices > 0 ? "rank 2: " : "rank 0: "), std::string(why).c_str());
}

TEST_CASE("adapterKeepsTheCommunicatorContract")
{
    constexpr int n = 3;
    LocalGroup standIns(n), reference(n);
    std::vector<std::vector<double>> sums(n), expected(n);
    std::vector<std::vector<std::byte>> gathered(n), expectedGather(n);
    std::vector<std::int64_t> ints(n), maxima(n);
    std::vector<std::thread> threads;
    for (int r = 0; r < n; ++r)
        threads.emplace_back([&, r] {
            const auto i = static_cast<std::size_t>(r);
            NcclCommunicator comm(std::make_unique<StandInRank>(standIns.member(r)));
            auto local = reference.member(r);
            std::vector<double> values{1e16 * (r % 2 ? -1 : 1), 0.1 * (r + 1), 1.0 / (r + 3)};
            sums[i] = expected[i] = values;
            comm.allreduceSum(std::span<double>(sums[i]));
            local->allreduceSum(std::span<double>(expected[i]));
            std::vector<std::int64_t> one{std::int64_t{1} << 42};
            comm.allreduceSum(std::span<std::int64_t>(one));
            ints[i] = one[0];
            std::vector<double> top{double(r)};
            comm.allreduceMax(top);
            maxima[i] = static_cast<std::int64_t>(top[0]);
            const std::vector<std::byte> mine(static_cast<std::size_t>(2 * r), std::byte(r + 1));  // rank 0 gives none
            gathered[i] = comm.allgather(mine);
            expectedGather[i] = local->allgather(mine);
        });
    for (auto& t : threads) t.join();
    for (std::size_t i = 0; i < n; ++i) {
        REQUIRE(std::memcmp(sums[i].data(), expected[0].data(), 3 * sizeof(double)) == 0);  // rank order, same bits
        REQUIRE_EQ(ints[i], std::int64_t{3} << 42);
        REQUIRE_EQ(maxima[i], std::int64_t{2});
        REQUIRE_EQ(gathered[i].size(), std::size_t{6});
        REQUIRE(gathered[i] == expectedGather[0]);
    }
}

TEST_CASE("sumsMatchTheLocalCommunicator")
{
    const kernels::CudaAvailability cuda = kernels::cudaAvailability();
    if (cuda.deviceCount == 0) CLUSTERDESK_SKIP(std::string("needs a CUDA GPU: " + cuda.reason).c_str());
    const int n = std::min(cuda.deviceCount, 4);
    std::vector<int> devices(static_cast<std::size_t>(n));
    for (int r = 0; r < n; ++r) devices[static_cast<std::size_t>(r)] = r;
    std::vector<Joined> nccl = joinAll(devices);
    if (!nccl[0].comm) CLUSTERDESK_SKIP(std::string("NCCL is not usable here: " + nccl[0].whyNot).c_str());

    LocalGroup local(n);
    std::vector<std::vector<double>> viaNccl(static_cast<std::size_t>(n)), viaLocal(static_cast<std::size_t>(n));
    std::vector<std::vector<std::int64_t>> intsNccl(static_cast<std::size_t>(n));
    std::vector<std::thread> threads;
    for (int r = 0; r < n; ++r)
        threads.emplace_back([&, r] {
            const auto i = static_cast<std::size_t>(r);
            std::vector<double> values(257);
            for (std::size_t k = 0; k < values.size(); ++k) values[k] = 1.0 / static_cast<double>(k + 3 + r) + 1e12 * (k % 5 == 0);
            viaNccl[i] = values;
            viaLocal[i] = values;
            nccl[i].comm->allreduceSum(std::span<double>(viaNccl[i]));
            local.member(r)->allreduceSum(std::span<double>(viaLocal[i]));
            intsNccl[i].assign(100, (std::int64_t{1} << 50) + r);
            nccl[i].comm->allreduceSum(std::span<std::int64_t>(intsNccl[i]));
        });
    for (auto& t : threads) t.join();
    for (int r = 0; r < n; ++r) {
        const auto i = static_cast<std::size_t>(r);
        REQUIRE(viaNccl[i] == viaLocal[0]);
        REQUIRE_EQ(intsNccl[i].front(), (std::int64_t{1} << 50) * n + n * (n - 1) / 2);
    }
}
