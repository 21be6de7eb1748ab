// The CUDA backend against the host one through whole runs: exact mode must give the
// same labels and centroids bit for bit on cuda:0 (and sharded: cuda:0,0, cuda:0,1) as
// on the host, fast mode the same clustering. Needs a GPU; without one every test says it was skipped and why.
#include "engine/cluster/metrics.h"
#include "engine/data/demo.h"
#include "engine/exec/run_clustering.h"
#include "kernels/backend_registry.h"

#include "doctest_support.h"

#include <cmath>
#include <string>
#include <vector>

#include <cstring>

using namespace clusterdesk;

namespace {

// Empty where a CUDA GPU is usable; otherwise why not, which every test prints as it skips.
std::string noGpuReason()
{
    const kernels::CudaAvailability cuda = kernels::cudaAvailability();
    return cuda.deviceCount == 0 ? "needs a CUDA GPU: " + cuda.reason : std::string();
}

}  // namespace

namespace {

struct ExactRunMatchesHostBitForBitRow {
    std::string tag;
    int algorithm;
};

std::vector<ExactRunMatchesHostBitForBitRow> exactRunMatchesHostBitForBitRows()
{
    std::vector<ExactRunMatchesHostBitForBitRow> rows;
    rows.push_back({"kmeans", int(Algorithm::KMeans)});
    rows.push_back({"adaptgrow", int(Algorithm::AdaptGrow)});
    return rows;
}

}  // namespace

TEST_CASE("exactRunMatchesHostBitForBit")
{
    if (const std::string why = noGpuReason(); !why.empty()) CLUSTERDESK_SKIP(why);
    for (const ExactRunMatchesHostBitForBitRow& row : exactRunMatchesHostBitForBitRows()) {
        SUBCASE(row.tag.c_str())
        {
            const int& algorithm = row.algorithm;
            const Dataset data = makeDemo("blobs:n=50000,d=24,k=12,seed=5,spread=2");
            KMeansParams params;
            params.algorithm = static_cast<Algorithm>(algorithm);
            params.k = 12;
            params.kMax = 24;
            params.mode = kernels::Mode::Exact;
            const RunReport host = runClustering(data, params, parseTopology("host"), 2);
            const RunReport gpu = runClustering(data, params, parseTopology("cuda"), 2);
            REQUIRE_EQ(gpu.backend, std::string("cuda"));
            REQUIRE_EQ(gpu.result.k, host.result.k);
            REQUIRE_EQ(gpu.result.labels, host.result.labels);
            REQUIRE(std::memcmp(gpu.result.centroids.data(), host.result.centroids.data(),
                                host.result.centroids.size() * sizeof(float)) == 0);
            REQUIRE_EQ(gpu.result.inertia, host.result.inertia);
        }
    }
}

namespace {

struct ShardsOnGpusMatchHostBitForBitRow {
    std::string tag;
    std::string topology;
};

std::vector<ShardsOnGpusMatchHostBitForBitRow> shardsOnGpusMatchHostBitForBitRows()
{
    std::vector<ShardsOnGpusMatchHostBitForBitRow> rows;
    // Several shards on GPU 0 (a one-GPU machine's multi-shard path), and one shard
    // per GPU joined by NCCL where there are several.
    rows.push_back({"cuda:0,0", "cuda:0,0"});
    rows.push_back({"cuda:0,0,0", "cuda:0,0,0"});
    rows.push_back({"cuda:0,1", "cuda:0,1"});
    return rows;
}

}  // namespace

TEST_CASE("shardsOnGpusMatchHostBitForBit")
{
    if (const std::string why = noGpuReason(); !why.empty()) CLUSTERDESK_SKIP(why);
    for (const ShardsOnGpusMatchHostBitForBitRow& row : shardsOnGpusMatchHostBitForBitRows()) {
        SUBCASE(row.tag.c_str())
        {
            const std::string& topology = row.topology;
            if (topology == "cuda:0,1" && kernels::cudaAvailability().deviceCount < 2) CLUSTERDESK_SKIP("needs two GPUs");
            const Dataset data = makeDemo("blobs:n=50000,d=24,k=12,seed=5,spread=2");
            KMeansParams params;
            params.k = 12;
            params.init = InitMethod::KMeansParallel;
            params.mode = kernels::Mode::Exact;
            const RunReport host = runClustering(data, params, parseTopology("host"), 2);
            const RunReport gpu = runClustering(data, params, parseTopology(topology), 2);
            MESSAGE(test::format("%s: shards joined by %s", std::string(topology).c_str(), gpu.communicator.c_str()));
            REQUIRE_EQ(gpu.result.labels, host.result.labels);
            REQUIRE(std::memcmp(gpu.result.centroids.data(), host.result.centroids.data(),
                                host.result.centroids.size() * sizeof(float)) == 0);
            REQUIRE_EQ(gpu.result.inertia, host.result.inertia);
            REQUIRE_EQ(gpu.result.history.front().ranks.size(), static_cast<std::size_t>(parseTopology(topology).shardCount()));
        }
    }
}

namespace {

struct FastRunAgreesWithHostRow {
    std::string tag;
    int precision;
};

std::vector<FastRunAgreesWithHostRow> fastRunAgreesWithHostRows()
{
    std::vector<FastRunAgreesWithHostRow> rows;
    rows.push_back({"fp32", int(kernels::Precision::FP32)});
    rows.push_back({"tf32", int(kernels::Precision::TF32)});
    rows.push_back({"bf16", int(kernels::Precision::BF16)});
    return rows;
}

}  // namespace

TEST_CASE("fastRunAgreesWithHost")
{
    if (const std::string why = noGpuReason(); !why.empty()) CLUSTERDESK_SKIP(why);
    for (const FastRunAgreesWithHostRow& row : fastRunAgreesWithHostRows()) {
        SUBCASE(row.tag.c_str())
        {
            const int& precision = row.precision;
            const Dataset data = makeDemo("blobs:n=50000,d=24,k=12,seed=5,spread=2");
            KMeansParams params;
            params.k = 12;
            params.precision = static_cast<kernels::Precision>(precision);
            const RunReport host = runClustering(data, params, parseTopology("host"), 2);
            const RunReport gpu = runClustering(data, params, parseTopology("cuda"), 2);
            const double ari = adjustedRandIndex(host.result.labels, gpu.result.labels);
            MESSAGE(test::format("%s: ARI host vs cuda %.6f, inertia %.8g vs %.8g", kernels::toString(params.precision).c_str(), ari,
                  host.result.inertia, gpu.result.inertia));
            REQUIRE(ari >= 0.999);
            REQUIRE(std::abs(gpu.result.inertia - host.result.inertia) <= 1e-3 * host.result.inertia);
        }
    }
}
