// The CUDA backend: the row functors of row_functors.h run by Thrust's CUDA system on
// one device, fast-mode distances through cuBLAS. It mirrors host/host_backend.cpp call
// for call with the same functors, so the selftest compares the same arithmetic; where
// the two must differ (GEMM library, how sums are spread over threads), it says why.
//
// Every public method takes the backend's lock, makes its device current for the
// calling thread (and restores the previous one), and returns only when the work on
// the backend's stream is done: per-phase timings and errors belong to the call that
// caused them.
#include "kernels/backend.h"
#include "kernels/cuda/cuda_common.h"
#include "kernels/cuda/cuda_plugin.h"
#include "kernels/row_functors.h"

#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <dlfcn.h>

#include <thrust/binary_search.h>
#include <thrust/copy.h>
#include <thrust/execution_policy.h>
#include <thrust/fill.h>
#include <thrust/for_each.h>
#include <thrust/functional.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/scan.h>
#include <thrust/transform.h>
#include <thrust/transform_reduce.h>

#include <algorithm>
#include <climits>
#include <cstdio>
#include <limits>
#include <mutex>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#define CD_EXPORT __attribute__((visibility("default")))

namespace clusterdesk::kernels::cuda {
namespace {

using detail::kExactBlock;
using Index = std::int64_t;
using Cell = unsigned long long;  // one 8-byte slot of a partial sum: int64 or double bits

// Fast mode: rows per GEMM block, and a cap on the rows x k dots block it produces, so
// that n x k is never materialised for large n (nor for large k).
constexpr Index kMaxGemmRows = 65536;
constexpr Index kMaxDotsFloats = Index{1} << 26;  // 256 MiB
// Accumulation: threads per block, and the per-block private sums that fit in the
// shared memory every device grants without opting in.
constexpr int kSumThreads = 256;
constexpr std::size_t kMaxSharedSumBytes = 48 * 1024;

thrust::counting_iterator<Index> rowIndex(Index i)
{
    return thrust::counting_iterator<Index>(i);
}

// count elements of device memory on the device current at allocation.
template <class T>
class DeviceBuffer {
public:
    DeviceBuffer() = default;
    ~DeviceBuffer() { release(); }
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;

    T* data() const { return ptr; }
    std::size_t size() const { return count; }

    // At least n elements; contents are lost when it has to grow.
    void ensure(std::size_t n)
    {
        if (n <= count) return;
        release();
        void* p = nullptr;
        CD_CUDA_CHECK(cudaMalloc(&p, n * sizeof(T)));
        ptr = static_cast<T*>(p);
        count = n;
    }

    void release() noexcept
    {
        if (ptr) cudaFree(ptr);
        ptr = nullptr;
        count = 0;
    }

private:
    T* ptr = nullptr;
    std::size_t count = 0;
};

// Makes a device current for one scope and restores the caller's afterwards.
class DeviceScope {
public:
    explicit DeviceScope(int device)
    {
        CD_CUDA_CHECK(cudaGetDevice(&previous));
        if (previous != device) CD_CUDA_CHECK(cudaSetDevice(device));
        switched = previous != device;
    }
    ~DeviceScope()
    {
        if (switched) cudaSetDevice(previous);
    }
    DeviceScope(const DeviceScope&) = delete;
    DeviceScope& operator=(const DeviceScope&) = delete;

private:
    int previous = 0;
    bool switched = false;
};

// Same as DeviceScope for destructors: never throws, gives up silently.
class QuietDeviceScope {
public:
    explicit QuietDeviceScope(int device)
    {
        switched = cudaGetDevice(&previous) == cudaSuccess && previous != device && cudaSetDevice(device) == cudaSuccess;
    }
    ~QuietDeviceScope()
    {
        if (switched) cudaSetDevice(previous);
    }
    QuietDeviceScope(const QuietDeviceScope&) = delete;
    QuietDeviceScope& operator=(const QuietDeviceScope&) = delete;

private:
    int previous = 0;
    bool switched = false;
};

// The accumulation functors' adder on the device. Integer adds are two's-complement
// (wrapping) additions, associative like the host's, so exact sums do not depend on
// the order the atomics land in; double adds do, which fast mode allows.
struct DeviceAdd {
    CD_HD void operator()(std::int64_t* p, std::int64_t v) const
    {
#if defined(__CUDA_ARCH__)
        atomicAdd(reinterpret_cast<Cell*>(p), static_cast<Cell>(v));
#else
        *p += v;  // not reached: the accumulation kernel is device code only
#endif
    }
    CD_HD void operator()(double* p, double v) const
    {
#if defined(__CUDA_ARCH__)
        atomicAdd(p, v);
#else
        *p += v;
#endif
    }
};

struct ToBf16 {
    CD_HD __nv_bfloat16 operator()(float v) const { return __float2bfloat16_rn(v); }
};

// out[r * d + j] = x[rows[r] * d + j]: element-wise so that reads and writes coalesce.
struct GatherRows {
    const float* x;
    Index d;
    const Index* rows;
    float* out;

    CD_HD void operator()(Index t) const
    {
        const Index r = t / d;
        const Index j = t - r * d;
        out[t] = x[rows[r] * d + j];
    }
};

// TF32 / BF16 only: tensor cores pick the label, then its distance is recomputed from
// the fp32 rows. With inputs rounded to 10 (TF32) or 7 (BF16) mantissa bits, the
// expansion |x|^2 - 2 x.c + |c|^2 loses about 1e-2 (TF32) and 1e-1 (BF16) of a
// distance to cancellation on ordinary data, which would skew inertia, BIC and the
// k-means++ / k-means|| weights; the labels are what reduced precision is for. FP32
// keeps FastArgmin's distance, exactly as the host backend does.
struct RefineDistance {
    const float* x;
    Index d;
    const float* centroids;
    const std::int32_t* labels;
    float* dist;

    CD_HD void operator()(Index i) const
    {
        dist[i] = detail::exactSquaredDistance(x + i * d, centroids + static_cast<Index>(labels[i]) * d, d);
    }
};

// Rows that a BoundedCheck flagged for a full search.
struct Flagged {
    const std::uint8_t* flags;

    CD_HD bool operator()(Index i) const { return flags[i] != 0; }
};

// Max |x| per column. Threads in x walk columns (coalesced), threads in y walk rows;
// one atomicMax per thread on the bits of a non-negative float, which order like ints.
// NaN is skipped the way the host's std::max(m, v) skips it.
__global__ void columnMaxAbsKernel(const float* x, Index n, Index d, float* out)
{
    const Index j = static_cast<Index>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (j >= d) return;
    float m = 0.f;
    const Index stride = static_cast<Index>(gridDim.y) * blockDim.y;
    for (Index i = static_cast<Index>(blockIdx.y) * blockDim.y + threadIdx.y; i < n; i += stride) {
        const float v = fabsf(x[i * d + j]);
        m = m < v ? v : m;
    }
    if (m > 0.f) atomicMax(reinterpret_cast<int*>(out + j), __float_as_int(m));
}

// Runs an accumulation functor (ClusterSumRow / ProjectedSumRow) over all rows. Its
// target lays out groups counts, then groups distance sums, then groups x d coordinate
// sums, 8 bytes each, from `global`. With useShared each block first accumulates into a
// private copy of that layout in shared memory (the same functor, pointed at it), then
// adds the non-zero cells to global: far fewer contended global atomics for small k x d.
template <class Row>
__global__ void accumulateRows(Row row, Index n, bool useShared, Index groups, bool exact, Cell* global)
{
    extern __shared__ Cell privateSums[];
    const Index stride = static_cast<Index>(gridDim.x) * blockDim.x;
    const Index start = static_cast<Index>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (!useShared) {  // uniform over the grid, so no block skips a barrier below
        for (Index i = start; i < n; i += stride) row(i);
        return;
    }
    const Index cells = groups * (row.target.d + 2);
    for (Index c = threadIdx.x; c < cells; c += blockDim.x) privateSums[c] = 0;
    __syncthreads();
    Row local = row;
    local.target.counts = reinterpret_cast<std::int64_t*>(privateSums);
    if (exact) {
        local.target.fixedDist = reinterpret_cast<std::int64_t*>(privateSums + groups);
        local.target.fixedSums = reinterpret_cast<std::int64_t*>(privateSums + 2 * groups);
    } else {
        local.target.distSums = reinterpret_cast<double*>(privateSums + groups);
        local.target.sums = reinterpret_cast<double*>(privateSums + 2 * groups);
    }
    for (Index i = start; i < n; i += stride) local(i);
    __syncthreads();
    for (Index c = threadIdx.x; c < cells; c += blockDim.x) {
        const Cell bits = privateSums[c];
        if (bits == 0) continue;
        if (exact || c < groups) atomicAdd(global + c, bits);
        else atomicAdd(reinterpret_cast<double*>(global + c), __longlong_as_double(static_cast<long long>(bits)));
    }
}

struct CudaShard final : ResidentShard {
    int device = 0;
    Index rowCount = 0;
    Index colCount = 0;
    Index firstRow = 0;
    DeviceBuffer<float> data;               // rows x cols, row-major
    DeviceBuffer<std::int32_t> labels;
    DeviceBuffer<float> dist;
    DeviceBuffer<std::uint8_t> child;       // from the first assignSplit on
    DeviceBuffer<float> childDist;
    DeviceBuffer<float> norms;              // squared row norms, on first need
    DeviceBuffer<__nv_bfloat16> dataBf16;   // on the first BF16 assign
    DeviceBuffer<std::int64_t> scratch;     // prefix sums / kept rows, rows entries
    DeviceBuffer<std::int64_t> searchRows;  // assignBounded: rows left for a full search
    Index inDoubt = 0;                      // assignBounded: flagged rows, at the start of scratch
    Index left = 0;                         // assignBounded: rows left, at the start of searchRows
    DeviceBuffer<float> upper;              // Hamerly bounds, from the first full bounded pass
    DeviceBuffer<float> lower;
    DeviceBuffer<std::uint8_t> needsSearch;
    DeviceBuffer<std::int32_t> countedUnder;  // trackedSums: the label each row is counted under
    PartialSums tracked;                      // trackedSums: running per-cluster sums, on the host
    bool hasTracked = false;
    bool hasNorms = false;
    bool hasBf16 = false;

    ~CudaShard() override
    {
        QuietDeviceScope scope(device);
        data.release();
        labels.release();
        dist.release();
        child.release();
        childDist.release();
        norms.release();
        dataBf16.release();
        scratch.release();
        upper.release();
        lower.release();
        needsSearch.release();
        countedUnder.release();
        searchRows.release();
    }

    Index rows() const override { return rowCount; }
    Index cols() const override { return colCount; }
    Index firstGlobalRow() const override { return firstRow; }
};

std::string describeDevice(const cudaDeviceProp& prop)
{
    char text[512];
    std::snprintf(text, sizeof text, "%s, %.1f GiB, sm_%d%d", prop.name,
                  static_cast<double>(prop.totalGlobalMem) / (1024.0 * 1024.0 * 1024.0), prop.major, prop.minor);
    return text;
}

class CudaBackend final : public Backend {
public:
    explicit CudaBackend(int deviceIndex) : device(deviceIndex), label("cuda:" + std::to_string(deviceIndex))
    {
        DeviceScope scope(device);
        cudaDeviceProp prop{};
        CD_CUDA_CHECK(cudaGetDeviceProperties(&prop, device));
        description = describeDevice(prop);
        smCount = std::max(1, prop.multiProcessorCount);
        // Fails here, with a clear reason, when the plug-in has no code for this GPU.
        cudaFuncAttributes attributes{};
        const cudaError_t image = cudaFuncGetAttributes(&attributes, columnMaxAbsKernel);
        if (image != cudaSuccess) {
            cudaGetLastError();
            throw std::runtime_error(description + ": this plug-in has no code for the GPU (" +
                                     cudaGetErrorString(image) + "); rebuild with its architecture in "
                                     "CMAKE_CUDA_ARCHITECTURES");
        }
        CD_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    }

    ~CudaBackend() override
    {
        QuietDeviceScope scope(device);
        if (stream) cudaStreamSynchronize(stream);
        centroids.release();
        centroidsBf16.release();
        centroidsT.release();
        centroidNorms.release();
        dots.release();
        sums.release();
        scales.release();
        axes.release();
        indices.release();
        gathered.release();
        colMax.release();
        if (blas) cublasDestroy(blas);
        if (stream) cudaStreamDestroy(stream);
    }

    std::string name() const override { return label; }
    std::string deviceName() const override { return description; }

    std::unique_ptr<ResidentShard> uploadImpl(RowsView rows, Index firstGlobalRow) override
    {
        std::lock_guard lock(mutex);
        DeviceScope scope(device);
        auto shard = std::make_unique<CudaShard>();
        shard->device = device;
        shard->rowCount = rows.rows;
        shard->colCount = rows.cols;
        shard->firstRow = firstGlobalRow;
        const auto n = static_cast<std::size_t>(rows.rows);
        const std::size_t cells = n * static_cast<std::size_t>(rows.cols);
        shard->data.ensure(cells);
        toDevice(shard->data.data(), rows.data, cells);
        shard->labels.ensure(n);
        shard->dist.ensure(n);
        if (n > 0) {
            CD_CUDA_CHECK(cudaMemsetAsync(shard->labels.data(), 0, n * sizeof(std::int32_t), stream));
            thrust::fill_n(thrust::cuda::par_nosync.on(stream), shard->dist.data(), n,
                           std::numeric_limits<float>::infinity());
        }
        finish();
        return shard;
    }

    void columnMaxAbsImpl(ResidentShard& s, std::span<float> out) override
    {
        CudaShard& shard = own(s);
        const Index n = shard.rowCount;
        const Index d = shard.colCount;
        std::lock_guard lock(mutex);
        DeviceScope scope(device);
        std::fill(out.begin(), out.end(), 0.f);
        if (d == 0) return;
        colMax.ensure(static_cast<std::size_t>(d));
        CD_CUDA_CHECK(cudaMemsetAsync(colMax.data(), 0, static_cast<std::size_t>(d) * sizeof(float), stream));
        if (n > 0) {
            const dim3 block(32, 8);
            const Index gridX = (d + 31) / 32;
            const Index gridY = std::clamp<Index>(std::min<Index>((n + 7) / 8, smCount * 32 / std::max<Index>(gridX, 1)),
                                                  1, 65535);
            if (gridX > INT_MAX) throw std::invalid_argument("columnMaxAbs: too many columns");
            columnMaxAbsKernel<<<dim3(static_cast<unsigned>(gridX), static_cast<unsigned>(gridY)), block, 0, stream>>>(
                shard.data.data(), n, d, colMax.data());
            CD_CUDA_CHECK(cudaGetLastError());
        }
        toHost(out.data(), colMax.data(), static_cast<std::size_t>(d));
        finish();
    }

    void rowNormsImpl(ResidentShard& s, std::span<float> out) override
    {
        CudaShard& shard = own(s);
        std::lock_guard lock(mutex);
        DeviceScope scope(device);
        ensureNorms(shard);
        toHost(out.data(), shard.norms.data(), static_cast<std::size_t>(shard.rowCount));
        finish();
    }

    void assignImpl(ResidentShard& s, std::span<const float> centres, int k, Mode mode, Precision precision) override
    {
        CudaShard& shard = own(s);
        std::lock_guard lock(mutex);
        DeviceScope scope(device);
        if (mode == Mode::Exact) assignExact(shard, centres, k, nullptr, shard.rowCount, false);
        else assignFast(shard, centres, k, precision, false);
        finish();
    }

    void searchAllBoundedImpl(ResidentShard& s, std::span<const float> centres, int k, Mode mode,
                              Precision precision) override
    {
        CudaShard& shard = own(s);
        std::lock_guard lock(mutex);
        DeviceScope scope(device);
        shard.upper.ensure(static_cast<std::size_t>(shard.rowCount));
        shard.lower.ensure(static_cast<std::size_t>(shard.rowCount));
        if (mode == Mode::Exact) assignExact(shard, centres, k, nullptr, shard.rowCount, true);
        else assignFast(shard, centres, k, precision, true);
        finish();
    }

    // Flagged rows go into the shard's scratch, those still flagged after tightening
    // into its searchRows.
    Index flagRowsInDoubtImpl(ResidentShard& s, const CentroidMotion& motion) override
    {
        CudaShard& shard = own(s);
        const auto n = static_cast<std::size_t>(shard.rowCount);
        const auto k = motion.halfGap.size();
        shard.inDoubt = 0;
        if (n == 0) return 0;
        std::lock_guard lock(mutex);
        DeviceScope scope(device);
        halfGap.ensure(k);
        toDevice(halfGap.data(), motion.halfGap.data(), k);
        shift.ensure(k);
        toDevice(shift.data(), motion.shift.data(), k);
        otherShift.ensure(k);
        toDevice(otherShift.data(), motion.otherShift.data(), k);
        shard.needsSearch.ensure(n);
        forEachRow(shard.rowCount, detail::BoundedCheck{shift.data(), halfGap.data(), otherShift.data(),
                                                        detail::boundsMargin(shard.colCount), shard.labels.data(),
                                                        shard.upper.data(), shard.lower.data(),
                                                        shard.needsSearch.data()});
        shard.scratch.ensure(n);
        std::int64_t* first = shard.scratch.data();
        std::int64_t* end = thrust::copy_if(thrust::cuda::par.on(stream), rowIndex(0), rowIndex(shard.rowCount), first,
                                            Flagged{shard.needsSearch.data()});
        finish();
        shard.inDoubt = end - first;
        return shard.inDoubt;
    }

    Index tightenRowsInDoubtImpl(ResidentShard& s, std::span<const float> centres,
                                 const CentroidMotion& motion) override
    {
        CudaShard& shard = own(s);
        shard.left = 0;
        if (shard.inDoubt == 0) return 0;
        const Index d = shard.colCount;
        const auto k = motion.halfGap.size();
        const std::size_t cells = k * static_cast<std::size_t>(d);
        std::lock_guard lock(mutex);
        DeviceScope scope(device);
        centroids.ensure(cells);
        toDevice(centroids.data(), centres.data(), cells);
        halfGap.ensure(k);
        toDevice(halfGap.data(), motion.halfGap.data(), k);
        std::int64_t* flaggedFirst = shard.scratch.data();
        std::int64_t* flaggedEnd = flaggedFirst + shard.inDoubt;
        forEachRow(shard.inDoubt, detail::TightenBound{shard.data.data(), d, centroids.data(), halfGap.data(),
                                                       detail::boundsMargin(d), flaggedFirst, shard.inDoubt,
                                                       shard.labels.data(), shard.dist.data(), shard.upper.data(),
                                                       shard.lower.data(), shard.needsSearch.data()});
        shard.searchRows.ensure(static_cast<std::size_t>(shard.rowCount));
        std::int64_t* first = shard.searchRows.data();
        std::int64_t* end = thrust::copy_if(thrust::cuda::par.on(stream), flaggedFirst, flaggedEnd, first,
                                            Flagged{shard.needsSearch.data()});
        finish();
        shard.left = end - first;
        return shard.left;
    }

    // Always the exact search: the left rows are few, and exact distances keep the
    // bounds sound in either mode.
    void searchRowsLeftImpl(ResidentShard& s, std::span<const float> centres, int k, Mode, Precision) override
    {
        CudaShard& shard = own(s);
        std::lock_guard lock(mutex);
        DeviceScope scope(device);
        assignExact(shard, centres, k, shard.searchRows.data(), shard.left, true);
        finish();
    }

    // TF32/BF16 distances err too much for bounds to be trusted: every pass is full.
    bool boundsHoldAt(Mode mode, Precision precision) const override
    {
        return mode == Mode::Exact || precision == Precision::FP32;
    }

    void refreshDistancesImpl(ResidentShard& s, std::span<const float> centres, int k) override
    {
        CudaShard& shard = own(s);
        const Index d = shard.colCount;
        const std::size_t cells = static_cast<std::size_t>(k) * static_cast<std::size_t>(d);
        std::lock_guard lock(mutex);
        DeviceScope scope(device);
        centroids.ensure(cells);
        toDevice(centroids.data(), centres.data(), cells);
        forEachRow(shard.rowCount, detail::TightenBound{shard.data.data(), d, centroids.data(), nullptr, 0.f, nullptr,
                                                        shard.rowCount, shard.labels.data(), shard.dist.data()});
        finish();
    }

    void assignSplitImpl(ResidentShard& s, std::span<const float> children, int k, Mode) override
    {
        CudaShard& shard = own(s);
        const Index d = shard.colCount;
        const auto n = static_cast<std::size_t>(shard.rowCount);
        std::lock_guard lock(mutex);
        DeviceScope scope(device);
        shard.child.ensure(n);
        shard.childDist.ensure(n);
        centroids.ensure(children.size());
        toDevice(centroids.data(), children.data(), children.size());
        forEachRow(shard.rowCount, detail::SplitNearest{shard.data.data(), d, centroids.data(), shard.labels.data(),
                                                        shard.child.data(), shard.childDist.data()});
        finish();
    }

    void updateNearestImpl(ResidentShard& s, std::span<const float> centres, int count, int firstLabel) override
    {
        CudaShard& shard = own(s);
        const Index d = shard.colCount;
        std::lock_guard lock(mutex);
        DeviceScope scope(device);
        if (count == 1) {
            centroids.ensure(static_cast<std::size_t>(d));
            toDevice(centroids.data(), centres.data(), static_cast<std::size_t>(d));
            forEachRow(shard.rowCount, detail::UpdateNearest{shard.data.data(), d, centroids.data(), firstLabel,
                                                             shard.rowCount, shard.labels.data(), shard.dist.data()});
        } else {
            assignExact(shard, centres, count, nullptr, shard.rowCount, false, firstLabel);
        }
        finish();
    }

    void clusterSumsImpl(ResidentShard& s, LabelSource source, SumParts parts, int k, Mode mode, const FixedPointScales* fixedScales,
                     PartialSums& out) override
    {
        CudaShard& shard = own(s);
        const bool split = source == LabelSource::SplitChild;
        std::lock_guard lock(mutex);
        DeviceScope scope(device);
        const bool coordinates = parts == SumParts::All;
        out.reset(split ? 2 * k : k, coordinates ? static_cast<int>(shard.colCount) : 0, mode);
        accumulate(shard, mode, fixedScales, out,
                   detail::ClusterSumRow<DeviceAdd>{shard.data.data(),
                                                    shard.colCount,
                                                    shard.labels.data(),
                                                    split ? shard.child.data() : nullptr,
                                                    split ? shard.childDist.data() : shard.dist.data(),
                                                    detail::SumTarget{},
                                                    DeviceAdd{},
                                                    coordinates});
    }

    // The per-call delta is accumulated on the device (same kernel as clusterSums) and
    // added to the running sums kept on the host: k x d values, not rows.
    void trackedSumsImpl(ResidentShard& s, int k, Mode mode, const FixedPointScales* fixedScales, bool restart,
                     PartialSums& out) override
    {
        CudaShard& shard = own(s);
        const auto n = static_cast<std::size_t>(shard.rowCount);
        std::lock_guard lock(mutex);
        DeviceScope scope(device);
        restart = restart || shard.tracked.groups != k || !shard.hasTracked ||
                  (mode == Mode::Exact) != !shard.tracked.fixedSums.empty();
        if (restart) {
            shard.countedUnder.ensure(n);
            shard.tracked.reset(k, static_cast<int>(shard.colCount), mode);
            shard.hasTracked = true;
        }
        PartialSums delta;
        delta.reset(k, static_cast<int>(shard.colCount), mode);
        detail::TrackedSumRow<DeviceAdd> row{shard.data.data(), shard.colCount, shard.labels.data(),
                                             shard.countedUnder.data(), restart, {}, DeviceAdd{}};
        accumulate(shard, mode, fixedScales, delta, row);
        shard.tracked.add(delta);
        out = shard.tracked;
    }

    void projectedSumsImpl(ResidentShard& s, std::span<const float> means, std::span<const float> axesIn, int k,
                       Mode mode, const FixedPointScales* fixedScales, PartialSums& out) override
    {
        CudaShard& shard = own(s);
        const std::size_t cells = static_cast<std::size_t>(k) * static_cast<std::size_t>(shard.colCount);
        std::lock_guard lock(mutex);
        DeviceScope scope(device);
        out.reset(k, static_cast<int>(shard.colCount), mode);
        centroids.ensure(cells);
        axes.ensure(cells);
        toDevice(centroids.data(), means.data(), cells);
        toDevice(axes.data(), axesIn.data(), cells);
        accumulate(shard, mode, fixedScales, out,
                   detail::ProjectedSumRow<DeviceAdd>{shard.data.data(), shard.colCount, shard.labels.data(),
                                                      centroids.data(), axes.data(), detail::SumTarget{},
                                                      DeviceAdd{}});
    }

    std::int64_t weightTotalImpl(ResidentShard& s, double scale) override
    {
        CudaShard& shard = own(s);
        std::lock_guard lock(mutex);
        DeviceScope scope(device);
        if (shard.rowCount == 0) return 0;
        const std::int64_t total = thrust::transform_reduce(
            thrust::cuda::par.on(stream), rowIndex(0), rowIndex(shard.rowCount),
            detail::FixedWeight{shard.dist.data(), scale}, std::int64_t{0}, thrust::plus<std::int64_t>());
        finish();
        return total;
    }

    void trialWeightBatchImpl(ResidentShard& s, std::span<const float> centresT, int count, double scale,
                              std::span<std::int64_t> totals) override
    {
        CudaShard& shard = own(s);
        std::lock_guard lock(mutex);
        DeviceScope scope(device);
        centroids.ensure(centresT.size());
        toDevice(centroids.data(), centresT.data(), centresT.size());
        const detail::TrialTotals sums = thrust::transform_reduce(
            thrust::cuda::par.on(stream), rowIndex(0), rowIndex(shard.rowCount),
            detail::TrialWeightsT<1>{shard.data.data(), shard.colCount, shard.rowCount, centroids.data(), count,
                                     shard.dist.data(), scale},
            detail::TrialTotals{}, detail::AddTrialTotals{});
        finish();
        std::copy(sums.weight, sums.weight + count, totals.begin());
    }

    Index findByPrefixImpl(ResidentShard& s, double scale, std::int64_t target) override
    {
        CudaShard& shard = own(s);
        const Index n = shard.rowCount;
        std::lock_guard lock(mutex);
        DeviceScope scope(device);
        shard.scratch.ensure(static_cast<std::size_t>(n));
        std::int64_t* prefix = shard.scratch.data();
        const auto weights = thrust::make_transform_iterator(rowIndex(0), detail::FixedWeight{shard.dist.data(), scale});
        thrust::inclusive_scan(thrust::cuda::par.on(stream), weights, weights + n, prefix);
        const std::int64_t* it = thrust::upper_bound(thrust::cuda::par.on(stream), prefix, prefix + n, target);
        finish();
        return std::min<Index>(it - prefix, n - 1);
    }

    std::vector<Index> oversampleImpl(ResidentShard& s, double scale, double factor, std::int64_t total,
                                  std::uint64_t seed, std::uint64_t round) override
    {
        CudaShard& shard = own(s);
        const Index n = shard.rowCount;
        std::lock_guard lock(mutex);
        DeviceScope scope(device);
        shard.scratch.ensure(static_cast<std::size_t>(n));
        const detail::OversampleKeep keep{shard.dist.data(), scale, factor, static_cast<double>(total),
                                          seed,              round, shard.firstRow};
        std::int64_t* first = shard.scratch.data();
        std::int64_t* end = thrust::copy_if(thrust::cuda::par.on(stream), rowIndex(0), rowIndex(n), first, keep);
        std::vector<Index> kept(static_cast<std::size_t>(end - first));
        toHost(kept.data(), first, kept.size());
        finish();
        return kept;
    }

    void copyRowsImpl(ResidentShard& s, std::span<const Index> localRows, std::span<float> out) override
    {
        CudaShard& shard = own(s);
        const Index d = shard.colCount;
        const std::size_t r = localRows.size();
        const std::size_t cells = r * static_cast<std::size_t>(d);
        std::lock_guard lock(mutex);
        DeviceScope scope(device);
        indices.ensure(r);
        gathered.ensure(cells);
        toDevice(indices.data(), localRows.data(), r);
        forEachRow(static_cast<Index>(cells), GatherRows{shard.data.data(), d, indices.data(), gathered.data()});
        toHost(out.data(), gathered.data(), cells);
        finish();
    }

    void downloadLabelsImpl(ResidentShard& s, std::span<std::int32_t> out) override
    {
        CudaShard& shard = own(s);
        const auto n = static_cast<std::size_t>(shard.rowCount);
        std::lock_guard lock(mutex);
        DeviceScope scope(device);
        toHost(out.data(), shard.labels.data(), n);
        finish();
    }

    void downloadDistancesImpl(ResidentShard& s, std::span<float> out) override
    {
        CudaShard& shard = own(s);
        const auto n = static_cast<std::size_t>(shard.rowCount);
        std::lock_guard lock(mutex);
        DeviceScope scope(device);
        toHost(out.data(), shard.dist.data(), n);
        finish();
    }

private:
    // Safe: Backend's public methods refuse shards another backend uploaded.
    static CudaShard& own(ResidentShard& s) { return static_cast<CudaShard&>(s); }

    template <class T>
    void toDevice(T* dst, const T* src, std::size_t count)
    {
        if (count > 0) CD_CUDA_CHECK(cudaMemcpyAsync(dst, src, count * sizeof(T), cudaMemcpyHostToDevice, stream));
    }

    template <class T>
    void toHost(T* dst, const T* src, std::size_t count)
    {
        if (count > 0) CD_CUDA_CHECK(cudaMemcpyAsync(dst, src, count * sizeof(T), cudaMemcpyDeviceToHost, stream));
    }

    void finish() { CD_CUDA_CHECK(cudaStreamSynchronize(stream)); }

    template <class F>
    void forEachRow(Index n, const F& f)
    {
        if (n > 0) thrust::for_each(thrust::cuda::par_nosync.on(stream), rowIndex(0), rowIndex(n), f);
    }

    cublasHandle_t blasHandle()
    {
        if (!blas) {
            CD_CUBLAS_CHECK(cublasCreate(&blas));
            CD_CUBLAS_CHECK(cublasSetStream(blas, stream));
        }
        return blas;
    }

    void ensureNorms(CudaShard& shard)
    {
        if (shard.hasNorms) return;
        shard.norms.ensure(static_cast<std::size_t>(shard.rowCount));
        forEachRow(shard.rowCount, detail::RowNorm{shard.data.data(), shard.colCount, shard.norms.data()});
        CD_CUDA_CHECK(cudaStreamSynchronize(stream));
        shard.hasNorms = true;
    }

    void ensureBf16(CudaShard& shard)
    {
        if (shard.hasBf16) return;
        const std::size_t cells = static_cast<std::size_t>(shard.rowCount) * static_cast<std::size_t>(shard.colCount);
        shard.dataBf16.ensure(cells);
        if (cells > 0) {
            thrust::transform(thrust::cuda::par_nosync.on(stream), shard.data.data(), shard.data.data() + cells,
                              shard.dataBf16.data(), ToBf16{});
        }
        CD_CUDA_CHECK(cudaStreamSynchronize(stream));
        shard.hasBf16 = true;
    }

    // Same transposition and padding as the host backend, done on the host, then one upload.
    // rows: search only these (device pointer, count entries); null = every row.
    // keepNearerFrom >= 0: a batch labelled from there on; rows keep their stored label
    // unless the batch holds a nearer centroid (updateNearest).
    void assignExact(CudaShard& shard, std::span<const float> centres, int k, const Index* rows, Index count, bool bounds,
                     int keepNearerFrom = -1)
    {
        const Index d = shard.colCount;
        const int kPadded = (k + kExactBlock - 1) / kExactBlock * kExactBlock;
        const std::size_t cells = static_cast<std::size_t>(kPadded) * static_cast<std::size_t>(d);
        std::vector<float> transposed(cells, 0.f);
        for (int c = 0; c < k; ++c)
            for (Index j = 0; j < d; ++j) transposed[j * kPadded + c] = centres[c * d + j];
        centroidsT.ensure(cells);
        toDevice(centroidsT.data(), transposed.data(), cells);
        // ExactNearest is one row per call (Rows = 1): on the device threads give the parallelism.
        forEachRow(count, detail::ExactNearest{shard.data.data(), d, centroidsT.data(), k, kPadded, count,
                                               shard.labels.data(), shard.dist.data(), rows,
                                               bounds ? shard.upper.data() : nullptr,
                                               bounds ? shard.lower.data() : nullptr, nullptr, nullptr, 0.f,
                                               keepNearerFrom >= 0, keepNearerFrom >= 0 ? keepNearerFrom : 0});
    }

    // dots = X_block . C^T through cuBLAS, then FastArgmin over the block. cuBLAS is
    // column-major: row-major C (k x d) is a column-major d x k matrix, and row-major
    // X_block (m x d) a column-major d x m one, so op(A) = C^T' = T, op(B) = N gives the
    // column-major k x m product, which is the row-major m x k dots block (ldc = k).
    void assignFast(CudaShard& shard, std::span<const float> centres, int k, Precision precision, bool bounds)
    {
        const Index d = shard.colCount;
        const Index n = shard.rowCount;
        if (d > INT_MAX) throw std::invalid_argument("assign: too many columns for cuBLAS (cols=" + std::to_string(d) + ")");
        ensureNorms(shard);
        // Centroid norms on the host with the same functor, exactly as the host backend.
        const std::vector<float> hostNorms = squaredNorms(centres.subspan(0, static_cast<std::size_t>(k) * d), d);
        const float maxCentroidNorm = hostNorms.empty() ? 0.f : *std::max_element(hostNorms.begin(), hostNorms.end());
        centroidNorms.ensure(hostNorms.size());
        toDevice(centroidNorms.data(), hostNorms.data(), hostNorms.size());
        if (n == 0) return;

        const std::size_t centreCells = static_cast<std::size_t>(k) * static_cast<std::size_t>(d);
        const void* a = nullptr;
        const void* b = nullptr;
        std::size_t elementSize = sizeof(float);
        cudaDataType_t type = CUDA_R_32F;
        cublasComputeType_t compute = precision == Precision::TF32 ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F;
        if (k > 0) {
            centroids.ensure(centreCells);
            toDevice(centroids.data(), centres.data(), centreCells);
            a = centroids.data();
            b = shard.data.data();
            if (precision == Precision::BF16) {
                ensureBf16(shard);
                centroidsBf16.ensure(centreCells);
                thrust::transform(thrust::cuda::par_nosync.on(stream), centroids.data(),
                                  centroids.data() + centreCells, centroidsBf16.data(), ToBf16{});
                a = centroidsBf16.data();
                b = shard.dataBf16.data();
                elementSize = sizeof(__nv_bfloat16);
                type = CUDA_R_16BF;
                compute = CUBLAS_COMPUTE_32F;
            }
        }

        const Index blockRows = std::clamp<Index>(kMaxDotsFloats / std::max(k, 1), 1, kMaxGemmRows);
        dots.ensure(static_cast<std::size_t>(blockRows) * static_cast<std::size_t>(k));
        const int ld = static_cast<int>(std::max<Index>(d, 1));
        const float alpha = 1.f;
        const float beta = 0.f;
        for (Index first = 0; first < n; first += blockRows) {
            const Index count = std::min(blockRows, n - first);
            if (k > 0) {
                const void* block = static_cast<const char*>(b) + static_cast<std::size_t>(first * d) * elementSize;
                CD_CUBLAS_CHECK(cublasGemmEx(blasHandle(), CUBLAS_OP_T, CUBLAS_OP_N, k, static_cast<int>(count),
                                             static_cast<int>(d), &alpha, a, type, ld, block, type, ld, &beta,
                                             dots.data(), CUDA_R_32F, k, compute, CUBLAS_GEMM_DEFAULT));
            }
            forEachRow(count, detail::FastArgmin{dots.data(), shard.norms.data(), centroidNorms.data(), k, first,
                                                 shard.labels.data(), shard.dist.data(),
                                                 bounds ? shard.upper.data() : nullptr,
                                                 bounds ? shard.lower.data() : nullptr, d, maxCentroidNorm});
        }
        if (k > 0 && precision != Precision::FP32) {
            forEachRow(n, RefineDistance{shard.data.data(), d, centroids.data(), shard.labels.data(), shard.dist.data()});
        }
    }

    template <class Row>
    void accumulate(CudaShard& shard, Mode mode, const FixedPointScales* fixedScales, PartialSums& out, Row row)
    {
        const bool exact = mode == Mode::Exact;
        const auto groups = static_cast<std::size_t>(out.groups);
        const auto d = static_cast<std::size_t>(out.dims);
        const std::size_t cells = groups * (d + 2);
        if (cells == 0) return;
        sums.ensure(cells);
        CD_CUDA_CHECK(cudaMemsetAsync(sums.data(), 0, cells * sizeof(Cell), stream));
        Cell* base = sums.data();

        detail::SumTarget& target = row.target;
        target.counts = reinterpret_cast<std::int64_t*>(base);
        target.d = static_cast<Index>(d);  // columns of the sums (0 for counts and distances only)
        target.exact = exact;
        if (exact) {
            scales.ensure(d);
            toDevice(scales.data(), fixedScales->perDim.data(), d);
            target.fixedDist = reinterpret_cast<std::int64_t*>(base + groups);
            target.fixedSums = reinterpret_cast<std::int64_t*>(base + 2 * groups);
            target.scale = scales.data();
            target.distScale = fixedScales->distance;
        } else {
            target.distSums = reinterpret_cast<double*>(base + groups);
            target.sums = reinterpret_cast<double*>(base + 2 * groups);
        }

        const Index n = shard.rowCount;
        if (n > 0) {
            const std::size_t sharedBytes = cells * sizeof(Cell);
            bool useShared = sharedBytes <= kMaxSharedSumBytes;
            Index maxBlocks = Index{smCount} * (2048 / kSumThreads);
            if (useShared) {
                int perSm = 0;
                CD_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSm, accumulateRows<Row>, kSumThreads,
                                                                            sharedBytes));
                useShared = perSm > 0;
                if (useShared) maxBlocks = Index{smCount} * perSm;
            }
            const Index blocks = std::clamp<Index>((n + kSumThreads - 1) / kSumThreads, 1, maxBlocks);
            accumulateRows<Row><<<static_cast<unsigned>(blocks), kSumThreads, useShared ? sharedBytes : 0, stream>>>(
                row, n, useShared, static_cast<Index>(groups), exact, base);
            CD_CUDA_CHECK(cudaGetLastError());
        }

        toHost(out.counts.data(), target.counts, groups);
        if (exact) {
            toHost(out.fixedDist.data(), target.fixedDist, groups);
            toHost(out.fixedSums.data(), target.fixedSums, groups * d);
        } else {
            toHost(out.distSums.data(), target.distSums, groups);
            toHost(out.sums.data(), target.sums, groups * d);
        }
        finish();
    }

    const int device;
    const std::string label;
    std::string description;
    int smCount = 1;
    cudaStream_t stream = nullptr;
    cublasHandle_t blas = nullptr;
    std::mutex mutex;

    // Per-call scratch, grown as needed and kept between calls.
    DeviceBuffer<float> centroids;  // centroids, children, a k-means++ centre or means
    DeviceBuffer<__nv_bfloat16> centroidsBf16;
    DeviceBuffer<float> centroidsT;
    DeviceBuffer<float> centroidNorms;
    DeviceBuffer<float> halfGap;
    DeviceBuffer<float> shift;
    DeviceBuffer<float> otherShift;
    DeviceBuffer<float> dots;
    DeviceBuffer<Cell> sums;
    DeviceBuffer<double> scales;
    DeviceBuffer<float> axes;
    DeviceBuffer<Index> indices;
    DeviceBuffer<float> gathered;
    DeviceBuffer<float> colMax;
};

}  // namespace
}  // namespace clusterdesk::kernels::cuda

extern "C" CD_EXPORT int clusterdesk_cuda_device_count(char* reason, std::size_t reasonSize)
{
    int count = 0;
    const cudaError_t error = cudaGetDeviceCount(&count);
    if (error == cudaSuccess) return count;
    cudaGetLastError();
    char text[384];
    std::snprintf(text, sizeof text, "%s: %s", cudaGetErrorName(error), cudaGetErrorString(error));
    // With no driver installed at all the runtime says "driver version is insufficient";
    // say what is actually missing.
    if (error == cudaErrorInsufficientDriver) {
        if (void* driver = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL)) {
            dlclose(driver);
        } else {
            const char* why = dlerror();
            std::snprintf(text, sizeof text, "no NVIDIA driver (%s)", why ? why : "libcuda.so.1 not found");
        }
    }
    clusterdesk::kernels::cuda::writeReason(reason, reasonSize, text);
    // A working driver that sees no GPU is not a failure: zero devices, reason kept.
    return error == cudaErrorNoDevice ? 0 : -1;
}

extern "C" CD_EXPORT clusterdesk::kernels::Backend* clusterdesk_cuda_create_backend(int device, char* reason,
                                                                                     std::size_t reasonSize)
{
    using namespace clusterdesk::kernels::cuda;
    try {
        int count = 0;
        CD_CUDA_CHECK(cudaGetDeviceCount(&count));
        if (device < 0 || device >= count) {
            throw std::invalid_argument("no CUDA device " + std::to_string(device) + " (" + std::to_string(count) +
                                        " present)");
        }
        return new CudaBackend(device);
    } catch (const std::exception& e) {
        writeReason(reason, reasonSize, e.what());
    } catch (...) {
        writeReason(reason, reasonSize, "unknown error while creating the CUDA backend");
    }
    return nullptr;
}
