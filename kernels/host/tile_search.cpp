#include "tile_search.h"

#include <omp.h>

#include <algorithm>
#include <iterator>
#include <stdexcept>

namespace clusterdesk::kernels::host {
namespace {

using Index = std::int64_t;
using TileCall = void (*)(const TileJob&, Index);

// Portable tiles: 16 rows x 8 centroids, vectorised for the build's own target.
constexpr int kPortableLanes = 16;
constexpr int kPortableStep = 8;
#if defined(__AVX2__)
constexpr bool kBuiltWithAvx2 = true;
#else
constexpr bool kBuiltWithAvx2 = false;
#endif

template <bool Exact>
void portableTile(const TileJob& job, Index call)
{
    TileNearestT<kPortableLanes, kPortableStep, Exact, kBuiltWithAvx2>{job}(call);
}

struct TileKernel {
    const char* name;
    int lanes;  // rows per call
    TileCall exact;
    TileCall fast;
    bool (*runsHere)();
};

#if defined(CD_HAVE_X86_TILES)
// The portable loop again, compiled for AVX2 + FMA: a build for any x86-64 still runs
// its fma chains in hardware on a CPU that has them.
template <bool Exact>
CD_TARGET_AVX2_FLAT void avx2Tile(const TileJob& job, Index call)
{
    TileNearestT<kPortableLanes, kPortableStep, Exact, true>{job}(call);
}

template <bool Exact>
CD_TARGET_AVX512 void avx512Tile(const TileJob& job, Index call)
{
    nearestTileAvx512<Exact>(job, call);
}

bool cpuHasAvx512()
{
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") &&
           __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl");
}

bool cpuHasAvx2()
{
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
}
#endif

bool always()
{
    return true;
}

// Widest first.
const TileKernel kKernels[] = {
#if defined(CD_HAVE_X86_TILES)
    {"AVX-512", 32, &avx512Tile<true>, &avx512Tile<false>, &cpuHasAvx512},
    {"AVX2", kPortableLanes, &avx2Tile<true>, &avx2Tile<false>, &cpuHasAvx2},
#endif
    {"C++", kPortableLanes, &portableTile<true>, &portableTile<false>, &always},
};

const TileKernel& widest()
{
    static const TileKernel& chosen = []() -> const TileKernel& {
        for (const TileKernel& k : kKernels)
            if (k.runsHere()) return k;
        return kKernels[std::size(kKernels) - 1];
    }();
    return chosen;
}

void run(const TileKernel& kernel, const TileJob& job, bool exact)
{
    const TileCall call = exact ? kernel.exact : kernel.fast;
    const Index lanes = kernel.lanes;
    const Index calls = (job.count + lanes - 1) / lanes;
#pragma omp parallel for schedule(static)
    for (Index i = 0; i < calls; ++i) {
        call(job, i);
        if (job.done.call)
            job.done.call(job.done.context, omp_get_thread_num(), job.rowIndex, i * lanes,
                          static_cast<int>(std::min(lanes, job.count - i * lanes)));
    }
}

}  // namespace

void searchTiles(const TileJob& job, bool exact)
{
    run(widest(), job, exact);
}

const char* tileInstructionSet()
{
    return widest().name;
}

std::vector<std::string> tileInstructionSetsHere()
{
    std::vector<std::string> names;
    for (const TileKernel& k : kKernels)
        if (k.runsHere()) names.emplace_back(k.name);
    return names;
}

void searchTilesWith(const std::string& instructionSet, const TileJob& job, bool exact)
{
    for (const TileKernel& k : kKernels)
        if (instructionSet == k.name && k.runsHere()) return run(k, job, exact);
    throw std::invalid_argument("tile search: this CPU cannot run the instruction set '" + instructionSet + "'");
}

}  // namespace clusterdesk::kernels::host
