#include "host_gemm.h"

#if defined(CLUSTERDESK_HAVE_OPENBLAS)
#include <cblas.h>
#endif

namespace clusterdesk::kernels::host {

void gemmABt(const float* a, const float* b, float* c, std::int64_t m, std::int64_t n, std::int64_t kk)
{
#if defined(CLUSTERDESK_HAVE_OPENBLAS)
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, static_cast<blasint>(m), static_cast<blasint>(n),
                static_cast<blasint>(kk), 1.0f, a, static_cast<blasint>(kk), b, static_cast<blasint>(kk), 0.0f, c,
                static_cast<blasint>(n));
#else
    for (std::int64_t i = 0; i < m; ++i) {
        for (std::int64_t j = 0; j < n; ++j) {
            float acc = 0.f;
            for (std::int64_t p = 0; p < kk; ++p) acc += a[i * kk + p] * b[j * kk + p];
            c[i * n + j] = acc;
        }
    }
#endif
}

void useSingleThreadedBlas()
{
#if defined(CLUSTERDESK_HAVE_OPENBLAS)
    openblas_set_num_threads(1);
#endif
}

const char* blasName()
{
#if defined(CLUSTERDESK_HAVE_OPENBLAS)
    return "OpenBLAS";
#else
    return "built-in loop";
#endif
}

const char* blasConfig()
{
#if defined(CLUSTERDESK_HAVE_OPENBLAS)
    return openblas_get_config();
#else
    return "not built in (plain loops)";
#endif
}

}  // namespace clusterdesk::kernels::host
