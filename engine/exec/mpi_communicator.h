// Communicator over MPI: one rank per process (clusterdesk-worker --rank). Built only
// when CMake finds MPI (CLUSTERDESK_HAVE_MPI). Like the local communicator, double
// sums are formed in rank order from every rank's gathered vector, so every rank gets
// the same bits and a fixed rank count gives the same bits on every run; MPI_SUM on
// doubles is not used (MPI leaves its order to the implementation).
#pragma once

#include "../cluster/communicator.h"

#include <mpi.h>

namespace clusterdesk {

class MpiCommunicator final : public Communicator {
public:
    // MPI must be initialised and stay so while this object is used. Errors on `comm`
    // are returned (MPI_ERRORS_RETURN) and thrown as DeviceError.
    explicit MpiCommunicator(MPI_Comm comm = MPI_COMM_WORLD);

    int rank() const override { return m_rank; }
    int size() const override { return m_size; }

    void allreduceSum(std::span<std::int64_t> values) override;
    void allreduceSum(std::span<double> values) override;
    void allreduceMax(std::span<double> values) override;
    std::vector<std::byte> allgather(std::span<const std::byte> mine) override;

private:
    MPI_Comm m_comm;
    int m_rank = 0;
    int m_size = 1;
};

}  // namespace clusterdesk
