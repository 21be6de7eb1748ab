// Generated inputs shared by the worker's selftest and bench: rows drawn around
// centres so assignments are meaningful, and centroids perturbed from the centres.
#pragma once

#include <cstdint>
#include <vector>

namespace clusterdesk::worker {

struct KernelCase {
    std::int64_t rows = 0;
    std::int64_t cols = 0;
    int k = 0;
    std::vector<float> data;       // rows x cols
    std::vector<float> centroids;  // k x cols
};

KernelCase makeKernelCase(std::int64_t rows, std::int64_t cols, int k, std::uint64_t seed);

}  // namespace clusterdesk::worker
