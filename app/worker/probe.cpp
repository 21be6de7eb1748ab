#include "probe.h"

#include "kernels/backend_registry.h"

#include <mpi.h>
#include <nlohmann/json.hpp>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

namespace clusterdesk::worker {
namespace {

// Fixed-size records, so one MPI_Gather collects every rank's description.
constexpr int kRecord = 1024;

std::string describeThisRank(int rank)
{
    char host[256] = {};
    if (gethostname(host, sizeof host - 1) != 0) std::snprintf(host, sizeof host, "(unknown host)");
    // Pool ranks cluster on the host backend (rank.cpp), so that is the device reported;
    // the GPUs the node has are counted beside it.
    std::string device;
    try {
        device = kernels::createBackend("host")->deviceName();
    } catch (const std::exception& e) {
        device = std::string("(host backend unavailable: ") + e.what() + ")";
    }
    const kernels::CudaAvailability cuda = kernels::cudaAvailability();
    nlohmann::json line = {{"type", "probe"}, {"rank", rank}, {"host", host}, {"backend", "host"},
                           {"device", device}, {"gpus", cuda.deviceCount}};
    std::string text = line.dump();
    text.resize(kRecord, '\0');  // padded with NULs (dump() writes none); a longer one is cut
    return text;
}

}  // namespace

int runProbe(int& argc, char**& argv)
{
    if (MPI_Init(&argc, &argv) != MPI_SUCCESS) {
        std::cerr << "clusterdesk-worker: MPI_Init failed\n";
        return 4;
    }
    int rank = 0, size = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const std::string mine = describeThisRank(rank);
    std::vector<char> all(rank == 0 ? static_cast<std::size_t>(size) * kRecord : 0);
    MPI_Gather(mine.data(), kRecord, MPI_CHAR, all.data(), kRecord, MPI_CHAR, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        for (int r = 0; r < size; ++r) {
            const char* record = all.data() + static_cast<std::size_t>(r) * kRecord;
            std::cout << std::string(record, strnlen(record, kRecord)) << '\n';
        }
        std::cout.flush();
    }
    MPI_Finalize();
    return 0;
}

}  // namespace clusterdesk::worker
