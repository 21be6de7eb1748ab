// Local sharded runs (runClustering): every iteration carries every shard's phase
// timings, the report says how the shards were joined, and a GPU topology without a
// GPU fails with the reason instead of crashing.
#include "engine/core/error.h"
#include "engine/data/demo.h"
#include "engine/exec/run_clustering.h"
#include "kernels/backend_registry.h"

#include "doctest_support.h"

#include <string>

using namespace clusterdesk;

TEST_CASE("iterationsCarryEveryShardsTiming")
{
    const Dataset data = makeDemo("blobs:n=9000,d=6,k=5,seed=8");
    KMeansParams params;
    params.k = 5;
    int callbacks = 0;
    RunControl control;
    control.onIteration = [&](const IterationStats& s) {
        ++callbacks;
        CHECK_EQ(s.ranks.size(), std::size_t{3});
        CHECK_EQ(s.ranks[0].assignMs, s.assignMs);
        CHECK_EQ(s.ranks[0].updateMs, s.updateMs);
        CHECK_EQ(s.ranks[0].reduceMs, s.reduceMs);
    };
    const RunReport report = runClustering(data, params, parseTopology("shards:3"), 2, control);
    REQUIRE(callbacks >= 1);
    REQUIRE_EQ(report.communicator, std::string("local threads"));
    for (const IterationStats& s : report.result.history) REQUIRE_EQ(s.ranks.size(), std::size_t{3});
    const RunReport single = runClustering(data, params, parseTopology("host"), 2);
    REQUIRE_EQ(single.result.history.front().ranks.size(), std::size_t{1});
    REQUIRE(single.communicator.empty());
}

TEST_CASE("gpuTopologyWithoutGpuSaysWhy")
{
    const kernels::CudaAvailability cuda = kernels::cudaAvailability();
    if (cuda.deviceCount > 0) CLUSTERDESK_SKIP("this machine has a GPU; test_cuda_backend runs cuda:0,0");
    const Dataset data = makeDemo("blobs:n=2000,d=4,k=3");
    KMeansParams params;
    params.k = 3;
    try {
        runClustering(data, params, parseTopology("cuda:0,0"), 2);
        FAIL("ran on a GPU that is not there");
    } catch (const DeviceError& e) {
        REQUIRE_MESSAGE(test::contains(std::string(e.what()), "cuda:0"), e.what());
    }
}
