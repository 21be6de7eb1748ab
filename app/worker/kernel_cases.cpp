#include "kernel_cases.h"

#include <algorithm>
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
    // Blocks of rows with their own generator, filled in parallel: the GPU benchmark's
    // 10 million rows would take a single thread longer than the kernels they time.
    constexpr std::int64_t kBlockRows = 4096;
    const std::int64_t blocks = (rows + kBlockRows - 1) / kBlockRows;
#pragma omp parallel for schedule(dynamic)
    for (std::int64_t block = 0; block < blocks; ++block) {
        std::mt19937_64 blockRng(seed ^ (0x9E3779B97F4A7C15ull * static_cast<std::uint64_t>(block + 1)));
        std::normal_distribution<float> blockNoise(0.f, 1.f);
        const std::int64_t end = std::min(rows, (block + 1) * kBlockRows);
        for (std::int64_t i = block * kBlockRows; i < end; ++i) {
            const auto centre = static_cast<std::int64_t>(blockRng() % static_cast<std::uint64_t>(k));
            for (std::int64_t j = 0; j < cols; ++j)
                c.data[static_cast<std::size_t>(i * cols + j)] = centres[static_cast<std::size_t>(centre * cols + j)] + blockNoise(blockRng);
        }
    }
    c.centroids = centres;
    for (float& v : c.centroids) v += 0.3f * noise(rng);
    return c;
}

}  // namespace clusterdesk::worker
