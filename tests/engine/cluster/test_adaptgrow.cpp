// AdaptGrow chooses k: planted sectors in the market demo, planted blobs, and the
// same answer bit for bit on every topology in exact mode.
#include "engine/cluster/metrics.h"
#include "engine/data/demo.h"
#include "engine/exec/run_clustering.h"

#include "doctest_support.h"

#include <cmath>
#include <string>
#include <vector>

#include <cstring>

using namespace clusterdesk;

namespace {

struct FindsMarketSectorsRow {
    std::string tag;
    int mode;
};

std::vector<FindsMarketSectorsRow> findsMarketSectorsRows()
{
    std::vector<FindsMarketSectorsRow> rows;
    rows.push_back({"exact", int(kernels::Mode::Exact)});
    rows.push_back({"fast", int(kernels::Mode::Fast)});
    return rows;
}

}  // namespace

TEST_CASE("findsMarketSectors")
{
    for (const FindsMarketSectorsRow& row : findsMarketSectorsRows()) {
        SUBCASE(row.tag.c_str())
        {
            const int& mode = row.mode;
            const Dataset data = makeDemo("market");
            int sectors = 0;
            for (auto t : data.truth) sectors = std::max(sectors, t + 1);
            KMeansParams params;
            params.algorithm = Algorithm::AdaptGrow;
            params.k0 = 2;
            params.kMax = 40;
            params.mode = static_cast<kernels::Mode>(mode);
            const RunReport report = runClustering(data, params, parseTopology("host"), 2);
            const double ari = adjustedRandIndex(data.truth, report.result.labels);
            MESSAGE(test::format("market: planted %d sectors, found k=%d, ARI %.4f", sectors, report.result.k, ari));
            REQUIRE(std::abs(report.result.k - sectors) <= 1);
            REQUIRE(ari >= 0.9);
        }
    }
}

namespace {

struct FindsPlantedBlobsRow {
    std::string tag;
    std::string spec;
    int planted;
};

std::vector<FindsPlantedBlobsRow> findsPlantedBlobsRows()
{
    std::vector<FindsPlantedBlobsRow> rows;
    rows.push_back({"k=5 d=2", "blobs:n=5000,d=2,k=5,seed=1", 5});
    rows.push_back({"k=12 d=16", "blobs:n=20000,d=16,k=12,seed=2", 12});
    rows.push_back({"k=30 d=32", "blobs:n=30000,d=32,k=30,seed=3", 30});
    return rows;
}

}  // namespace

TEST_CASE("findsPlantedBlobs")
{
    for (const FindsPlantedBlobsRow& row : findsPlantedBlobsRows()) {
        SUBCASE(row.tag.c_str())
        {
            const std::string& spec = row.spec;
            const int& planted = row.planted;
            const Dataset data = makeDemo(spec);
            KMeansParams params;
            params.algorithm = Algorithm::AdaptGrow;
            params.k0 = 2;
            params.kMax = 64;
            const RunReport report = runClustering(data, params, parseTopology("host"), 2);
            const double ari = adjustedRandIndex(data.truth, report.result.labels);
            MESSAGE(test::format("%s: found k=%d, ARI %.4f", std::string(spec).c_str(), report.result.k, ari));
            REQUIRE_EQ(report.result.k, planted);
            REQUIRE(ari > 0.99);
            bool sawSplit = false;
            for (const auto& s : report.result.history) sawSplit |= s.event.rfind("split", 0) == 0;
            REQUIRE(sawSplit);
        }
    }
}

TEST_CASE("exactModeIsBitIdenticalAcrossShards")
{
    const Dataset data = makeDemo("blobs:n=8000,d=6,k=7,seed=4");
    KMeansParams params;
    params.algorithm = Algorithm::AdaptGrow;
    params.mode = kernels::Mode::Exact;
    params.kMax = 20;
    const RunReport reference = runClustering(data, params, parseTopology("host"), 1);
    for (const char* topology : {"shards:2", "shards:3", "shards:7"}) {
        const RunReport other = runClustering(data, params, parseTopology(topology), 2);
        REQUIRE_EQ(other.result.k, reference.result.k);
        REQUIRE_EQ(other.result.labels, reference.result.labels);
        REQUIRE(std::memcmp(other.result.centroids.data(), reference.result.centroids.data(),
                            reference.result.centroids.size() * sizeof(float)) == 0);
    }
}

TEST_CASE("respectsKMax")
{
    const Dataset data = makeDemo("blobs:n=5000,d=4,k=20,seed=6");
    KMeansParams params;
    params.algorithm = Algorithm::AdaptGrow;
    params.kMax = 7;
    const RunReport report = runClustering(data, params, parseTopology("host"), 2);
    REQUIRE(report.result.k <= 7);
    REQUIRE(report.result.k >= 4);
}
