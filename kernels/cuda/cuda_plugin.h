// The C entry points of libclusterdesk_cuda.so, looked up with dlsym by the backend
// registry. Keeping them C and few means a machine without CUDA only ever fails one
// dlopen, with a message, and never links against libcudart.
#pragma once

#include <cstddef>

namespace clusterdesk::kernels {
class Backend;
}

extern "C" {
// Usable CUDA devices; -1 with the reason written when the runtime or driver fails.
int clusterdesk_cuda_device_count(char* reason, std::size_t reasonSize);
// A backend on one device, or null with the reason written. The caller owns it.
clusterdesk::kernels::Backend* clusterdesk_cuda_create_backend(int device, char* reason, std::size_t reasonSize);
}

namespace clusterdesk::kernels {
using CudaDeviceCountFn = int (*)(char*, std::size_t);
using CudaCreateBackendFn = Backend* (*)(int, char*, std::size_t);
}  // namespace clusterdesk::kernels
