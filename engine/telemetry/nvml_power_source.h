// GPU power from NVML, loaded at run time (dlopen of libnvidia-ml.so.1), so the same
// build runs on machines without an NVIDIA driver: there NVML is simply unavailable.
#pragma once

#include "power_source.h"

namespace clusterdesk {

// One source per GPU NVML reports. Without the library, the driver or any GPU the
// result holds no source and one reason, e.g. "nvml: cannot load libnvidia-ml.so.1
// (libnvidia-ml.so.1: cannot open shared object file ...)". Never throws.
PowerDiscovery discoverNvmlSources();

}  // namespace clusterdesk
