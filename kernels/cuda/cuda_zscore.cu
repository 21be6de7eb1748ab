// Compiled with --fmad=false (see CMakeLists.txt and cuda_common.h): the only functor
// in row_functors.h with a contractible a*b+c is ZscoreRow, and its output is data.
#include "kernels/cuda/cuda_common.h"
#include "kernels/row_functors.h"

#include <thrust/execution_policy.h>
#include <thrust/for_each.h>
#include <thrust/iterator/counting_iterator.h>

namespace clusterdesk::kernels::cuda {

void zscoreRowsOnDevice(float* rows, std::int64_t rowCount, std::int64_t cols, cudaStream_t stream)
{
    thrust::for_each(thrust::cuda::par_nosync.on(stream), thrust::counting_iterator<std::int64_t>(0),
                     thrust::counting_iterator<std::int64_t>(rowCount), detail::ZscoreRow{rows, cols});
}

}  // namespace clusterdesk::kernels::cuda
