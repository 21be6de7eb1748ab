#include "performance_model.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>

namespace clusterdesk::whatif {
namespace {

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;

int modeIndex(kernels::Mode mode)
{
    return mode == kernels::Mode::Exact ? 1 : 0;
}

// FLOP/s one shard reaches at full efficiency.
double peakPerShard(const JobProfile& job, const Placement& where)
{
    const DeviceSpec& d = where.device;
    if (!d.isGpu()) return d.fp32Tflops * 1e12 / std::max(d.cores, 1) * where.coresPerShard;
    // Exact mode computes its distances with one fma functor in FP32, never on tensor cores.
    if (job.mode == kernels::Mode::Exact) return d.fp32Tflops * 1e12;
    switch (job.precision) {
    case kernels::Precision::TF32: return std::max(d.tf32Tflops, d.fp32Tflops) * 1e12;
    case kernels::Precision::BF16: return std::max(d.bf16Tflops, d.fp32Tflops) * 1e12;
    default: return d.fp32Tflops * 1e12;
    }
}

// Memory bandwidth one shard has, bytes/s: a CPU shard its cores' share of the socket.
double bandwidthPerShard(const Placement& where)
{
    const DeviceSpec& d = where.device;
    if (d.isGpu()) return d.memoryGBs * 1e9;
    return d.memoryGBs * 1e9 * std::min(1.0, where.coresPerShard / std::max(d.cores, 1));
}

bool sharesCores(const Placement& where)
{
    return !where.onGpus() && where.coresPerShard < 1;
}

double computeEfficiency(const JobProfile& job, const Placement& where, const ModelParameters& p)
{
    if (where.onGpus()) return p.gpuCompute[modeIndex(job.mode)];
    return p.cpuCompute[modeIndex(job.mode)] * (sharesCores(where) ? p.cpuSharedCoreFactor : 1);
}

double memoryEfficiency(const Placement& where, const ModelParameters& p)
{
    if (where.onGpus()) return p.gpuMemory;
    return p.cpuMemory * (sharesCores(where) ? p.cpuSharedCoreFactor : 1);
}

const LinkSpec& slowestLink(const Placement& where)
{
    return where.nodes > 1 ? where.inter : where.intra;
}

double latencyUs(const LinkSpec& link, const ModelParameters& p)
{
    const auto fitted = p.linkLatencyUs.find(link.id);
    return fitted != p.linkLatencyUs.end() ? fitted->second : link.latencyUs;
}

double rowsPerShard(const JobProfile& job, const Placement& where)
{
    return std::ceil(static_cast<double>(job.rows) / std::max(where.shards, 1));
}

// Seconds of one assignment pass over the shard's rows at k, all of them searched:
// compute and memory sides of the roofline.
struct AssignSides {
    double compute = 0, memory = 0;
};

AssignSides assignSides(const JobProfile& job, const Placement& where, double k, double share, double computeEff, double memoryEff)
{
    const double rows = rowsPerShard(job, where);
    const double d = static_cast<double>(job.cols);
    return {2 * rows * k * d * share / (peakPerShard(job, where) * computeEff), rows * d * 4 / (bandwidthPerShard(where) * memoryEff)};
}

double updateSeconds(const JobProfile& job, const Placement& where, double k, double memoryEff)
{
    // memoryEff carries the shared-core factor where it applies (memoryEfficiency).
    const double rows = rowsPerShard(job, where);
    const double d = static_cast<double>(job.cols);
    return (rows * (d * 4 + 8) + k * (d + 1) * 8) / (bandwidthPerShard(where) * memoryEff);
}

// The all-reduce of the k·(d+1) sums: latency over the ⌈log2 S⌉ rounds of a tree (what
// MPI and NCCL use while messages are small) plus the ring's bandwidth term, which is
// what remains once they are large.
struct ReduceTerms {
    double steps = 0;       // ⌈log2 S⌉
    double bandwidth = 0;   // seconds
};

ReduceTerms reduceTerms(const JobProfile& job, const Placement& where, double k)
{
    const double s = where.shards;
    if (s <= 1) return {};
    const double bytes = k * (static_cast<double>(job.cols) + 1) * 8;
    return {std::ceil(std::log2(s)), 2 * (s - 1) / s * bytes / (slowestLink(where).gbs * 1e9)};
}

double transferSeconds(const JobProfile& job, const Placement& where, double k)
{
    if (!where.onGpus()) return 0;
    const double d = static_cast<double>(job.cols);
    return (k * d * 4 + k * (d + 1) * 8) / (where.host.gbs * 1e9) + 2 * where.host.latencyUs * 1e-6;
}

// Start-up costs are kept per kind of shard and communicator: "cpu threads", "gpu nccl", ...
std::string startupKey(const Placement& where)
{
    return (where.onGpus() ? "gpu " : "cpu ") + where.comm;
}

double startup(const Placement& where, const ModelParameters& p)
{
    const auto fitted = p.startupS.find(startupKey(where));
    if (fitted != p.startupS.end()) return fitted->second;
    double seconds = where.onGpus() ? 0.3 : 0.02;  // a CUDA context; a thread
    if (where.comm == "mpi") seconds += 1.0;        // mpirun starting ranks
    if (where.comm == "nccl") seconds += 0.5;       // communicator set-up
    return seconds;
}

// Everything of a run but its iterations and start-up: initialisation and labels (one
// assignment each), split passes, the upload to GPUs.
double perRunSeconds(const JobProfile& job, const Placement& where, const ModelParameters& p)
{
    const double computeEff = computeEfficiency(job, where, p), memoryEff = memoryEfficiency(where, p);
    const double firstK = job.iterations.empty() ? 1 : job.iterations.front().k;
    const double lastK = job.iterations.empty() ? 1 : job.iterations.back().k;
    const AssignSides init = assignSides(job, where, firstK, 1, computeEff, memoryEff);
    const AssignSides labels = assignSides(job, where, lastK, 1, computeEff, memoryEff);
    const AssignSides split = assignSides(job, where, 2, 1, computeEff, memoryEff);
    double seconds = std::max(init.compute, init.memory) + std::max(labels.compute, labels.memory) +
                     job.splitRounds * job.splitIterations * (std::max(split.compute, split.memory) + updateSeconds(job, where, 2, memoryEff));
    if (where.onGpus()) seconds += rowsPerShard(job, where) * static_cast<double>(job.cols) * 4 / (where.host.gbs * 1e9);
    return seconds;
}

double geometricMean(const std::vector<double>& values)
{
    double logSum = 0;
    for (double v : values) logSum += std::log(v);
    return std::exp(logSum / static_cast<double>(values.size()));
}

double median(std::vector<double> values)
{
    std::sort(values.begin(), values.end());
    const std::size_t n = values.size();
    return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

}  // namespace

Prediction predict(const JobProfile& job, const Placement& where, const ModelParameters& params)
{
    Prediction out;
    const double computeEff = computeEfficiency(job, where, params), memoryEff = memoryEfficiency(where, params);
    const double latency = latencyUs(slowestLink(where), params) * 1e-6;
    double computeSide = 0, memorySide = 0;
    for (const JobIteration& it : job.iterations) {
        const AssignSides assign = assignSides(job, where, it.k, it.searchedShare, computeEff, memoryEff);
        computeSide += assign.compute;
        memorySide += assign.memory;
        out.perIteration.assignMs += std::max(assign.compute, assign.memory) * 1e3;
        out.perIteration.updateMs += updateSeconds(job, where, it.k, memoryEff) * 1e3;
        const ReduceTerms reduce = reduceTerms(job, where, it.k);
        out.perIteration.reduceMs += (reduce.steps * latency + reduce.bandwidth) * 1e3;
        out.perIteration.transferMs += transferSeconds(job, where, it.k) * 1e3;
    }
    out.iterations = static_cast<int>(job.iterations.size());
    const double n = std::max(out.iterations, 1);
    PhaseTimes& ph = out.perIteration;
    const double iterationsMs = ph.total();
    ph.assignMs /= n;
    ph.updateMs /= n;
    ph.reduceMs /= n;
    ph.transferMs /= n;
    out.msPerIteration = ph.total();
    const std::pair<double, std::string> phases[] = {
        {ph.assignMs, computeSide >= memorySide ? "assign (compute)" : "assign (memory)"},
        {ph.updateMs, "update"}, {ph.reduceMs, "reduce"}, {ph.transferMs, "transfer"}};
    ph.bottleneck = std::max_element(std::begin(phases), std::end(phases))->second;

    out.totalS = iterationsMs / 1e3 + perRunSeconds(job, where, params) + startup(where, params);
    // Devices draw their TDP while computing and their idle power otherwise; a CPU shard
    // its cores' share of the socket.
    const DeviceSpec& d = where.device;
    const double busy = out.msPerIteration > 0 ? (ph.assignMs + ph.updateMs) / out.msPerIteration : 1;
    const double deviceShare = d.isGpu() ? where.deviceCount
                               : where.measurable ? std::min(1.0, where.coresPerShard * where.shards / std::max(d.cores, 1))
                                                  : where.deviceCount;
    out.watts = deviceShare * (d.idleW + (d.tdpW - d.idleW) * busy);
    out.energyJ = out.watts * out.totalS;
    out.costUsd = d.usdPerHour * deviceShare * out.totalS / 3600;
    // Rows, labels, bounds and the centroids with their sums, per device.
    const double rows = rowsPerShard(job, where) * (where.onGpus() ? 1 : where.shards / std::max(1.0, static_cast<double>(where.deviceCount)));
    const double k = job.iterations.empty() ? 1 : job.iterations.back().k;
    out.memoryNeededGiB = (rows * (static_cast<double>(job.cols) * 4 + 12) + k * (static_cast<double>(job.cols) + 1) * 16) / kGiB;
    out.fitsInMemory = d.memoryGiB <= 0 || out.memoryNeededGiB <= d.memoryGiB;
    return out;
}

Observation observe(const std::string& runId, const JobProfile& job, const Placement& where,
                    const std::vector<IterationStats>& history, double secondsTotal)
{
    Observation o;
    o.runId = runId;
    o.job = job;
    o.where = where;
    o.secondsTotal = secondsTotal;
    // Medians: a typical iteration, not one the OS stalled.
    std::vector<double> assign, update, reduce;
    for (const IterationStats& s : history) {
        assign.push_back(s.assignMs);
        update.push_back(s.updateMs);
        reduce.push_back(s.reduceMs);
    }
    if (!history.empty()) {
        o.assignMs = median(assign);
        o.updateMs = median(update);
        o.reduceMs = median(reduce);
    }
    return o;
}

ModelParameters calibrate(const std::vector<Observation>& observations, const ModelParameters& defaults)
{
    ModelParameters p = defaults;
    // Efficiencies: what each run reached against its ideal (efficiency 1) time; CPU
    // runs on shared cores apart, as the factor over those on cores of their own.
    std::vector<double> compute[2][2], shared[2], memory[2];  // [gpu][mode], [mode], [gpu]
    std::map<std::string, std::vector<double>> latency;
    for (const Observation& o : observations) {
        if (o.job.iterations.empty() || o.assignMs <= 0) continue;
        const int gpu = o.where.onGpus() ? 1 : 0;
        double idealCompute = 0, idealUpdate = 0;
        ReduceTerms reduce;
        for (const JobIteration& it : o.job.iterations) {
            idealCompute += assignSides(o.job, o.where, it.k, it.searchedShare, 1, 1).compute;
            idealUpdate += updateSeconds(o.job, o.where, it.k, 1);
            const ReduceTerms r = reduceTerms(o.job, o.where, it.k);
            reduce.steps += r.steps;
            reduce.bandwidth += r.bandwidth;
        }
        const double n = static_cast<double>(o.job.iterations.size());
        const double reached = idealCompute / n * 1e3 / o.assignMs;
        (sharesCores(o.where) ? shared[modeIndex(o.job.mode)] : compute[gpu][modeIndex(o.job.mode)]).push_back(reached);
        if (o.updateMs > 0 && !sharesCores(o.where)) memory[gpu].push_back(idealUpdate / n * 1e3 / o.updateMs);
        if (reduce.steps > 0)
            latency[slowestLink(o.where).id].push_back(std::max(0.1, (o.reduceMs * 1e-3 - reduce.bandwidth / n) / (reduce.steps / n) * 1e6));
        p.fittedOn.push_back(o.runId.empty() ? o.where.spelling : o.runId);
    }
    // Only shared-core runs: they set the efficiency itself.
    for (int mode = 0; mode < 2; ++mode)
        if (compute[0][0].empty() && compute[0][1].empty()) compute[0][mode].swap(shared[mode]);
    const char* modeNames[2] = {"fast", "exact"};
    for (int gpu = 0; gpu < 2; ++gpu) {
        double* target = gpu ? p.gpuCompute : p.cpuCompute;
        const double defaultsOf[2] = {target[0], target[1]};
        for (int mode = 0; mode < 2; ++mode)
            if (!compute[gpu][mode].empty()) {
                target[mode] = geometricMean(compute[gpu][mode]);
                p.fitted.push_back(std::string(gpu ? "gpu " : "cpu ") + modeNames[mode] + " compute");
            }
        // A mode nothing measured keeps its default ratio to the one that was.
        for (int mode = 0; mode < 2; ++mode)
            if (compute[gpu][mode].empty() && !compute[gpu][1 - mode].empty())
                target[mode] = target[1 - mode] * defaultsOf[mode] / defaultsOf[1 - mode];
        if (!memory[gpu].empty()) {
            (gpu ? p.gpuMemory : p.cpuMemory) = geometricMean(memory[gpu]);
            p.fitted.push_back(std::string(gpu ? "gpu" : "cpu") + " memory");
        }
    }
    std::vector<double> factors;
    for (int mode = 0; mode < 2; ++mode)
        for (double reached : shared[mode]) factors.push_back(reached / p.cpuCompute[mode]);
    if (!factors.empty()) {
        p.cpuSharedCoreFactor = geometricMean(factors);
        p.fitted.push_back("cpu shared-core factor");
    }
    for (const auto& [link, values] : latency) {
        p.linkLatencyUs[link] = median(values);
        p.fitted.push_back("link " + link + " latency");
    }
    // Start-up: what each run took beyond what the fitted model gives its iterations and passes.
    std::map<std::string, std::vector<double>> startups;
    for (const Observation& o : observations) {
        if (o.job.iterations.empty() || o.secondsTotal <= 0) continue;
        const double iterationsS = (o.assignMs + o.updateMs + o.reduceMs) * 1e-3 * static_cast<double>(o.job.iterations.size());
        startups[startupKey(o.where)].push_back(std::max(0.0, o.secondsTotal - iterationsS - perRunSeconds(o.job, o.where, p)));
    }
    for (const auto& [kind, values] : startups) {
        p.startupS[kind] = median(values);
        p.fitted.push_back("start-up " + kind);
    }
    return p;
}

std::string parametersJson(const ModelParameters& p)
{
    nlohmann::json j;
    j["version"] = kModelVersion;
    j["cpu_compute_efficiency"] = {{"fast", p.cpuCompute[0]}, {"exact", p.cpuCompute[1]}};
    j["gpu_compute_efficiency"] = {{"fast", p.gpuCompute[0]}, {"exact", p.gpuCompute[1]}};
    j["cpu_shared_core_factor"] = p.cpuSharedCoreFactor;
    j["cpu_memory_efficiency"] = p.cpuMemory;
    j["gpu_memory_efficiency"] = p.gpuMemory;
    j["link_latency_us"] = p.linkLatencyUs;
    j["startup_s"] = p.startupS;
    j["fitted_on"] = p.fittedOn;
    j["fitted"] = p.fitted;
    return j.dump();
}

}  // namespace clusterdesk::whatif
