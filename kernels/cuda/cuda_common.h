// Internal to libclusterdesk_cuda.so: error checks shared by its translation units and
// the one entry point that lives in a file of its own. No Thrust types here.
#pragma once

#include <cublas_v2.h>
#include <cuda_runtime_api.h>

#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>

namespace clusterdesk::kernels::cuda {

[[noreturn]] inline void throwCudaError(cudaError_t error, const char* what, const char* file, int line)
{
    throw std::runtime_error(std::string(file) + ":" + std::to_string(line) + ": " + what + " failed: " +
                             cudaGetErrorName(error) + " (" + cudaGetErrorString(error) + ")");
}

inline void checkCuda(cudaError_t error, const char* what, const char* file, int line)
{
    if (error != cudaSuccess) throwCudaError(error, what, file, line);
}

inline void checkCublas(cublasStatus_t status, const char* what, const char* file, int line)
{
    if (status != CUBLAS_STATUS_SUCCESS) {
        throw std::runtime_error(std::string(file) + ":" + std::to_string(line) + ": " + what + " failed: " +
                                 cublasGetStatusName(status) + " (" + cublasGetStatusString(status) + ")");
    }
}

// The C entry points report failures as text in the caller's buffer.
inline void writeReason(char* reason, std::size_t size, const char* text) noexcept
{
    if (reason != nullptr && size > 0) std::snprintf(reason, size, "%s", text);
}

}  // namespace clusterdesk::kernels::cuda

#define CD_CUDA_CHECK(expr) ::clusterdesk::kernels::cuda::checkCuda((expr), #expr, __FILE__, __LINE__)
#define CD_CUBLAS_CHECK(expr) ::clusterdesk::kernels::cuda::checkCublas((expr), #expr, __FILE__, __LINE__)
