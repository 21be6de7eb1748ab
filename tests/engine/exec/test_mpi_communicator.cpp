// MpiCommunicator: run by CTest under mpirun with 3 ranks (and on its own as one
// rank). Double sums must equal the rank-order sum bit for bit on every rank.
#include "engine/exec/mpi_communicator.h"
#include "engine/exec/nccl_communicator.h"
#include "kernels/backend_registry.h"

#include <QTest>

#include <cmath>
#include <cstring>

using namespace clusterdesk;

namespace {

// Rank r's contribution: magnitudes chosen so that the order of addition matters.
std::vector<double> doublesOf(int r)
{
    return {r % 2 ? -1e16 : 1e16, 1.0 + r, 0.1 * (r + 1), std::ldexp(1.0, -30 - r), r == 2 ? 3.5 : -0.25};
}

}  // namespace

class TestMpiCommunicator : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { QCOMPARE(MPI_Init(nullptr, nullptr), MPI_SUCCESS); }
    void cleanupTestCase() { MPI_Finalize(); }

    void doubleSumsInRankOrder()
    {
        MpiCommunicator comm;
        std::vector<double> values = doublesOf(comm.rank());
        comm.allreduceSum(values);
        std::vector<double> expected = doublesOf(0);
        for (int r = 1; r < comm.size(); ++r) {
            const auto add = doublesOf(r);
            for (std::size_t i = 0; i < expected.size(); ++i) expected[i] += add[i];
        }
        QVERIFY(std::memcmp(values.data(), expected.data(), values.size() * sizeof(double)) == 0);
        // Every rank holds the same bits.
        const auto all = allgatherValues<double>(comm, values);
        for (int r = 1; r < comm.size(); ++r)
            QVERIFY(std::memcmp(all.data() + r * values.size(), values.data(), values.size() * sizeof(double)) == 0);
    }

    void ncclBootstrapsThroughMpi()
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
        QCOMPARE(std::string(reinterpret_cast<const char*>(reasons.data()), reasons.size()), repeated);  // the same on every rank
        if (!nccl) {
            QVERIFY(QString::fromStdString(whyNot).startsWith("rank "));
            if (devices == 0) QSKIP(qPrintable("no GPU, NCCL refused on every rank: " + QString::fromStdString(whyNot)));
            QSKIP(qPrintable("NCCL is not usable here: " + QString::fromStdString(whyNot)));
        }
        std::vector<double> viaNccl = doublesOf(mpi.rank()), viaMpi = doublesOf(mpi.rank());
        nccl->allreduceSum(std::span<double>(viaNccl));
        mpi.allreduceSum(viaMpi);
        QVERIFY(std::memcmp(viaNccl.data(), viaMpi.data(), viaMpi.size() * sizeof(double)) == 0);
    }

    void integerSumAndMax()
    {
        MpiCommunicator comm;
        std::vector<std::int64_t> ints{comm.rank(), std::int64_t{1} << 40, -comm.rank()};
        comm.allreduceSum(ints);
        const std::int64_t n = comm.size();
        QCOMPARE(ints[0], n * (n - 1) / 2);
        QCOMPARE(ints[1], n << 40);
        QCOMPARE(ints[2], -n * (n - 1) / 2);
        std::vector<double> maxes{double(comm.rank()), -double(comm.rank())};
        comm.allreduceMax(maxes);
        QCOMPARE(maxes[0], double(n - 1));
        QCOMPARE(maxes[1], 0.0);
        std::vector<double> empty;
        comm.allreduceSum(empty);
    }

    void allgatherVariableSizes()
    {
        MpiCommunicator comm;
        // Rank r sends r bytes of value r (rank 0 sends nothing).
        const std::vector<std::byte> mine(static_cast<std::size_t>(comm.rank()), std::byte(comm.rank()));
        const auto all = comm.allgather(mine);
        std::vector<std::byte> expected;
        for (int r = 0; r < comm.size(); ++r) expected.insert(expected.end(), static_cast<std::size_t>(r), std::byte(r));
        QVERIFY(all == expected);
    }
};

QTEST_APPLESS_MAIN(TestMpiCommunicator)
#include "test_mpi_communicator.moc"
