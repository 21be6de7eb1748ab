// C (m x n) = A (m x kk, row-major) * B^T, B being n x kk row-major: the block
// product behind fast-mode distances. OpenBLAS when the build found it, else a
// plain loop so that the engine still builds where no BLAS is installed.
#pragma once

#include <cstdint>

namespace clusterdesk::kernels::host {

void gemmABt(const float* a, const float* b, float* c, std::int64_t m, std::int64_t n, std::int64_t kk);

// Keeps BLAS single-threaded: the backend already runs one block per OpenMP thread.
void useSingleThreadedBlas();

// "OpenBLAS" or "built-in loop".
const char* blasName();
// What a report records of the BLAS: OpenBLAS's build configuration ("OpenBLAS 0.3.21
// NO_AFFINITY Zen MAX_THREADS=64"), or that none was built in.
const char* blasConfig();

}  // namespace clusterdesk::kernels::host
