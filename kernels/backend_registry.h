// Finding and creating backends: the host one is built in; CUDA devices come from the
// plug-in libclusterdesk_cuda.so, loaded on first use, so a machine without a GPU,
// driver or CUDA runtime still runs everything on the host.
#pragma once

#include "backend.h"

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace clusterdesk::kernels {

// A backend that was asked for but cannot run here; what() says why.
class BackendUnavailable : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct CudaAvailability {
    int deviceCount = 0;
    std::string reason;  // why there are none, when deviceCount == 0
};

// Loads the plug-in (once) and counts usable devices.
CudaAvailability cudaAvailability();

// An entry point of the CUDA plug-in beyond the backend's (the NCCL ones of
// cuda/nccl_plugin.h), or null with `reason` set when the plug-in or the symbol is missing.
void* cudaPluginSymbol(const char* name, std::string& reason);

// "host" or "cuda:N". Throws BackendUnavailable with the reason.
std::unique_ptr<Backend> createBackend(const std::string& name);

}  // namespace clusterdesk::kernels
