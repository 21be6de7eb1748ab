// Samples every power source at a fixed rate (10 Hz by default) on its own thread
// while a run executes, and integrates each device's energy.
//
//     PowerSampler sampler;           // discovers NVML GPUs, RAPL packages, else the estimate
//     sampler.start();
//     ... run ...
//     sampler.stop();
//     PowerSummary energy = sampler.summary();
#pragma once

#include "power_summary.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <mutex>
#include <thread>

namespace clusterdesk {

// One reading of one device.
struct PowerSample {
    double seconds = 0;  // since start()
    int device = 0;      // index into summary().devices
    double watts = 0;
    PowerKind kind = PowerKind::Estimated;
};

struct PowerSamplerOptions {
    std::chrono::milliseconds period{100};                   // between samples
    bool useNvml = true;                                     // look for GPUs through NVML
    std::filesystem::path powercapRoot = "/sys/class/powercap";  // RAPL zones
    std::filesystem::path procStat = "/proc/stat";           // for the estimate
};

// NVML GPUs and RAPL packages; when no CPU power is measured, the estimated CPU source.
// Never throws: what cannot be used is listed in unavailable with the reason.
PowerDiscovery discoverPowerSources(const PowerSamplerOptions& options = {});

// start(), stop() and the destructor belong to the owning thread; summary() and
// samples() may be called from it while sampling runs (for live plots).
class PowerSampler {
public:
    explicit PowerSampler(const PowerSamplerOptions& options = {});
    // With given sources (a test's, or a caller's own choice).
    PowerSampler(PowerDiscovery sources, std::chrono::milliseconds period);
    ~PowerSampler();  // stops and joins the thread

    PowerSampler(const PowerSampler&) = delete;
    PowerSampler& operator=(const PowerSampler&) = delete;

    // Starts a fresh measurement: earlier samples and totals are dropped. Does nothing
    // while already running.
    void start();
    // Takes a last sample, so the tail of the run counts, and joins the thread. A
    // measurement always spans at least two samples, however short.
    void stop();
    bool running() const { return m_thread.joinable(); }

    PowerSummary summary() const;
    std::vector<PowerSample> samples() const;
    std::size_t deviceCount() const { return m_sources.size(); }

private:
    struct DeviceState {
        std::optional<PowerReading> first;  // the reading at start
        std::optional<PowerReading> last;
        double lastSeconds = 0;
        double joules = 0;
    };

    void loop();
    void sampleAll(double seconds);

    std::vector<std::unique_ptr<PowerSource>> m_sources;
    std::vector<std::string> m_unavailable;
    std::chrono::milliseconds m_period;

    std::thread m_thread;
    std::atomic<bool> m_stop{false};
    std::mutex m_wakeMutex;  // with m_wake, lets stop() cut a sleep short
    std::condition_variable m_wake;
    std::chrono::steady_clock::time_point m_start;
    double m_stopSeconds = 0;

    mutable std::mutex m_mutex;  // guards what the thread writes and summary() reads
    std::vector<DeviceState> m_state;
    std::vector<PowerSample> m_samples;
};

}  // namespace clusterdesk
