// MpiCommunicator: run by CTest under mpirun with 3 ranks (and on its own as one
// rank). Double sums must equal the rank-order sum bit for bit on every rank.
#include "engine/exec/mpi_communicator.h"
#include "engine/exec/nccl_communicator.h"
#include "kernels/backend_registry.h"

#include "doctest_support.h"

#include <cstdint>
#include <string>
#include <vector>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

using namespace clusterdesk;

namespace {

// Rank r's contribution: magnitudes chosen so that the order of addition matters.
std::vector<double> doublesOf(int r)
{
    return {r % 2 ? -1e16 : 1e16, 1.0 + r, 0.1 * (r + 1), std::ldexp(1.0, -30 - r), r == 2 ? 3.5 : -0.25};
}

}  // namespace

namespace {

// MPI around the whole suite, as Qt's initTestCase/cleanupTestCase did: started before
// doctest's main runs a test, finalised after it returns.
struct MpiSession {
    MpiSession()
    {
        if (MPI_Init(nullptr, nullptr) != MPI_SUCCESS) {
            std::fprintf(stderr, "test_mpi_communicator: MPI_Init failed\n");
            std::exit(1);
        }
    }
    ~MpiSession() { MPI_Finalize(); }
} mpiSession;

}  // namespace

TEST_CASE("doubleSumsInRankOrder")
{
    MpiCommunicator comm;
    std::vector<double> values = doublesOf(comm.rank());
    comm.allreduceSum(values);
    std::vector<double> expected = doublesOf(0);
    for (int r = 1; r < comm.size(); ++r) {
        const auto add = doublesOf(r);
        for (std::size_t i = 0; i < expected.size(); ++i) expected[i] += add[i];
    }
    REQUIRE(std::memcmp(values.data(), expected.data(), values.size() * sizeof(double)) == 0);
    // Every rank holds the same bits.
    const auto all = allgatherValues<double>(comm, values);
    for (int r = 1; r < comm.size(); ++r)
        REQUIRE(std::memcmp(all.data() + r * values.size(), values.data(), values.size() * sizeof(double)) == 0);
}

TEST_CASE("ncclBootstrapsThroughMpi")
{
    // NCCL over every rank's GPU, the unique id going through MPI. Where a rank has
    // no usable GPU, every rank gets none and the same reason (nobody waits in
    // NCCL's init); with GPUs, the double sum equals MPI's bit for bit.
    MpiCommunicator mpi;
    std::string whyNot;
    const int devices = kernels::cudaAvailability().deviceCount;
    auto nccl = NcclCommunicator::join(mpi, devices > 0 ? mpi.rank() % devices : 0, whyNot);
    const auto reasons = mpi.allgather(std::as_bytes(std::span<const char>(whyNot.data(), whyNot.size())));
    std::string repeated;
    for (int r = 0; r < mpi.size(); ++r) repeated += whyNot;
    REQUIRE_EQ(std::string(reinterpret_cast<const char*>(reasons.data()), reasons.size()), repeated);  // the same on every rank
    if (!nccl) {
        REQUIRE(test::startsWith(whyNot, "rank "));
        if (devices == 0) CLUSTERDESK_SKIP(std::string("no GPU, NCCL refused on every rank: " + whyNot).c_str());
        CLUSTERDESK_SKIP(std::string("NCCL is not usable here: " + whyNot).c_str());
    }
    std::vector<double> viaNccl = doublesOf(mpi.rank()), viaMpi = doublesOf(mpi.rank());
    nccl->allreduceSum(std::span<double>(viaNccl));
    mpi.allreduceSum(viaMpi);
    REQUIRE(std::memcmp(viaNccl.data(), viaMpi.data(), viaMpi.size() * sizeof(double)) == 0);
}

TEST_CASE("integerSumAndMax")
{
    MpiCommunicator comm;
    std::vector<std::int64_t> ints{comm.rank(), std::int64_t{1} << 40, -comm.rank()};
    comm.allreduceSum(ints);
    const std::int64_t n = comm.size();
    REQUIRE_EQ(ints[0], n * (n - 1) / 2);
    REQUIRE_EQ(ints[1], n << 40);
    REQUIRE_EQ(ints[2], -n * (n - 1) / 2);
    std::vector<double> maxes{double(comm.rank()), -double(comm.rank())};
    comm.allreduceMax(maxes);
    REQUIRE_EQ(maxes[0], double(n - 1));
    REQUIRE_EQ(maxes[1], 0.0);
    std::vector<double> empty;
    comm.allreduceSum(empty);
}

TEST_CASE("allgatherVariableSizes")
{
    MpiCommunicator comm;
    // Rank r sends r bytes of value r (rank 0 sends nothing).
    const std::vector<std::byte> mine(static_cast<std::size_t>(comm.rank()), std::byte(comm.rank()));
    const auto all = comm.allgather(mine);
    std::vector<std::byte> expected;
    for (int r = 0; r < comm.size(); ++r) expected.insert(expected.end(), static_cast<std::size_t>(r), std::byte(r));
    REQUIRE(all == expected);
}
