// k-means on sharded data: exact mode's bit-identity across topologies and thread
// counts, initialisations, empty-cluster repair, convergence and cancellation.
#include "engine/cluster/metrics.h"
#include "engine/core/error.h"
#include "engine/data/demo.h"
#include "engine/exec/run_clustering.h"

#include "doctest_support.h"

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>
#include <algorithm>

#include <omp.h>

#include <atomic>
#include <cstring>

using namespace clusterdesk;

namespace {

RunReport run(const Dataset& data, KMeansParams params, const std::string& topology, int threads,
              const RunControl& control = {})
{
    return runClustering(data, params, parseTopology(topology), threads, control);
}

bool sameBits(const std::vector<float>& a, const std::vector<float>& b)
{
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

}  // namespace

namespace {

struct ExactModeIsBitIdenticalEverywhereRow {
    std::string tag;
    std::string topology;
    int threads;
    int init;
};

std::vector<ExactModeIsBitIdenticalEverywhereRow> exactModeIsBitIdenticalEverywhereRows()
{
    std::vector<ExactModeIsBitIdenticalEverywhereRow> rows;
    for (int init : {int(InitMethod::KMeansPlusPlus), int(InitMethod::KMeansParallel)}) {
        const char* name = init == int(InitMethod::KMeansPlusPlus) ? "kmeans++" : "kmeans||";
        rows.push_back({test::format("%s host 2 threads", name), "host", 2, init});
        rows.push_back({test::format("%s shards:2", name), "shards:2", 2, init});
        rows.push_back({test::format("%s shards:3", name), "shards:3", 3, init});
        rows.push_back({test::format("%s shards:7", name), "shards:7", 2, init});
        rows.push_back({test::format("%s shards:7 x 1 thread", name), "shards:7", 7, init});
    }
    return rows;
}

}  // namespace

// Reference: one shard, one thread. Labels, centroids and inertia must match bit for bit.
TEST_CASE("exactModeIsBitIdenticalEverywhere")
{
    for (const ExactModeIsBitIdenticalEverywhereRow& row : exactModeIsBitIdenticalEverywhereRows()) {
        SUBCASE(row.tag.c_str())
        {
            const std::string& topology = row.topology;
            const int& threads = row.threads;
            const int& init = row.init;
            const Dataset data = makeDemo("blobs:n=6000,d=11,k=9,seed=3,spread=3");
            KMeansParams params;
            params.k = 9;
            params.mode = kernels::Mode::Exact;
            params.init = static_cast<InitMethod>(init);
            params.seed = 11;
            params.tolerance = 0;
            params.maxIterations = 30;
            const RunReport reference = run(data, params, "host", 1);
            const RunReport other = run(data, params, topology, threads);
            REQUIRE_EQ(other.result.labels, reference.result.labels);
            REQUIRE(sameBits(other.result.centroids, reference.result.centroids));
            REQUIRE_EQ(other.result.inertia, reference.result.inertia);
            REQUIRE_EQ(other.result.iterations, reference.result.iterations);
        }
    }
}

// Fast mode sums in floating point: topologies may differ in the last bits, not in the answer.
TEST_CASE("fastModeAgreesWithExact")
{
    const Dataset data = makeDemo("blobs:n=20000,d=16,k=8,seed=5");
    KMeansParams params;
    params.k = 8;
    params.seed = 2;
    const RunReport exact = [&] { auto p = params; p.mode = kernels::Mode::Exact; return run(data, p, "host", 2); }();
    const RunReport fast = run(data, params, "shards:3", 2);
    REQUIRE(adjustedRandIndex(exact.result.labels, fast.result.labels) > 0.999);
    REQUIRE(std::abs(exact.result.inertia - fast.result.inertia) <= 1e-5 * exact.result.inertia);
}

TEST_CASE("findsPlantedBlobs")
{
    const Dataset data = makeDemo("blobs:n=20000,d=8,k=6,seed=9");
    KMeansParams params;
    params.k = 6;
    params.init = InitMethod::KMeansParallel;
    const RunReport report = run(data, params, "host", 2);
    REQUIRE(report.result.converged);
    REQUIRE_MESSAGE(adjustedRandIndex(data.truth, report.result.labels) > 0.99, "planted blobs not recovered");
    std::int64_t total = 0;
    for (auto size : report.result.sizes) total += size;
    REQUIRE_EQ(total, data.rows);
}

// Every initial centroid at the same point: all but one cluster start empty and must
// be re-seeded at the farthest rows.
TEST_CASE("repairsEmptyClusters")
{
    const Dataset data = makeDemo("blobs:n=3000,d=4,k=5,seed=1");
    KMeansParams params;
    params.k = 5;
    params.mode = kernels::Mode::Exact;
    params.init = InitMethod::Given;
    for (int c = 0; c < 5; ++c) params.initialCentroids.insert(params.initialCentroids.end(), data.row(0), data.row(0) + data.cols);
    const RunReport report = run(data, params, "shards:2", 2);
    for (auto size : report.result.sizes) REQUIRE(size > 0);
    const auto& c = report.result.centroids;
    for (int a = 0; a < 5; ++a)
        for (int b = a + 1; b < 5; ++b)
            REQUIRE(!std::equal(c.begin() + a * data.cols, c.begin() + (a + 1) * data.cols, c.begin() + b * data.cols));
    // Re-seeded at the farthest rows, the clusters spread over the blobs.
    REQUIRE(adjustedRandIndex(data.truth, report.result.labels) > 0.9);
}

// Fewer distinct rows than clusters: nothing can fill the spare clusters, and the run
// must still converge rather than re-seed them forever.
TEST_CASE("moreClustersThanDistinctRows")
{
    Dataset data;
    data.rows = 40;
    data.cols = 2;
    for (int i = 0; i < 40; ++i) data.values.insert(data.values.end(), {static_cast<float>(i % 2), 1.f});
    KMeansParams params;
    params.k = 5;
    params.mode = kernels::Mode::Exact;
    const RunReport report = run(data, params, "shards:2", 2);
    REQUIRE(report.result.converged);
    REQUIRE_EQ(report.result.inertia, 0.0);
}

// Every row its own cluster: the inertia is a sum of exact zeros.
TEST_CASE("oneClusterPerRowHasZeroInertia")
{
    const Dataset data = makeDemo("blobs:n=60,d=5,k=3,seed=8");
    KMeansParams params;
    params.k = 60;
    params.mode = kernels::Mode::Exact;
    const RunReport report = run(data, params, "host", 1);
    REQUIRE_EQ(report.result.inertia, 0.0);
}

TEST_CASE("givenCentroidsAreUsedAsIs")
{
    const Dataset data = makeDemo("blobs:n=1000,d=3,k=3,seed=4");
    KMeansParams params;
    params.k = 3;
    params.init = InitMethod::Given;
    params.maxIterations = 1;
    params.initialCentroids.assign(data.values.begin(), data.values.begin() + 3 * data.cols);
    const RunReport report = run(data, params, "host", 1);
    REQUIRE_EQ(report.result.history.size(), std::size_t(1));
    // One iteration assigns to the given centroids: its inertia is theirs.
    double expected = 0;
    for (std::int64_t i = 0; i < data.rows; ++i) {
        double best = INFINITY;
        for (int c = 0; c < 3; ++c) {
            double d2 = 0;
            for (std::int64_t j = 0; j < data.cols; ++j) {
                const double t = data.row(i)[j] - params.initialCentroids[static_cast<std::size_t>(c * data.cols + j)];
                d2 += t * t;
            }
            best = std::min(best, d2);
        }
        expected += best;
    }
    REQUIRE(std::abs(report.result.history[0].inertia - expected) <= 1e-4 * expected);
}

namespace {

struct RejectsImpossibleParametersRow {
    std::string tag;
    int k;
    std::string topology;
    std::string message;
};

std::vector<RejectsImpossibleParametersRow> rejectsImpossibleParametersRows()
{
    std::vector<RejectsImpossibleParametersRow> rows;
    rows.push_back({"k > rows", 200, "host", "k must not exceed the number of rows (k=200, rows=100)"});
    rows.push_back({"k = 0", 0, "host", "k must be at least 1"});
    rows.push_back({"shards > rows", 3, "shards:101", "more shards than rows"});
    rows.push_back({"bad topology", 3, "gpus", "unknown topology 'gpus'"});
    return rows;
}

}  // namespace

TEST_CASE("rejectsImpossibleParameters")
{
    for (const RejectsImpossibleParametersRow& row : rejectsImpossibleParametersRows()) {
        SUBCASE(row.tag.c_str())
        {
            const int& k = row.k;
            const std::string& topology = row.topology;
            const std::string& message = row.message;
            const Dataset data = makeDemo("blobs:n=100,d=2,k=2");
            KMeansParams params;
            params.k = k;
            try {
                run(data, params, topology, 1);
                FAIL("no error");
            } catch (const UsageError& e) {
                REQUIRE_MESSAGE(test::contains(std::string(e.what()), message), e.what());
            }
        }
    }
}

// The flag is read once per iteration: a run cancelled from its first iteration's
// callback stops right after that iteration, on every shard.
TEST_CASE("cancelStopsWithinOneIteration")
{
    const Dataset data = makeDemo("blobs:n=20000,d=8,k=16,seed=2");
    KMeansParams params;
    params.k = 16;
    params.tolerance = 0;
    params.maxIterations = 50;
    std::atomic<bool> cancel{false};
    int seen = 0;
    RunControl control;
    control.cancel = &cancel;
    control.onIteration = [&](const IterationStats&) {
        ++seen;
        cancel = true;
    };
    const RunReport report = run(data, params, "shards:3", 3, control);
    REQUIRE(report.result.cancelled);
    REQUIRE(!report.result.converged);
    REQUIRE_MESSAGE(report.result.iterations <= 2, std::string(std::to_string(report.result.iterations)).c_str());
    REQUIRE_EQ(report.result.labels.size(), std::size_t(data.rows));
}

// Cancelled before the first centroid is chosen: the run stops in initialisation.
TEST_CASE("cancelDuringInitialisation")
{
    const Dataset data = makeDemo("blobs:n=5000,d=4,k=20,seed=2");
    KMeansParams params;
    params.k = 20;
    std::atomic<bool> cancel{true};
    RunControl control;
    control.cancel = &cancel;
    REQUIRE_THROWS_AS(run(data, params, "shards:3", 3, control), Cancelled);
}

TEST_CASE("historyRecordsEveryIteration")
{
    const Dataset data = makeDemo("blobs:n=5000,d=6,k=4,seed=8");
    KMeansParams params;
    params.k = 4;
    int calls = 0;
    RunControl control;
    control.onIteration = [&](const IterationStats& s) {
        ++calls;
        std::int64_t total = 0;
        for (auto n : s.sizes) total += n;
        CHECK_EQ(total, data.rows);
        CHECK((s.assignMs >= 0 && s.updateMs >= 0 && s.reduceMs >= 0));
    };
    const RunReport report = run(data, params, "shards:2", 2, control);
    REQUIRE_EQ(calls, report.result.iterations);
    REQUIRE_EQ(report.result.history.size(), std::size_t(report.result.iterations));
    for (std::size_t i = 1; i < report.result.history.size(); ++i)
        REQUIRE(report.result.history[i].inertia <= report.result.history[i - 1].inertia * (1 + 1e-6));
}
