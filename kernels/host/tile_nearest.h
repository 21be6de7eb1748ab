// Nearest centroid for a tile of rows side by side in SIMD lanes: the host's
// assignment kernel up to kTileDims dimensions. A call copies its rows into a
// d x Lanes tile (transposed, so lane r holds row r), then walks the centroids Step at
// a time; the distances live only in registers and every lane keeps its own best,
// second best and label with selects. Per (row, centroid) the arithmetic is that of
// row_functors.h (exact: exactSquaredDistance's fma chain over dimensions in order;
// fast: |x|^2 - 2 x.c + |c|^2), with its lowest-label tie rule, so a tile answers bit
// for bit what ExactNearestT and the CUDA backend answer.
//
// Two instances of that loop: TileNearestT, portable C++ that the compiler vectorises
// for whatever the translation unit targets, and nearestTileAvx512, written with
// AVX-512 intrinsics because the compiler does not keep Step x 2 zmm accumulators in
// registers on its own (it reaches about half the FMA rate). tile_search.cpp picks
// one at run time.
#pragma once

#include "../row_functors.h"

#include <cstdint>

// On x86-64 the kernels below are compiled for AVX2 and AVX-512 whatever the build's
// -march, through target attributes; tile_search.cpp calls the ones the CPU has.
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define CD_HAVE_X86_TILES 1
#define CD_TARGET_AVX2 __attribute__((target("avx2,fma")))
#define CD_TARGET_AVX2_FLAT __attribute__((target("avx2,fma"), flatten))
// GCC tuned for the build machine (-march=native names a Zen 3 on a Zen 5) spends a
// quarter more time in the AVX-512 tiles than tuned for no CPU in particular.
#if defined(__clang__)
#define CD_TUNE_GENERIC ""
#else
#define CD_TUNE_GENERIC ",tune=generic"
#endif
#define CD_TARGET_AVX512 \
    __attribute__((target("avx512f,avx512dq,avx512vl,avx512bw,avx2,fma" CD_TUNE_GENERIC), flatten))
#endif

namespace clusterdesk::kernels::host {

// Up to here the tiles beat OpenBLAS blocks + an argmin pass in fast mode (measured on
// 64 MB of noise: d = 128, k = 512: 49 against 117 ms per iteration); a tile of 32 rows
// is then 64 KB, on the stack.
inline constexpr int kTileDims = 512;

// One search: the rows (all, or the listed ones), the centroids, and what to store.
struct TileJob {
    const float* x;
    std::int64_t d;              // <= kTileDims
    const float* centroids;      // k x d, row-major
    const float* centroidNorms;  // k (fast mode)
    const float* rowNorms;       // fast mode
    int k;
    std::int64_t count;          // rows to search (length of rowIndex when given)
    std::int32_t* labels;
    float* dist;
    const std::int64_t* rowIndex = nullptr;
    float* upper = nullptr;       // with lower: refresh the Hamerly bounds
    float* lower = nullptr;
    float maxCentroidNorm = 0.f;  // fast mode with upper: the largest |c|^2, for the bounds' rounding allowance
    bool keepNearer = false;      // k-means||: keep the stored label unless this batch is nearer
    int labelOffset = 0;          // label of the batch's first centroid
    // Called after each call's rows are stored, on the OpenMP thread that searched them:
    // entries first..first+count-1 of rowIndex (or those rows when rowIndex is null).
    // The host's tracked sums move the rows whose label changed while they are in cache.
    struct RowsDone {
        void (*call)(const void* context, int thread, const std::int64_t* rowIndex, std::int64_t first, int count) = nullptr;
        const void* context = nullptr;
    } done;
};

// The rows call `call` covers (spare lanes of a short last call repeat its first row,
// never stored); returns how many are real.
template <int Lanes>
inline int tileRows(const TileJob& job, std::int64_t call, std::int64_t (&row)[Lanes])
{
    const std::int64_t first = call * Lanes;
    const int n = job.count - first < Lanes ? static_cast<int>(job.count - first) : Lanes;
    for (int r = 0; r < Lanes; ++r) {
        const std::int64_t entry = first + (r < n ? r : 0);
        row[r] = job.rowIndex ? job.rowIndex[entry] : entry;
    }
    return n;
}

#if defined(CD_HAVE_X86_TILES)
// tile[j][r] = row r's dimension j for the first d rounded down to 8 dimensions, 8 x 8
// blocks through registers (eight row loads, a shuffle network, eight tile stores);
// returns how many dimensions it did. Element by element, the copy costs a tenth of
// the search at k = 64.
template <int Lanes>
CD_TARGET_AVX2 inline std::int64_t transposeBlocksAvx(const float* x, std::int64_t d, const std::int64_t (&row)[Lanes],
                                                     float (*tile)[Lanes])
{
    static_assert(Lanes % 8 == 0);
    std::int64_t j0 = 0;
    for (; j0 + 8 <= d; j0 += 8) {
        for (int r0 = 0; r0 < Lanes; r0 += 8) {
            __m256 v[8];
            for (int q = 0; q < 8; ++q) v[q] = _mm256_loadu_ps(x + row[r0 + q] * d + j0);
            const __m256 t0 = _mm256_unpacklo_ps(v[0], v[1]), t1 = _mm256_unpackhi_ps(v[0], v[1]);
            const __m256 t2 = _mm256_unpacklo_ps(v[2], v[3]), t3 = _mm256_unpackhi_ps(v[2], v[3]);
            const __m256 t4 = _mm256_unpacklo_ps(v[4], v[5]), t5 = _mm256_unpackhi_ps(v[4], v[5]);
            const __m256 t6 = _mm256_unpacklo_ps(v[6], v[7]), t7 = _mm256_unpackhi_ps(v[6], v[7]);
            const __m256 u[8] = {_mm256_shuffle_ps(t0, t2, 0x44), _mm256_shuffle_ps(t0, t2, 0xEE),
                                 _mm256_shuffle_ps(t1, t3, 0x44), _mm256_shuffle_ps(t1, t3, 0xEE),
                                 _mm256_shuffle_ps(t4, t6, 0x44), _mm256_shuffle_ps(t4, t6, 0xEE),
                                 _mm256_shuffle_ps(t5, t7, 0x44), _mm256_shuffle_ps(t5, t7, 0xEE)};
            for (int q = 0; q < 4; ++q) {
                _mm256_storeu_ps(&tile[j0 + q][r0], _mm256_permute2f128_ps(u[q], u[q + 4], 0x20));
                _mm256_storeu_ps(&tile[j0 + q + 4][r0], _mm256_permute2f128_ps(u[q], u[q + 4], 0x31));
            }
        }
    }
    return j0;
}
#endif

// Asks for the rows of call `call` (if there is one) ahead of their use: the search of
// a tile then overlaps the memory reads of a later one. Without it the transpose, where
// the rows first arrive, waits on memory for a quarter of the search at d = 32, k = 64.
inline constexpr int kPrefetchCalls = 2;

inline void prefetchLine(const char* at)
{
#if defined(CD_HAVE_X86_TILES)
    // GCC 12 deletes __builtin_prefetch from these loops as code without effect.
    asm volatile("prefetcht0 %0" : : "m"(*at));
#else
    __builtin_prefetch(at);
#endif
}

// Asks for the first `bytes` of row `row` of x (d floats per row), a cache line at a time.
inline void prefetchRow(const float* x, std::int64_t d, std::int64_t row, std::int64_t bytes)
{
    const char* at = reinterpret_cast<const char*>(x + row * d);
    for (std::int64_t b = 0; b < bytes; b += 64) prefetchLine(at + b);
}

template <int Lanes>
inline void prefetchTile(const TileJob& job, std::int64_t call)
{
    const std::int64_t first = call * Lanes;
    if (first >= job.count) return;
    const int n = job.count - first < Lanes ? static_cast<int>(job.count - first) : Lanes;
    const std::int64_t bytes = job.d * static_cast<std::int64_t>(sizeof(float));
    for (int r = 0; r < n; ++r) prefetchRow(job.x, job.d, job.rowIndex ? job.rowIndex[first + r] : first + r, bytes);
}

// tile[j][r] = row r's dimension j: AVX blocks where the caller runs with AVX2, then
// element by element.
template <int Lanes, bool Avx>
inline void transposeRows(const float* x, std::int64_t d, const std::int64_t (&row)[Lanes], float (*tile)[Lanes])
{
    std::int64_t j0 = 0;
#if defined(CD_HAVE_X86_TILES)
    if constexpr (Avx) j0 = transposeBlocksAvx<Lanes>(x, d, row, tile);
#endif
    for (int r = 0; r < Lanes; ++r)
        for (std::int64_t j = j0; j < d; ++j) tile[j][r] = x[row[r] * d + j];
}

// Stores row r's answer: label, squared distance and, when asked, its bounds. best and
// second are the searched values (fast mode: without the row's |x|^2).
inline void storeTileRow(const TileJob& job, std::int64_t row, float best, float second, int label, bool exact)
{
    using namespace detail;
    float d2 = best;
    float d2second = second;
    if (!exact) {
        const float norm = job.rowNorms[row];
        d2 = norm + d2 > 0.f ? norm + d2 : 0.f;
        d2second = norm + d2second > 0.f ? norm + d2second : 0.f;
    }
    if (job.keepNearer && !(d2 < job.dist[row])) return;
    job.labels[row] = job.labelOffset + label;
    job.dist[row] = d2;
    if (job.upper)
        storeBounds(job.upper, job.lower, row, d2, d2second,
                    exact ? 0.f : expansionSlack(job.d, job.rowNorms[row], job.maxCentroidNorm));
}

// Portable: Lanes rows, Step centroids at a time, as arrays the compiler vectorises
// for the instruction set of its caller (Avx: the caller runs with AVX2).
template <int Lanes, int Step, bool Exact, bool Avx>
struct TileNearestT {
    const TileJob& job;

    void operator()(std::int64_t call) const
    {
        std::int64_t row[Lanes];
        const int n = tileRows(job, call, row);
        prefetchTile<Lanes>(job, call + kPrefetchCalls);
        alignas(64) float tile[kTileDims][Lanes];
        transposeRows<Lanes, Avx>(job.x, job.d, row, tile);
        float best[Lanes];
        float second[Lanes];
        int label[Lanes];
        for (int r = 0; r < Lanes; ++r) {
            best[r] = detail::positiveInfinity();
            second[r] = detail::positiveInfinity();
            label[r] = 0;
        }
        const int k = job.k;
        for (int c0 = 0; c0 < k; c0 += Step) {
            float acc[Step][Lanes];
            const float* centre[Step];
            for (int s = 0; s < Step; ++s) {
                centre[s] = job.centroids + static_cast<std::int64_t>(c0 + s < k ? c0 + s : k - 1) * job.d;
                for (int r = 0; r < Lanes; ++r) acc[s][r] = 0.f;
            }
            for (std::int64_t j = 0; j < job.d; ++j) {
                for (int s = 0; s < Step; ++s) {
                    const float c = centre[s][j];
                    CD_LANES
                    for (int r = 0; r < Lanes; ++r) {
                        if constexpr (Exact) {
                            const float t = tile[j][r] - c;
                            acc[s][r] = fmaf(t, t, acc[s][r]);
                        } else {
                            acc[s][r] = fmaf(tile[j][r], c, acc[s][r]);
                        }
                    }
                }
            }
            for (int s = 0; s < Step && c0 + s < k; ++s) {
                const float norm = Exact ? 0.f : job.centroidNorms[c0 + s];
                CD_LANES
                for (int r = 0; r < Lanes; ++r) {
                    const float v = Exact ? acc[s][r] : norm - 2.f * acc[s][r];
                    const bool better = v < best[r];
                    second[r] = better ? best[r] : (v < second[r] ? v : second[r]);
                    label[r] = better ? c0 + s : label[r];
                    best[r] = better ? v : best[r];
                }
            }
        }
        for (int r = 0; r < n; ++r) storeTileRow(job, row[r], best[r], second[r], label[r], Exact);
    }
};

#if defined(CD_HAVE_X86_TILES)
// storeTileRow for the 16 consecutive rows from `first`, in vector registers: the same
// operations in the same order (max_ps(a, 0) is a > 0 ? a : 0), so the same bits. Row
// by row, the square roots and bounds cost a tenth of the search.
template <bool Exact>
CD_TARGET_AVX512 inline void storeSixteenRowsAvx512(const TileJob& job, std::int64_t first, __m512 best, __m512 second,
                                                    __m512i label)
{
    const __m512 zero = _mm512_setzero_ps();
    __m512 d2 = best;
    __m512 d2second = second;
    __m512 slack = zero;
    if constexpr (!Exact) {
        const __m512 norm = _mm512_loadu_ps(job.rowNorms + first);
        d2 = _mm512_max_ps(_mm512_add_ps(norm, d2), zero);
        d2second = _mm512_max_ps(_mm512_add_ps(norm, d2second), zero);
        // expansionSlack: (d + 2) * 2^-22 * (|x|^2 + max |c|^2), left to right.
        const float perUnit = static_cast<float>(job.d + 2) * 2.3841858e-7f;
        slack = _mm512_mul_ps(_mm512_set1_ps(perUnit), _mm512_add_ps(norm, _mm512_set1_ps(job.maxCentroidNorm)));
    }
    _mm512_storeu_si512(job.labels + first, _mm512_add_epi32(label, _mm512_set1_epi32(job.labelOffset)));
    _mm512_storeu_ps(job.dist + first, d2);
    if (!job.upper) return;
    // storeBounds: roundedUp(sqrt(nearest + slack)), roundedDown(sqrt(max(second - slack, 0))).
    const __m512 ulps = _mm512_set1_ps(2.3841858e-7f);
    const __m512 tiny = _mm512_set1_ps(1e-30f);
    const __m512 up = _mm512_sqrt_ps(_mm512_add_ps(d2, slack));
    _mm512_storeu_ps(job.upper + first, _mm512_add_ps(up, _mm512_add_ps(_mm512_mul_ps(_mm512_abs_ps(up), ulps), tiny)));
    const __m512 down = _mm512_sqrt_ps(_mm512_max_ps(_mm512_sub_ps(d2second, slack), zero));
    _mm512_storeu_ps(job.lower + first, _mm512_sub_ps(down, _mm512_add_ps(_mm512_mul_ps(_mm512_abs_ps(down), ulps), tiny)));
}

// AVX-512: 32 rows (two zmm per dimension) x 6 centroids = 12 accumulators, the
// centroid broadcast from memory; the fold uses compare masks. Same arithmetic and
// selects as TileNearestT: _mm512_min_ps(v, s) is (v < s ? v : s).
template <bool Exact>
CD_TARGET_AVX512 inline void nearestTileAvx512(const TileJob& job, std::int64_t call)
{
    constexpr int kVectors = 2;
    constexpr int kLanes = 16 * kVectors;
    constexpr int kStep = 6;
    std::int64_t row[kLanes];
    const int n = tileRows(job, call, row);
    alignas(64) float tile[kTileDims][kLanes];
    transposeRows<kLanes, true>(job.x, job.d, row, tile);
    __m512 best[kVectors];
    __m512 second[kVectors];
    __m512i label[kVectors];
    for (int h = 0; h < kVectors; ++h) {
        best[h] = _mm512_set1_ps(detail::positiveInfinity());
        second[h] = best[h];
        label[h] = _mm512_setzero_si512();
    }
    const int k = job.k;
    const std::int64_t d = job.d;
    prefetchTile<kLanes>(job, call + kPrefetchCalls);
    for (int c0 = 0; c0 < k; c0 += kStep) {
        __m512 acc[kStep][kVectors];
        const float* centre[kStep];
        for (int s = 0; s < kStep; ++s) {
            centre[s] = job.centroids + static_cast<std::int64_t>(c0 + s < k ? c0 + s : k - 1) * d;
            for (int h = 0; h < kVectors; ++h) acc[s][h] = _mm512_setzero_ps();
        }
        for (std::int64_t j = 0; j < d; ++j) {
            __m512 t[kVectors];
            for (int h = 0; h < kVectors; ++h) t[h] = _mm512_load_ps(&tile[j][16 * h]);
            for (int s = 0; s < kStep; ++s) {
                const __m512 c = _mm512_set1_ps(centre[s][j]);
                for (int h = 0; h < kVectors; ++h) {
                    if constexpr (Exact) {
                        const __m512 diff = _mm512_sub_ps(t[h], c);
                        acc[s][h] = _mm512_fmadd_ps(diff, diff, acc[s][h]);
                    } else {
                        acc[s][h] = _mm512_fmadd_ps(t[h], c, acc[s][h]);
                    }
                }
            }
        }
        for (int s = 0; s < kStep && c0 + s < k; ++s) {
            const __m512 norm = _mm512_set1_ps(Exact ? 0.f : job.centroidNorms[c0 + s]);
            const __m512i candidate = _mm512_set1_epi32(c0 + s);
            for (int h = 0; h < kVectors; ++h) {
                const __m512 v = Exact ? acc[s][h] : _mm512_sub_ps(norm, _mm512_mul_ps(_mm512_set1_ps(2.f), acc[s][h]));
                const __mmask16 better = _mm512_cmp_ps_mask(v, best[h], _CMP_LT_OQ);
                second[h] = _mm512_mask_blend_ps(better, _mm512_min_ps(v, second[h]), best[h]);
                label[h] = _mm512_mask_blend_epi32(better, label[h], candidate);
                best[h] = _mm512_mask_blend_ps(better, best[h], v);
            }
        }
    }
    if (n == kLanes && !job.rowIndex && !job.keepNearer) {
        for (int h = 0; h < kVectors; ++h)
            storeSixteenRowsAvx512<Exact>(job, call * kLanes + 16 * h, best[h], second[h], label[h]);
        return;
    }
    alignas(64) float bestOut[kLanes];
    alignas(64) float secondOut[kLanes];
    alignas(64) std::int32_t labelOut[kLanes];
    for (int h = 0; h < kVectors; ++h) {
        _mm512_store_ps(bestOut + 16 * h, best[h]);
        _mm512_store_ps(secondOut + 16 * h, second[h]);
        _mm512_store_si512(labelOut + 16 * h, label[h]);
    }
    for (int r = 0; r < n; ++r) storeTileRow(job, row[r], bestOut[r], secondOut[r], labelOut[r], Exact);
}
#endif

}  // namespace clusterdesk::kernels::host
