#include "vector_state.h"

namespace clusterdesk {

void clearUpperVectorState()
{
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    // Checked at run time: the instruction faults on a CPU without AVX.
    if (__builtin_cpu_supports("avx")) __asm__ volatile("vzeroupper" ::: "memory");
#endif
}

}  // namespace clusterdesk
