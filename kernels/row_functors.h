// Single-source compute: every functor here is compiled by g++ into the host backend
// (run by Thrust's OpenMP system or plain OpenMP loops) and by nvcc into the CUDA
// backend. Whatever decides a label or a sum lives here once, so the CUDA selftest
// compares the same arithmetic on two devices.
//
// Exact-mode rules kept by every functor: distances accumulate over dimensions in
// index order with an explicit fmaf and nothing that the compiler may contract;
// ties go to the lowest index; sums are 64-bit integers.
#pragma once

#include <cmath>
#include <cstdint>

#if defined(__CUDACC__)
#define CD_HD __host__ __device__
#else
#define CD_HD
#endif

// Lanes that repeat the same scalar sequence independently: the host compiler turns
// them into SIMD lanes (IEEE fma per lane gives the same bits as scalar fmaf); on the
// device each thread runs them as a register array.
#if defined(__CUDACC__)
#define CD_LANES
#define CD_LANES_MIN(var)
#else
#define CD_LANES _Pragma("omp simd")
#define CD_LANES_MIN(var) _Pragma(CD_STRINGIFY(omp simd reduction(min : var)))
#define CD_STRINGIFY(x) #x
#endif

namespace clusterdesk::kernels::detail {

// Accumulator lanes advanced together by the exact nearest-centroid functor: each
// lane repeats the scalar sequence, so the block size changes speed, never bits.
inline constexpr int kExactBlock = 16;

CD_HD inline float positiveInfinity()
{
    return __builtin_huge_valf();
}

// Hamerly bounds are rounded outward, so that no rounding can tighten them: an upper
// bound never rounds down, a lower bound never up, however many updates pile up.
// Moving by |v| 2^-22 (at least two ulps, plus a denormal for 0) beats nextafterf,
// a library call, on every row of every iteration.
CD_HD inline float roundedUp(float v)
{
    return v + (fabsf(v) * 2.3841858e-7f + 1e-30f);
}

CD_HD inline float roundedDown(float v)
{
    return v - (fabsf(v) * 2.3841858e-7f + 1e-30f);
}

// Bounds from the squared distances to the nearest and second nearest centroid, each
// known to within `slack` (0 for the exact functor; the expansion |x|^2 - 2x.c + |c|^2
// of fast mode errs by up to a few d ulps of |x|^2 + |c|^2).
CD_HD inline void storeBounds(float* upper, float* lower, std::int64_t i, float nearest, float second, float slack)
{
    upper[i] = roundedUp(sqrtf(nearest + slack));
    const float low = second - slack;
    lower[i] = roundedDown(sqrtf(low > 0.f ? low : 0.f));
}

CD_HD inline float expansionSlack(std::int64_t d, float rowNorm, float maxCentroidNorm)
{
    return static_cast<float>(d + 2) * 2.3841858e-7f * (rowNorm + maxCentroidNorm);  // (d + 2) * 2^-22
}

// Conversion to 64-bit fixed point, truncating toward zero: one instruction on both
// devices (cvttsd2si / __double2ll_rz), and the same integer everywhere. The scales
// are powers of two, so value is exact and only the truncation rounds.
CD_HD inline std::int64_t toFixed(double value)
{
    // Out of range only on data the engine refuses; clamped so both devices agree anyway.
    if (!(value < 9.2e18)) return value > 0 ? INT64_MAX : 0;
    if (!(value > -9.2e18)) return INT64_MIN;
    return static_cast<std::int64_t>(value);
}

// SplitMix64 finaliser: a counter-based generator, so row i of round r draws the
// same number whichever shard or device holds it.
CD_HD inline std::uint64_t mix64(std::uint64_t z)
{
    z += 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

// Uniform double in (0, 1] for (seed, round, row).
CD_HD inline double counterUniform(std::uint64_t seed, std::uint64_t round, std::uint64_t row)
{
    const std::uint64_t h = mix64(seed ^ mix64(round ^ mix64(row)));
    return static_cast<double>((h >> 11) + 1) * (1.0 / 9007199254740992.0);
}

// The exact-mode squared distance: dimension order fixed, one rounding per step.
CD_HD inline float exactSquaredDistance(const float* x, const float* c, std::int64_t d)
{
    float acc = 0.f;
    for (std::int64_t j = 0; j < d; ++j) {
        const float t = x[j] - c[j];
        acc = fmaf(t, t, acc);
    }
    return acc;
}

// Folds a block of candidate values (labels firstLabel ..) into a running minimum,
// its label and the second minimum, exactly as a scalar scan with strict `<` would:
// ties keep the lower label. Done as vector reductions, not a compare per candidate:
// which candidate wins is unpredictable, and branches on it cost more than the search.
CD_HD inline void foldTwoSmallest(const float* v, int count, int firstLabel, float& best, float& second, int& bestLabel)
{
    float blockMin = positiveInfinity();
    CD_LANES_MIN(blockMin)
    for (int b = 0; b < count; ++b) blockMin = v[b] < blockMin ? v[b] : blockMin;
    int at = 0;
    while (at < count && !(v[at] == blockMin)) ++at;
    float blockSecond = positiveInfinity();
    CD_LANES_MIN(blockSecond)
    for (int b = 0; b < count; ++b) blockSecond = (b != at && v[b] < blockSecond) ? v[b] : blockSecond;
    if (blockMin < best) {
        second = best < blockSecond ? best : blockSecond;
        best = blockMin;
        bestLabel = firstLabel + at;
    } else {
        second = blockMin < second ? blockMin : second;
    }
}

// Nearest centroid per row, register-blocked. Centroids come transposed (d x kPadded,
// kPadded a multiple of Lanes, padding ignored) so that Lanes accumulators read
// contiguous memory. One call handles Rows rows (call index i covers list entries
// i*Rows ..): Rows x Lanes independent fma chains hide the fma latency on the host;
// the device uses Rows = 1. Neither changes a bit of the result.
// Exact: exactSquaredDistance's arithmetic per (row, centroid). Fast: the expansion
// |x|^2 - 2 x.c + |c|^2 with the dot products fused, no rows x k block written.
// Optional: rowIndex (search only the listed rows, else rows 0..rows-1), and upper /
// lower (Hamerly bounds: distance to the nearest and to the second nearest centroid).
template <int Lanes = kExactBlock, int Rows = 1, bool Exact = true>
struct BlockedNearestT {
    const float* x;
    std::int64_t d;
    const float* centroidsT;
    int k;
    int kPadded;
    std::int64_t rows;  // rows to search (length of rowIndex when given)
    std::int32_t* labels;
    float* dist;
    const std::int64_t* rowIndex = nullptr;
    float* upper = nullptr;
    float* lower = nullptr;
    const float* centroidNorms = nullptr;  // fast: kPadded
    const float* rowNorms = nullptr;       // fast
    float maxCentroidNorm = 0.f;           // fast with upper: for the bounds' rounding allowance
    bool keepNearer = false;               // k-means||: keep the stored label unless this batch is nearer
    int labelOffset = 0;                   // label of the batch's first centroid

    CD_HD void operator()(std::int64_t call) const
    {
        const std::int64_t first = call * Rows;
        const int count = rows - first < Rows ? static_cast<int>(rows - first) : Rows;
        float best[Rows];
        float second[Rows];
        int bestLabel[Rows];
        std::int64_t row[Rows];
        const float* xr[Rows];
        for (int r = 0; r < Rows; ++r) {
            best[r] = positiveInfinity();
            second[r] = positiveInfinity();
            bestLabel[r] = 0;
            // A short last call repeats its first row: harmless, never stored.
            const std::int64_t entry = first + (r < count ? r : 0);
            row[r] = rowIndex ? rowIndex[entry] : entry;
            xr[r] = x + row[r] * d;
        }
        for (int c0 = 0; c0 < kPadded; c0 += Lanes) {
            float acc[Rows][Lanes];
            for (int r = 0; r < Rows; ++r)
                for (int b = 0; b < Lanes; ++b) acc[r][b] = 0.f;
            for (std::int64_t j = 0; j < d; ++j) {
                const float* cj = centroidsT + j * kPadded + c0;
                float xj[Rows];
                for (int r = 0; r < Rows; ++r) xj[r] = xr[r][j];
                CD_LANES
                for (int b = 0; b < Lanes; ++b) {
                    const float c = cj[b];  // loaded once for all rows of the call
                    for (int r = 0; r < Rows; ++r) {
                        if constexpr (Exact) {
                            const float t = xj[r] - c;
                            acc[r][b] = fmaf(t, t, acc[r][b]);
                        } else {
                            acc[r][b] = fmaf(xj[r], c, acc[r][b]);
                        }
                    }
                }
            }
            for (int r = 0; r < Rows; ++r) {
                const int valid = k - c0 < Lanes ? k - c0 : Lanes;
                if constexpr (!Exact) {
                    CD_LANES
                    for (int b = 0; b < Lanes; ++b) acc[r][b] = centroidNorms[c0 + b] - 2.f * acc[r][b];
                }
                foldTwoSmallest(acc[r], valid, c0, best[r], second[r], bestLabel[r]);
            }
        }
        for (int r = 0; r < count; ++r) {
            float nearest = best[r];
            float next = second[r];
            float slack = 0.f;
            if constexpr (!Exact) {
                const float norm = rowNorms[row[r]];
                nearest = norm + nearest > 0.f ? norm + nearest : 0.f;
                next = norm + next;
                slack = expansionSlack(d, norm, maxCentroidNorm);
            }
            if (keepNearer && !(nearest < dist[row[r]])) continue;
            labels[row[r]] = labelOffset + bestLabel[r];
            dist[row[r]] = nearest;
            if (upper) storeBounds(upper, lower, row[r], nearest, next, slack);
        }
    }
};

template <int Lanes = kExactBlock, int Rows = 1>
using ExactNearestT = BlockedNearestT<Lanes, Rows, true>;
template <int Lanes = kExactBlock, int Rows = 1>
using FastNearestT = BlockedNearestT<Lanes, Rows, false>;
using ExactNearest = ExactNearestT<>;

// Fast mode: the argmin fused onto a GEMM block. dots holds x.c for rows
// [first, first + rowsInBlock) with row stride k; distance = |x|^2 - 2 x.c + |c|^2.
// upper / lower, when given, receive the Hamerly bounds (nearest, second nearest).
struct FastArgmin {
    const float* dots;
    const float* rowNorms;
    const float* centroidNorms;
    int k;
    std::int64_t first;
    std::int32_t* labels;
    float* dist;
    float* upper = nullptr;
    float* lower = nullptr;
    std::int64_t d = 0;           // with upper: the dimensions and largest |c|^2, for the
    float maxCentroidNorm = 0.f;  // bounds' allowance for the expansion's rounding

    CD_HD void operator()(std::int64_t r) const
    {
        const float* row = dots + r * k;
        float best = positiveInfinity();
        float second = positiveInfinity();
        int bestLabel = 0;
        for (int c = 0; c < k; ++c) {
            const float value = centroidNorms[c] - 2.f * row[c];
            const bool better = value < best;
            second = better ? best : (value < second ? value : second);
            bestLabel = better ? c : bestLabel;
            best = better ? value : best;
        }
        const float norm = rowNorms[first + r];
        const float d2 = norm + best > 0.f ? norm + best : 0.f;
        labels[first + r] = bestLabel;
        dist[first + r] = d2;
        if (upper) storeBounds(upper, lower, first + r, d2, norm + second, expansionSlack(d, norm, maxCentroidNorm));
    }
};

// Relative slack on Hamerly bound tests: float distances over d dimensions are
// within a few d ulps of the real ones, and a row is only skipped when its bounds
// clear the test by more than that, so skipping never changes a label.
CD_HD inline float boundsMargin(std::int64_t d)
{
    return 1e-5f + 8.f * static_cast<float>(d) * 5.9604645e-8f;
}

// Hamerly step after the centroids moved, for row i, without reading the row: the
// upper bound grows by its centroid's move, the lower bound shrinks by the largest
// move of any other centroid. If the row's centroid still provably wins (upper < max(lower, half the gap
// from its centroid to the nearest other)) the row is settled; otherwise it is
// flagged for TightenBound.
struct BoundedCheck {
    const float* shift;
    const float* halfGap;
    const float* otherShift;
    float margin;
    const std::int32_t* labels;
    float* upper;
    float* lower;
    std::uint8_t* flagged;

    // Row i's bounds after the move (l, u), and whether its centroid may have lost.
    CD_HD bool inDoubt(std::int64_t i, float& l, float& u) const
    {
        const std::int32_t a = labels[i];
        l = roundedDown(lower[i] - otherShift[a]);
        u = roundedUp(upper[i] + shift[a]);
        return !(u * (1.f + margin) < (l > halfGap[a] ? l : halfGap[a]) * (1.f - margin));
    }

    CD_HD void operator()(std::int64_t i) const
    {
        float l, u;
        flagged[i] = inDoubt(i, l, u) ? 1 : 0;
        lower[i] = l;
        upper[i] = u;
    }
};

// Stores each row's exact squared distance to its labelled centroid. With bounds
// (upper != null, for rows BoundedCheck flagged) the upper bound becomes that distance
// and the test is repeated; rows that still fail stay flagged for a full search.
// rowIndex lists the rows (null: rows 0..count-1). One call takes Rows rows, their
// fma chains interleaved (one chain alone would wait on every fma's latency).
template <int Rows = 1>
struct TightenBoundT {
    const float* x;
    std::int64_t d;
    const float* centroids;  // k x d, row-major
    const float* halfGap;
    float margin;
    const std::int64_t* rowIndex;
    std::int64_t count;
    const std::int32_t* labels;
    float* dist;
    float* upper = nullptr;
    const float* lower = nullptr;
    std::uint8_t* flagged = nullptr;

    CD_HD void operator()(std::int64_t call) const
    {
        const std::int64_t first = call * Rows;
        const int n = count - first < Rows ? static_cast<int>(count - first) : Rows;
        std::int64_t row[Rows];
        const float* xr[Rows];
        const float* cr[Rows];
        float acc[Rows];
        for (int r = 0; r < Rows; ++r) {
            const std::int64_t entry = first + (r < n ? r : 0);
            row[r] = rowIndex ? rowIndex[entry] : entry;
            xr[r] = x + row[r] * d;
            cr[r] = centroids + static_cast<std::int64_t>(labels[row[r]]) * d;
            acc[r] = 0.f;
        }
        for (std::int64_t j = 0; j < d; ++j) {
            for (int r = 0; r < Rows; ++r) {
                const float t = xr[r][j] - cr[r][j];
                acc[r] = fmaf(t, t, acc[r]);
            }
        }
        for (int r = 0; r < n; ++r) {
            const std::int64_t i = row[r];
            dist[i] = acc[r];
            if (!upper) continue;
            const float u = roundedUp(sqrtf(acc[r]));
            const float l = lower[i];
            const float gap = halfGap[labels[i]];
            upper[i] = u;
            flagged[i] = u * (1.f + margin) < (l > gap ? l : gap) * (1.f - margin) ? 0 : 1;
        }
    }
};

using TightenBound = TightenBoundT<>;

// Split tests: nearer of the two children of the row's cluster (exact distance in
// both modes; two distances per row cost little).
struct SplitNearest {
    const float* x;
    std::int64_t d;
    const float* children;
    const std::int32_t* labels;
    std::uint8_t* child;
    float* childDist;

    CD_HD void operator()(std::int64_t i) const
    {
        const float* xi = x + i * d;
        const float* c0 = children + static_cast<std::int64_t>(labels[i]) * 2 * d;
        const float d0 = exactSquaredDistance(xi, c0, d);
        const float d1 = exactSquaredDistance(xi, c0 + d, d);
        child[i] = d1 < d0 ? 1 : 0;
        childDist[i] = d1 < d0 ? d1 : d0;
    }
};

// k-means++ step: keep the nearer of the stored centre and the new one. One call
// takes Rows consecutive rows whose distance chains interleave (the host uses 8; one
// chain alone would wait on every fma's latency); the arithmetic per row is
// exactSquaredDistance's.
template <int Rows = 1>
struct UpdateNearestT {
    const float* x;
    std::int64_t d;
    const float* centre;
    int label;
    std::int64_t rows;
    std::int32_t* labels;
    float* dist;

    CD_HD void operator()(std::int64_t call) const
    {
        const std::int64_t first = call * Rows;
        const int n = rows - first < Rows ? static_cast<int>(rows - first) : Rows;
        const float* xr[Rows];
        float acc[Rows];
        for (int r = 0; r < Rows; ++r) {
            xr[r] = x + (first + (r < n ? r : 0)) * d;
            acc[r] = 0.f;
        }
        for (std::int64_t j = 0; j < d; ++j) {
            for (int r = 0; r < Rows; ++r) {
                const float t = xr[r][j] - centre[j];
                acc[r] = fmaf(t, t, acc[r]);
            }
        }
        for (int r = 0; r < n; ++r) {
            if (acc[r] < dist[first + r]) {
                dist[first + r] = acc[r];
                labels[first + r] = label;
            }
        }
    }
};

using UpdateNearest = UpdateNearestT<>;

// |x|^2 for one row: an fma chain over dimensions in order, the arithmetic of every
// squared norm the kernels store or use (RowNormT, TrackedSumRow).
CD_HD inline float squaredNormOf(const float* xi, std::int64_t d)
{
    float acc = 0.f;
    for (std::int64_t j = 0; j < d; ++j) acc = fmaf(xi[j], xi[j], acc);
    return acc;
}

// Squared L2 norm of row i, dimension order fixed.
template <int Rows = 1>
struct RowNormT {
    const float* x;
    std::int64_t d;
    float* out;
    std::int64_t rows = 0;  // Rows > 1: rows in all (call i covers rows i*Rows ..)

    CD_HD void operator()(std::int64_t call) const
    {
        if constexpr (Rows == 1) {
            out[call] = squaredNormOf(x + call * d, d);
        } else {
            // Rows fma chains interleaved: one chain alone waits on every fma's latency.
            const std::int64_t first = call * Rows;
            const int count = rows - first < Rows ? static_cast<int>(rows - first) : Rows;
            float acc[Rows];
            const float* xr[Rows];
            for (int r = 0; r < Rows; ++r) {
                acc[r] = 0.f;
                xr[r] = x + (first + (r < count ? r : 0)) * d;  // spare chains repeat a row, never stored
            }
            for (std::int64_t j = 0; j < d; ++j)
                for (int r = 0; r < Rows; ++r) acc[r] = fmaf(xr[r][j], xr[r][j], acc[r]);
            for (int r = 0; r < count; ++r) out[first + r] = acc[r];
        }
    }
};
using RowNorm = RowNormT<1>;

// Sampling weight of row i: its stored squared distance in fixed point.
struct FixedWeight {
    const float* dist;
    double scale;

    CD_HD std::int64_t operator()(std::int64_t i) const
    {
        return toFixed(static_cast<double>(dist[i]) * scale);
    }
};

// Greedy k-means++ trials, up to kTrialLanes candidates at once: per candidate, the
// total fixed-point weight the rows would have were it added (each row the nearer of
// its stored distance and the candidate's). A lane per candidate, each an fma chain in
// UpdateNearest's order, so a trial's total is the one the chosen centre then leaves;
// Rows rows per call hide the fma latency on the host, the device uses Rows = 1.
inline constexpr int kTrialLanes = 8;

struct TrialTotals {
    std::int64_t weight[kTrialLanes];
};

struct AddTrialTotals {
    CD_HD TrialTotals operator()(const TrialTotals& a, const TrialTotals& b) const
    {
        TrialTotals sum;
        for (int t = 0; t < kTrialLanes; ++t) sum.weight[t] = a.weight[t] + b.weight[t];
        return sum;
    }
};

template <int Rows = 1>
struct TrialWeightsT {
    const float* x;
    std::int64_t d;
    std::int64_t rows;
    const float* centresT;  // d x kTrialLanes: candidate t's value j at j * kTrialLanes + t
    int count;              // candidates in use (<= kTrialLanes); the other lanes are ignored
    const float* dist;
    double scale;

    CD_HD TrialTotals operator()(std::int64_t call) const
    {
        const std::int64_t first = call * Rows;
        const int n = rows - first < Rows ? static_cast<int>(rows - first) : Rows;
        float acc[Rows][kTrialLanes];
        const float* xr[Rows];
        for (int r = 0; r < Rows; ++r) {
            xr[r] = x + (first + (r < n ? r : 0)) * d;  // a short last call repeats its first row, never counted
            for (int t = 0; t < kTrialLanes; ++t) acc[r][t] = 0.f;
        }
        for (std::int64_t j = 0; j < d; ++j) {
            const float* cj = centresT + j * kTrialLanes;
            for (int r = 0; r < Rows; ++r) {
                const float xj = xr[r][j];
                CD_LANES
                for (int t = 0; t < kTrialLanes; ++t) {
                    const float diff = xj - cj[t];
                    acc[r][t] = fmaf(diff, diff, acc[r][t]);
                }
            }
        }
        TrialTotals out;
        for (int t = 0; t < kTrialLanes; ++t) out.weight[t] = 0;
        for (int r = 0; r < n; ++r) {
            const float stored = dist[first + r];
            for (int t = 0; t < count; ++t) {
                const float nearest = acc[r][t] < stored ? acc[r][t] : stored;
                out.weight[t] += toFixed(static_cast<double>(nearest) * scale);
            }
        }
        return out;
    }
};

// k-means|| keeps row i when u(seed, round, row) * total < factor * weight.
struct OversampleKeep {
    const float* dist;
    double scale;
    double factor;
    double total;
    std::uint64_t seed;
    std::uint64_t round;
    std::int64_t firstGlobalRow;

    CD_HD bool operator()(std::int64_t i) const
    {
        const double weight = static_cast<double>(toFixed(static_cast<double>(dist[i]) * scale));
        const double u = counterUniform(seed, round, static_cast<std::uint64_t>(firstGlobalRow + i));
        return u * total < factor * weight;
    }
};

// Where per-cluster sums of one row go. Add is the backend's adder: plain += into
// thread-private arrays on the host, atomicAdd on the device.
struct SumTarget {
    std::int64_t* counts;
    double* sums;           // fast
    double* distSums;       // fast
    std::int64_t* fixedSums;  // exact
    std::int64_t* fixedDist;  // exact
    const double* scale;    // exact: per dimension
    double distScale;       // exact
    std::int64_t d;
    bool exact;
};

// Adds row i under its cluster (or split child) to target.
template <class Add>
struct ClusterSumRow {
    const float* x;
    std::int64_t d;
    const std::int32_t* labels;
    const std::uint8_t* child;  // null: accumulate by cluster
    const float* dist;          // the distance that matches the label source
    SumTarget target;
    Add add;
    bool coordinates = true;    // false: counts and distances only

    CD_HD void operator()(std::int64_t i) const
    {
        const std::int64_t g = child ? static_cast<std::int64_t>(labels[i]) * 2 + child[i] : labels[i];
        const float* xi = x + i * d;
        add(target.counts + g, std::int64_t{1});
        if (target.exact) {
            add(target.fixedDist + g, toFixed(static_cast<double>(dist[i]) * target.distScale));
            if (!coordinates) return;
            std::int64_t* out = target.fixedSums + g * d;
            for (std::int64_t j = 0; j < d; ++j) add(out + j, toFixed(static_cast<double>(xi[j]) * target.scale[j]));
        } else {
            add(target.distSums + g, static_cast<double>(dist[i]));
            if (!coordinates) return;
            double* out = target.sums + g * d;
            for (std::int64_t j = 0; j < d; ++j) add(out + j, static_cast<double>(xi[j]));
        }
    }
};

// Moves row i's contribution (count, x, |x|^2) from the cluster it is counted under
// to its current label; with restart, counts it afresh. Add is the backend's adder.
template <class Add>
struct TrackedSumRow {
    const float* x;
    std::int64_t d;
    const std::int32_t* labels;
    std::int32_t* countedUnder;
    bool restart;
    SumTarget target;
    Add add;
    const float* norms = nullptr;  // the rows' |x|^2 (RowNormT), or null: computed here

    CD_HD void operator()(std::int64_t i) const
    {
        const std::int32_t now = labels[i];
        if (!restart && countedUnder[i] == now) return;
        const float* xi = x + i * d;
        const float norm = norms ? norms[i] : squaredNormOf(xi, d);
        if (!restart) contribute(countedUnder[i], xi, norm, -1);
        contribute(now, xi, norm, 1);
        countedUnder[i] = now;
    }

    CD_HD void contribute(std::int64_t g, const float* xi, float norm, int sign) const
    {
        add(target.counts + g, std::int64_t{sign});
        if (target.exact) {
            add(target.fixedDist + g, sign * toFixed(static_cast<double>(norm) * target.distScale));
            std::int64_t* out = target.fixedSums + g * d;
            for (std::int64_t j = 0; j < d; ++j) add(out + j, sign * toFixed(static_cast<double>(xi[j]) * target.scale[j]));
        } else {
            add(target.distSums + g, sign * static_cast<double>(norm));
            double* out = target.sums + g * d;
            for (std::int64_t j = 0; j < d; ++j) add(out + j, sign * static_cast<double>(xi[j]));
        }
    }
};

// Power-iteration contribution of row i: ((x - m) . v) * (x - m) for its cluster.
template <class Add>
struct ProjectedSumRow {
    const float* x;
    std::int64_t d;
    const std::int32_t* labels;
    const float* means;
    const float* axes;
    SumTarget target;
    Add add;

    CD_HD void operator()(std::int64_t i) const
    {
        const std::int64_t g = labels[i];
        const float* xi = x + i * d;
        const float* m = means + g * d;
        const float* v = axes + g * d;
        float s = 0.f;
        for (std::int64_t j = 0; j < d; ++j) s = fmaf(xi[j] - m[j], v[j], s);
        if (target.exact) {
            std::int64_t* out = target.fixedSums + g * d;
            for (std::int64_t j = 0; j < d; ++j) {
                const float contribution = s * (xi[j] - m[j]);
                add(out + j, toFixed(static_cast<double>(contribution) * target.scale[j]));
            }
        } else {
            double* out = target.sums + g * d;
            for (std::int64_t j = 0; j < d; ++j) add(out + j, static_cast<double>(s) * (xi[j] - m[j]));
        }
    }
};

}  // namespace clusterdesk::kernels::detail
