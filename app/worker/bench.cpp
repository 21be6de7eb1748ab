#include "bench.h"

#include "kernel_cases.h"

#include "engine/catalog/hardware_catalog.h"
#include "kernels/backend_registry.h"
#include "kernels/host/host_gemm.h"

#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>
#include <ostream>
#include <string>
#include <vector>

namespace clusterdesk::worker {
namespace {

using Clock = std::chrono::steady_clock;

// Best of `repeats` wall times, in seconds: the least disturbed run.
double bestSeconds(int repeats, const std::function<void()>& work)
{
    work();  // warm-up: first-touch, lazy scratch, GEMM plans
    double best = INFINITY;
    for (int r = 0; r < repeats; ++r) {
        const auto start = Clock::now();
        work();
        best = std::min(best, std::chrono::duration<double>(Clock::now() - start).count());
    }
    return best;
}

// The catalog's GPU whose name is the device's: a description reads "NVIDIA H200,
// 139.8 GiB, sm_90" and the catalog's "NVIDIA H200 SXM 141 GB".
const DeviceSpec* catalogGpu(const std::string& description)
{
    const std::string device = description.substr(0, description.find(','));
    for (const DeviceSpec& spec : builtinCatalog().devices)
        if (spec.isGpu() && spec.name.rfind(device, 0) == 0 &&
            (spec.name.size() == device.size() || spec.name[device.size()] == ' '))
            return &spec;
    return nullptr;
}

// The datasheet peak an assignment kernel's arithmetic runs against, in TFLOP/s.
double peakTflops(const DeviceSpec& spec, const std::string& kernel)
{
    if (kernel.find(".tf32") != std::string::npos) return spec.tf32Tflops;
    if (kernel.find(".bf16") != std::string::npos) return spec.bf16Tflops;
    return spec.fp32Tflops;
}

}  // namespace

// One 1024^3 product per thread at once.
double hostSgemmGflops()
{
    constexpr std::int64_t n = 1024;
    const int threads = omp_get_max_threads();
    std::vector<std::vector<float>> a(static_cast<std::size_t>(threads)), c(static_cast<std::size_t>(threads));
    for (int t = 0; t < threads; ++t) {
        a[static_cast<std::size_t>(t)].assign(static_cast<std::size_t>(n * n), 0.5f);
        c[static_cast<std::size_t>(t)].assign(static_cast<std::size_t>(n * n), 0.f);
    }
    const double seconds = bestSeconds(3, [&] {
#pragma omp parallel num_threads(threads)
        {
            const auto t = static_cast<std::size_t>(omp_get_thread_num());
            kernels::host::gemmABt(a[t].data(), a[t].data(), c[t].data(), n, n, n);
        }
    });
    return 2.0 * n * n * n * threads / seconds / 1e9;
}

void runBench(const BenchShape& shape, std::ostream& out)
{
    const KernelCase c = makeKernelCase(shape.rows, shape.cols, shape.k, 7);
    const double n = static_cast<double>(shape.rows), d = static_cast<double>(shape.cols), k = shape.k;
    const double dataBytes = n * d * 4;
    char line[256];
    std::snprintf(line, sizeof line, "bench: %lld rows x %lld cols, k=%d, best of %d\n", static_cast<long long>(shape.rows),
                  static_cast<long long>(shape.cols), shape.k, shape.repeats);
    out << line;
    std::snprintf(line, sizeof line, "host SGEMM (%s, %d threads): %.1f GFLOP/s measured\n", kernels::host::blasName(),
                  omp_get_max_threads(), hostSgemmGflops());
    out << line;

    std::vector<std::string> backends{shape.backend};
    if (shape.backend.empty()) {
        backends = {"host"};
        const kernels::CudaAvailability cuda = kernels::cudaAvailability();
        for (int device = 0; device < cuda.deviceCount; ++device) backends.push_back("cuda:" + std::to_string(device));
        if (cuda.deviceCount == 0) out << "cuda: skipped (" << cuda.reason << ")\n";
    }

    std::snprintf(line, sizeof line, "%-8s %-26s %10s %10s %10s %8s\n", "backend", "kernel", "ms", "GFLOP/s", "GB/s", "of peak");
    out << line;
    for (const std::string& name : backends) {
        auto backend = kernels::createBackend(name);
        const DeviceSpec* spec = name == "host" ? nullptr : catalogGpu(backend->deviceName());
        out << name << ": " << backend->deviceName();
        if (spec)
            out << " (datasheet: " << spec->name << ", FP32 " << spec->fp32Tflops << ", TF32 " << spec->tf32Tflops
                << ", BF16 " << spec->bf16Tflops << " TFLOP/s dense)";
        out << '\n';
        auto shard = backend->upload({c.data.data(), c.rows, c.cols}, 0);
        const kernels::FixedPointScales scales{std::vector<double>(static_cast<std::size_t>(c.cols), std::ldexp(1.0, 24)), std::ldexp(1.0, 16)};
        kernels::PartialSums sums;
        std::vector<float> norms(static_cast<std::size_t>(c.rows));
        const kernels::CentroidMotion still = kernels::measureMotion(c.centroids, c.centroids, c.cols);
        struct Kernel {
            const char* name;
            double flops;
            double bytes;
            std::function<void()> work;
        };
        const double assignBytes = dataBytes + n * 8;  // rows in, label + distance out
        const Kernel kernels[] = {
            {"assign.fast.fp32", 2 * n * k * d, assignBytes, [&] { backend->assign(*shard, c.centroids, c.k, kernels::Mode::Fast, kernels::Precision::FP32); }},
            {"assign.fast.tf32", 2 * n * k * d, assignBytes, [&] { backend->assign(*shard, c.centroids, c.k, kernels::Mode::Fast, kernels::Precision::TF32); }},
            {"assign.fast.bf16", 2 * n * k * d, assignBytes, [&] { backend->assign(*shard, c.centroids, c.k, kernels::Mode::Fast, kernels::Precision::BF16); }},
            {"assign.exact", 3 * n * k * d, assignBytes, [&] { backend->assign(*shard, c.centroids, c.k, kernels::Mode::Exact, kernels::Precision::FP32); }},
            {"clusterSums.fast", n * d, dataBytes + n * 8, [&] { backend->clusterSums(*shard, kernels::LabelSource::Cluster, kernels::SumParts::All, c.k, kernels::Mode::Fast, nullptr, sums); }},
            {"clusterSums.exact", n * d, dataBytes + n * 8, [&] { backend->clusterSums(*shard, kernels::LabelSource::Cluster, kernels::SumParts::All, c.k, kernels::Mode::Exact, &scales, sums); }},
            {"rowNorms", 2 * n * d, dataBytes + n * 4, [&] { backend->rowNorms(*shard, norms); }},
            // A settled Lloyd iteration: centroids did not move, so bounds settle every row
            // and sums only scan labels. Flops and bytes are those of the work it replaces.
            {"assignBounded.settled", 3 * n * k * d, assignBytes, [&] { backend->assignBounded(*shard, c.centroids, c.k, kernels::Mode::Exact, kernels::Precision::FP32, &still); }},
            {"trackedSums.settled", n * d, dataBytes + n * 8, [&] { backend->trackedSums(*shard, c.k, kernels::Mode::Exact, &scales, false, sums); }},
        };
        for (const Kernel& kernel : kernels) {
            if (name == "host" && std::string(kernel.name).find("fast.") != std::string::npos &&
                std::string(kernel.name) != "assign.fast.fp32")
                continue;  // the host computes every precision in FP32
            const double seconds = bestSeconds(shape.repeats, kernel.work);
            const double gflops = kernel.flops / seconds / 1e9;
            // Only the fast assignments are the GEMMs whose arithmetic a datasheet peak rates.
            const bool againstPeak = spec && std::string(kernel.name).rfind("assign.fast.", 0) == 0;
            char share[16] = "";
            if (againstPeak) std::snprintf(share, sizeof share, "%.0f %%", 100 * gflops / 1e3 / peakTflops(*spec, kernel.name));
            std::snprintf(line, sizeof line, "%-8s %-26s %10.2f %10.1f %10.1f %8s\n", name.c_str(), kernel.name, seconds * 1e3,
                          gflops, kernel.bytes / seconds / 1e9, share);
            out << line;
        }
    }
    out << "*.settled: centroids unchanged, so bounds settle every row; their GFLOP/s and GB/s count the work of the\n"
           "  plain pass they replace (what a Lloyd iteration costs once a run has converged).\n";
}

}  // namespace clusterdesk::worker
