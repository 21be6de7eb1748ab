// Where the power of one device comes from: a measured source (NVML for GPUs, RAPL
// for CPU packages) or an estimate from utilisation and a catalog TDP. A sampler reads
// every source at a fixed rate and integrates energy; each source says what it is, so
// a report never mixes measured and estimated joules silently.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace clusterdesk {

enum class PowerKind { Measured, Estimated };

std::string toString(PowerKind kind);  // "measured" or "estimated"

// One read of a source.
struct PowerReading {
    double watts = 0;  // power now, or the mean since the previous read for counter sources
    // Energy in joules since the source was created, for sources that count energy
    // (RAPL, NVML on Volta and later, the estimate). Unset for sources that only report
    // instantaneous power; the sampler integrates those itself (trapezoid rule).
    std::optional<double> energyJ;
};

class PowerSource {
public:
    virtual ~PowerSource() = default;

    virtual std::string name() const = 0;    // the mechanism: "nvml", "rapl", "estimated"
    virtual std::string device() const = 0;  // what is measured: "cpu package 0", "GPU 0 NVIDIA H200"
    virtual PowerKind kind() const = 0;
    // Reads the source now. nullopt when this read failed (a transient sysfs or driver
    // error); the sampler skips that tick for this device.
    virtual std::optional<PowerReading> read() = 0;
};

// The sources a mechanism found, and why the rest (or the mechanism) are unavailable:
// "nvml: cannot load libnvidia-ml.so.1 (...)".
struct PowerDiscovery {
    std::vector<std::unique_ptr<PowerSource>> sources;
    std::vector<std::string> unavailable;
};

}  // namespace clusterdesk
