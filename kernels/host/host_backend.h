// The host backend: the row functors run by Thrust's OpenMP system (or OpenMP loops
// where a reduction needs thread-private buffers), fast-mode GEMM through OpenBLAS.
#pragma once

#include "../backend.h"

#include <memory>

namespace clusterdesk::kernels {

// Uses the calling thread's OpenMP thread count (omp_set_num_threads before use).
std::unique_ptr<Backend> createHostBackend();

}  // namespace clusterdesk::kernels
