#include "kernel_cases.h"

#include <random>

namespace clusterdesk::worker {

KernelCase makeKernelCase(std::int64_t rows, std::int64_t cols, int k, std::uint64_t seed)
{
    KernelCase c{rows, cols, k, {}, {}};
    std::mt19937_64 rng(seed);
    std::normal_distribution<float> noise(0.f, 1.f);
    std::uniform_real_distribution<float> box(-10.f, 10.f);
    std::vector<float> centres(static_cast<std::size_t>(k * cols));
    for (float& v : centres) v = box(rng);
    c.data.resize(static_cast<std::size_t>(rows * cols));
    for (std::int64_t i = 0; i < rows; ++i) {
        const std::int64_t centre = static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(k));
        for (std::int64_t j = 0; j < cols; ++j) c.data[static_cast<std::size_t>(i * cols + j)] = centres[static_cast<std::size_t>(centre * cols + j)] + noise(rng);
    }
    c.centroids = centres;
    for (float& v : c.centroids) v += 0.3f * noise(rng);
    return c;
}

}  // namespace clusterdesk::worker
