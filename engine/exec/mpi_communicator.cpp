#include "mpi_communicator.h"

#include "../core/error.h"

#include <climits>
#include <string>

namespace clusterdesk {
namespace {

void check(int code, const char* what)
{
    if (code == MPI_SUCCESS) return;
    char text[MPI_MAX_ERROR_STRING];
    int length = 0;
    MPI_Error_string(code, text, &length);
    throw DeviceError(std::string("MPI communicator: ") + what + " failed: " + std::string(text, static_cast<std::size_t>(length)));
}

int countOf(std::size_t n, const char* what)
{
    if (n > static_cast<std::size_t>(INT_MAX)) throw DeviceError(std::string("MPI communicator: ") + what + " is too large for one MPI call");
    return static_cast<int>(n);
}

}  // namespace

MpiCommunicator::MpiCommunicator(MPI_Comm comm) : m_comm(comm)
{
    check(MPI_Comm_set_errhandler(m_comm, MPI_ERRORS_RETURN), "MPI_Comm_set_errhandler");
    check(MPI_Comm_rank(m_comm, &m_rank), "MPI_Comm_rank");
    check(MPI_Comm_size(m_comm, &m_size), "MPI_Comm_size");
}

void MpiCommunicator::allreduceSum(std::span<std::int64_t> values)
{
    // Integer sums are exact in any order.
    check(MPI_Allreduce(MPI_IN_PLACE, values.data(), countOf(values.size(), "a reduction"), MPI_INT64_T, MPI_SUM, m_comm),
          "MPI_Allreduce");
}

void MpiCommunicator::allreduceSum(std::span<double> values)
{
    const std::size_t n = values.size();
    const int count = countOf(n, "a reduction");
    countOf(n * static_cast<std::size_t>(m_size), "a reduction");
    std::vector<double> all(n * static_cast<std::size_t>(m_size));
    check(MPI_Allgather(values.data(), count, MPI_DOUBLE, all.data(), count, MPI_DOUBLE, m_comm),
          "MPI_Allgather");
    // Rank order, as the local communicator adds: rank 0's value, plus rank 1's, ...
    for (std::size_t i = 0; i < n; ++i) {
        double acc = all[i];
        for (int r = 1; r < m_size; ++r) acc += all[static_cast<std::size_t>(r) * n + i];
        values[i] = acc;
    }
}

void MpiCommunicator::allreduceMax(std::span<double> values)
{
    // The maximum is exact whatever the order.
    check(MPI_Allreduce(MPI_IN_PLACE, values.data(), countOf(values.size(), "a reduction"), MPI_DOUBLE, MPI_MAX, m_comm),
          "MPI_Allreduce");
}

std::vector<std::byte> MpiCommunicator::allgather(std::span<const std::byte> mine)
{
    const auto ranks = static_cast<std::size_t>(m_size);
    long long mySize = static_cast<long long>(mine.size());
    std::vector<long long> sizes(ranks);
    check(MPI_Allgather(&mySize, 1, MPI_LONG_LONG, sizes.data(), 1, MPI_LONG_LONG, m_comm), "MPI_Allgather");
    std::vector<int> counts(ranks), displs(ranks);
    std::size_t total = 0;
    for (std::size_t r = 0; r < ranks; ++r) {
        counts[r] = countOf(static_cast<std::size_t>(sizes[r]), "an allgather");
        displs[r] = countOf(total, "an allgather");
        total += static_cast<std::size_t>(sizes[r]);
    }
    countOf(total, "an allgather");
    std::vector<std::byte> out(total);
    check(MPI_Allgatherv(mine.data(), counts[static_cast<std::size_t>(m_rank)], MPI_BYTE, out.data(), counts.data(),
                         displs.data(), MPI_BYTE, m_comm),
          "MPI_Allgatherv");
    return out;
}

}  // namespace clusterdesk
