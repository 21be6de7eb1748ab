// Energy of one run per device and in all, as the run summary and the store record it.
// Kept apart from the sampler so readers of a summary need no thread machinery.
#pragma once

#include "power_source.h"

#include <string>
#include <vector>

namespace clusterdesk {

struct DeviceEnergy {
    std::string device;  // "cpu package 0", "GPU 0 NVIDIA H200"
    std::string source;  // "nvml", "rapl", "estimated"
    PowerKind kind = PowerKind::Estimated;
    double joules = 0;
};

struct PowerSummary {
    double energyJ = 0;                   // all devices together
    std::string energySource;             // "measured", "estimated" or "mixed"; empty when no device was sampled
    double seconds = 0;                   // from start to stop
    std::vector<DeviceEnergy> devices;    // in discovery order
    std::vector<std::string> unavailable; // why a mechanism or device was not used
};

// "measured" when every device is, "estimated" when every device is, else "mixed".
std::string energySourceLabel(const std::vector<DeviceEnergy>& devices);

}  // namespace clusterdesk
