#include "selftest.h"

#include "collective_checks.h"
#include "kernel_cases.h"

#include "kernels/backend_registry.h"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

namespace clusterdesk::worker {
namespace {

using kernels::Backend;
using kernels::LabelSource;
using kernels::Mode;
using kernels::PartialSums;
using kernels::Precision;

// Everything one backend computes on the case, for comparison with another backend.
struct KernelOutputs {
    std::vector<float> colMax, rowNorms;
    std::vector<std::int32_t> exactLabels;
    std::vector<float> exactDist;
    PartialSums exactSums, fastSums, exactProjected, fastProjected, splitSums;
    std::vector<std::int32_t> nearestLabels, fiveLabels;  // updateNearest; a full search of the same 5 centres
    std::vector<float> nearestDist, fiveDist;
    std::int64_t weightTotal = 0, prefixRow = 0;
    std::vector<std::int64_t> oversampled;
    std::vector<std::vector<std::int32_t>> fastLabels;  // per precision
    std::vector<std::vector<float>> fastDist;
    // Bounded assignment after the centroids moved, and a plain search at the same centroids.
    std::vector<std::int32_t> boundedLabels, searchedLabels;
    std::vector<float> refreshedDist, searchedDist;
    std::int64_t boundedSearched = 0;
    std::int64_t labelsChanged = 0;
    PartialSums trackedIncremental, trackedRecount;
};

const Precision kPrecisions[] = {Precision::FP32, Precision::TF32, Precision::BF16};

kernels::FixedPointScales fixedScales(std::int64_t cols)
{
    // Generated data stays within |x| < 64 and 1e5 rows: 2^24 per unit cannot overflow.
    return {std::vector<double>(static_cast<std::size_t>(cols), std::ldexp(1.0, 24)), std::ldexp(1.0, 16)};
}

KernelOutputs runKernels(Backend& backend, const KernelCase& c)
{
    KernelOutputs o;
    const auto n = static_cast<std::size_t>(c.rows);
    const auto scales = fixedScales(c.cols);
    auto shard = backend.upload({c.data.data(), c.rows, c.cols}, 1000);

    o.colMax.resize(static_cast<std::size_t>(c.cols));
    backend.columnMaxAbs(*shard, o.colMax);
    o.rowNorms.resize(n);
    backend.rowNorms(*shard, o.rowNorms);

    // updateNearest on fresh distances (+inf): one centre, then a batch of the next four.
    const auto d = static_cast<std::size_t>(c.cols);
    backend.updateNearest(*shard, std::span(c.centroids).subspan(0, d), 0);
    backend.updateNearest(*shard, std::span(c.centroids).subspan(d, 4 * d), 1);
    o.nearestLabels.resize(n);
    o.nearestDist.resize(n);
    backend.downloadLabels(*shard, o.nearestLabels);
    backend.downloadDistances(*shard, o.nearestDist);
    backend.assign(*shard, std::span(c.centroids).subspan(0, 5 * d), 5, Mode::Exact, Precision::FP32);
    o.fiveLabels.resize(n);
    o.fiveDist.resize(n);
    backend.downloadLabels(*shard, o.fiveLabels);
    backend.downloadDistances(*shard, o.fiveDist);

    backend.assign(*shard, c.centroids, c.k, Mode::Exact, Precision::FP32);
    o.exactLabels.resize(n);
    o.exactDist.resize(n);
    backend.downloadLabels(*shard, o.exactLabels);
    backend.downloadDistances(*shard, o.exactDist);
    backend.clusterSums(*shard, LabelSource::Cluster, kernels::SumParts::All, c.k, Mode::Exact, &scales, o.exactSums);
    backend.clusterSums(*shard, LabelSource::Cluster, kernels::SumParts::All, c.k, Mode::Fast, nullptr, o.fastSums);

    std::vector<float> axes(c.centroids.size());
    for (std::size_t i = 0; i < axes.size(); ++i) axes[i] = static_cast<float>(((i * 7919) % 13) - 6) / 6.f;
    backend.projectedSums(*shard, c.centroids, axes, c.k, Mode::Exact, &scales, o.exactProjected);
    backend.projectedSums(*shard, c.centroids, axes, c.k, Mode::Fast, nullptr, o.fastProjected);

    std::vector<float> children(2 * c.centroids.size());
    for (int g = 0; g < c.k; ++g)
        for (std::int64_t j = 0; j < c.cols; ++j) {
            const float m = c.centroids[static_cast<std::size_t>(g * c.cols + j)];
            children[static_cast<std::size_t>(2 * g * c.cols + j)] = m + 0.5f * axes[static_cast<std::size_t>(g * c.cols + j)];
            children[static_cast<std::size_t>((2 * g + 1) * c.cols + j)] = m - 0.5f * axes[static_cast<std::size_t>(g * c.cols + j)];
        }
    backend.assignSplit(*shard, children, c.k, Mode::Exact);
    backend.clusterSums(*shard, LabelSource::SplitChild, kernels::SumParts::All, c.k, Mode::Exact, &scales, o.splitSums);

    o.weightTotal = backend.weightTotal(*shard, scales.distance);
    o.prefixRow = backend.findByPrefix(*shard, scales.distance, o.weightTotal / 3);
    o.oversampled = backend.oversample(*shard, scales.distance, 50.0, o.weightTotal, 42, 3);

    // Lloyd's pattern: bounded pass and tracked sums, the centroids move, again.
    std::vector<float> moved = c.centroids;
    // Centroid 0 moves past centroid 1, one unit of the data's noise beyond it: it takes
    // the rows of cluster 1 on its side (about a third, whatever the width) and loses its
    // own, yet rows of the clusters far from both are settled by their bounds. (Stopping
    // short of centroid 1 took no row at all where the width spreads the rows wide.)
    double gap = 0;
    for (std::int64_t j = 0; j < c.cols; ++j) {
        const double step = c.centroids[static_cast<std::size_t>(c.cols + j)] - c.centroids[static_cast<std::size_t>(j)];
        gap += step * step;
    }
    const double beyond = 1.0 / std::sqrt(gap);
    for (std::int64_t j = 0; j < c.cols; ++j) {
        const float one = c.centroids[static_cast<std::size_t>(c.cols + j)];
        moved[static_cast<std::size_t>(j)] = one + static_cast<float>(beyond * (one - c.centroids[static_cast<std::size_t>(j)]));
    }
    const kernels::CentroidMotion motion = kernels::measureMotion(c.centroids, moved, c.cols);
    backend.assignBounded(*shard, c.centroids, c.k, Mode::Exact, Precision::FP32, nullptr);
    backend.trackedSums(*shard, c.k, Mode::Exact, &scales, true, o.trackedIncremental);
    o.boundedSearched = backend.assignBounded(*shard, moved, c.k, Mode::Exact, Precision::FP32, &motion);
    o.boundedLabels.resize(n);
    backend.downloadLabels(*shard, o.boundedLabels);
    o.labelsChanged = 0;
    for (std::size_t i = 0; i < n; ++i) o.labelsChanged += o.boundedLabels[i] != o.exactLabels[i];
    backend.trackedSums(*shard, c.k, Mode::Exact, &scales, false, o.trackedIncremental);
    backend.trackedSums(*shard, c.k, Mode::Exact, &scales, true, o.trackedRecount);
    backend.refreshDistances(*shard, moved, c.k);
    o.refreshedDist.resize(n);
    backend.downloadDistances(*shard, o.refreshedDist);
    backend.assign(*shard, moved, c.k, Mode::Exact, Precision::FP32);
    o.searchedLabels.resize(n);
    o.searchedDist.resize(n);
    backend.downloadLabels(*shard, o.searchedLabels);
    backend.downloadDistances(*shard, o.searchedDist);

    for (Precision p : kPrecisions) {
        backend.assign(*shard, c.centroids, c.k, Mode::Fast, p);
        o.fastLabels.emplace_back(n);
        o.fastDist.emplace_back(n);
        backend.downloadLabels(*shard, o.fastLabels.back());
        backend.downloadDistances(*shard, o.fastDist.back());
    }
    return o;
}

template <class T>
bool bitIdentical(const std::vector<T>& a, const std::vector<T>& b)
{
    return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

template <class T>
double maxRelativeDiff(const std::vector<T>& a, const std::vector<T>& b)
{
    if (a.size() != b.size()) return INFINITY;
    double worst = 0;
    for (std::size_t i = 0; i < a.size(); ++i) {
        const double scale = std::max({1.0, std::fabs(static_cast<double>(a[i])), std::fabs(static_cast<double>(b[i]))});
        worst = std::max(worst, std::fabs(static_cast<double>(a[i]) - static_cast<double>(b[i])) / scale);
    }
    return worst;
}

double agreement(const std::vector<std::int32_t>& a, const std::vector<std::int32_t>& b)
{
    if (a.size() != b.size() || a.empty()) return 0;
    std::size_t same = 0;
    for (std::size_t i = 0; i < a.size(); ++i) same += a[i] == b[i];
    return static_cast<double>(same) / static_cast<double>(a.size());
}

class Report {
public:
    Report(std::ostream& out, std::string candidate) : m_out(out), m_candidate(std::move(candidate)) {}

    void check(const std::string& kernel, bool pass, const std::string& detail)
    {
        m_out << (pass ? "PASS  " : "FAIL  ") << m_candidate << "  " << kernel << "  " << detail << '\n';
        if (!pass) ++m_failures;
    }
    int failures() const { return m_failures; }

private:
    std::ostream& m_out;
    std::string m_candidate;
    int m_failures = 0;
};

std::string number(double value)
{
    std::ostringstream s;
    s << value;
    return s.str();
}

void compare(const KernelOutputs& ref, const KernelOutputs& got, Report& r, bool sameArithmetic)
{
    r.check("columnMaxAbs", bitIdentical(ref.colMax, got.colMax), "bit-identical required");
    r.check("rowNorms", bitIdentical(ref.rowNorms, got.rowNorms), "bit-identical required (fixed-order fma)");
    r.check("updateNearest", bitIdentical(ref.nearestLabels, got.nearestLabels) && bitIdentical(ref.nearestDist, got.nearestDist) &&
                                 bitIdentical(got.nearestLabels, got.fiveLabels) && bitIdentical(got.nearestDist, got.fiveDist),
            "labels and distances bit-identical, and equal to a full search of the same centres");
    r.check("assign.exact", bitIdentical(ref.exactLabels, got.exactLabels) && bitIdentical(ref.exactDist, got.exactDist),
            "labels and distances bit-identical");
    r.check("clusterSums.exact", ref.exactSums.counts == got.exactSums.counts && ref.exactSums.fixedSums == got.exactSums.fixedSums &&
                                     ref.exactSums.fixedDist == got.exactSums.fixedDist,
            "64-bit fixed-point sums identical");
    const double fs = std::max(maxRelativeDiff(ref.fastSums.sums, got.fastSums.sums), maxRelativeDiff(ref.fastSums.distSums, got.fastSums.distSums));
    r.check("clusterSums.fast", ref.fastSums.counts == got.fastSums.counts && fs <= 1e-9, "counts equal, max relative diff " + number(fs) + " (<= 1e-9)");
    r.check("projectedSums.exact", ref.exactProjected.fixedSums == got.exactProjected.fixedSums, "fixed-point sums identical");
    const double ps = maxRelativeDiff(ref.fastProjected.sums, got.fastProjected.sums);
    r.check("projectedSums.fast", ps <= 1e-9, "max relative diff " + number(ps) + " (<= 1e-9)");
    r.check("assignSplit", ref.splitSums.counts == got.splitSums.counts && ref.splitSums.fixedSums == got.splitSums.fixedSums,
            "child counts and fixed-point sums identical");
    r.check("assignBounded", got.boundedLabels == got.searchedLabels && got.boundedLabels == ref.boundedLabels &&
                                 got.labelsChanged > 0 && got.boundedSearched < static_cast<std::int64_t>(got.boundedLabels.size()),
            "labels equal a full search and the reference; " + std::to_string(got.boundedSearched) + " of " +
                std::to_string(got.boundedLabels.size()) + " rows searched, " + std::to_string(got.labelsChanged) + " changed cluster");
    r.check("refreshDistances", bitIdentical(got.refreshedDist, got.searchedDist) && bitIdentical(got.refreshedDist, ref.refreshedDist),
            "distances to the labelled centroids equal a full search's and the reference's, bit for bit");
    r.check("trackedSums", got.trackedIncremental.counts == got.trackedRecount.counts &&
                               got.trackedIncremental.fixedSums == got.trackedRecount.fixedSums &&
                               got.trackedIncremental.fixedDist == got.trackedRecount.fixedDist &&
                               got.trackedRecount.fixedSums == ref.trackedRecount.fixedSums,
            "incremental update equals a recount and the reference, bit for bit");
    r.check("weightTotal", ref.weightTotal == got.weightTotal, "integer total " + std::to_string(got.weightTotal));
    r.check("findByPrefix", ref.prefixRow == got.prefixRow, "row " + std::to_string(got.prefixRow));
    r.check("oversample", ref.oversampled == got.oversampled, std::to_string(got.oversampled.size()) + " rows kept, same set");
    // Fast mode: host BLAS vs cuBLAS differ in summation order; TF32/BF16 round inputs.
    const double minAgreement[] = {sameArithmetic ? 1.0 : 0.999, 0.995, 0.98};
    const double maxDistDiff[] = {sameArithmetic ? 0.0 : 1e-3, 1e-2, 5e-2};
    for (std::size_t p = 0; p < ref.fastLabels.size(); ++p) {
        const double a = agreement(ref.fastLabels[0], got.fastLabels[p]);
        const double dd = maxRelativeDiff(ref.fastDist[0], got.fastDist[p]);
        r.check("assign.fast." + kernels::toString(kPrecisions[p]), a >= minAgreement[p] && dd <= maxDistDiff[p],
                "label agreement " + number(a) + " (>= " + number(minAgreement[p]) + "), max relative distance diff " + number(dd) +
                    " (<= " + number(maxDistDiff[p]) + ")");
    }
}

// One generated case on every backend against the single-threaded host result.
int checkCase(const KernelCase& c, std::ostream& out)
{
    out << "case: " << c.rows << " rows x " << c.cols << " cols, k=" << c.k << "; reference: host backend, 1 thread\n";
    const int threads = omp_get_max_threads();
    omp_set_num_threads(1);
    auto reference = kernels::createBackend("host");
    const KernelOutputs ref = runKernels(*reference, c);
    omp_set_num_threads(threads);

    int failures = 0;
    {
        // Host fast mode at another thread count is the same arithmetic on the same blocks: bit-identical.
        Report report(out, "host(" + std::to_string(threads) + " threads)");
        compare(ref, runKernels(*kernels::createBackend("host"), c), report, true);
        failures += report.failures();
    }
    const kernels::CudaAvailability cuda = kernels::cudaAvailability();
    if (cuda.deviceCount == 0) out << "SKIP  cuda  " << cuda.reason << '\n';
    for (int device = 0; device < cuda.deviceCount; ++device) {
        const std::string name = "cuda:" + std::to_string(device);
        Report report(out, name);
        try {
            auto backend = kernels::createBackend(name);
            out << "      " << name << " is " << backend->deviceName() << '\n';
            compare(ref, runKernels(*backend, c), report, false);
        } catch (const std::exception& e) {
            report.check("backend", false, e.what());
        }
        failures += report.failures();
    }
    return failures;
}

}  // namespace

int runSelftest(std::ostream& out)
{
    // Few dimensions (the host's tiled search) and many (its blocked search and BLAS path).
    int failures = checkCase(makeKernelCase(100000, 37, 19, 2026), out);
    failures += checkCase(makeKernelCase(20000, 100, 40, 2027), out);
    failures += runCollectiveChecks(out);
    out << (failures == 0 ? "selftest passed\n" : "selftest FAILED: " + std::to_string(failures) + " check(s)\n");
    return failures;
}

}  // namespace clusterdesk::worker
