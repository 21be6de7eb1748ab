// AdaptGrow chooses k: planted sectors in the market demo (the strong one and the
// realistic default, small universes and long windows), none in pure noise, planted
// blobs, and the same answer bit for bit on every topology in exact mode.
#include "engine/cluster/metrics.h"
#include "engine/data/demo.h"
#include "engine/exec/run_clustering.h"

#include "doctest_support.h"

#include <algorithm>
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
            const Dataset data = makeDemo("market:strong=1");
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

RunReport adaptGrowOn(const Dataset& data, kernels::Mode mode = kernels::Mode::Fast, const char* topology = "host")
{
    KMeansParams params;
    params.algorithm = Algorithm::AdaptGrow;
    params.k0 = 2;
    params.kMax = static_cast<int>(std::min<std::int64_t>(64, data.rows));
    params.mode = mode;
    return runClustering(data, params, parseTopology(topology), 2);
}

std::string realisticSpec(int assets, int window, int days, int seed, const char* extra = "")
{
    return test::format("market:assets=%d,sectors=10,days=%d,window=%d,seed=%d%s", assets, days, window, seed, extra);
}

}  // namespace

// The realistic demo (correlations of real daily equity returns) in every benchmark
// cell with 50 assets or more: the planted 10 sectors are found, +-1.
TEST_CASE("findsRealisticSectors")
{
    for (int assets : {50, 100, 500})
        for (int window : {250, 750, 2000}) {
            SUBCASE(test::format("assets=%d window=%d", assets, window).c_str())
            {
                const Dataset data = makeDemo(realisticSpec(assets, window, window + 1, 1));
                const RunReport report = adaptGrowOn(data);
                const double ari = adjustedRandIndex(data.truth, report.result.labels);
                MESSAGE(test::format("%s: found k=%d, ARI %.4f", data.source.c_str(), report.result.k, ari));
                CHECK(std::abs(report.result.k - 10) <= 1);
            }
        }
}

// Returns with no common factor at all: there is nothing to split, at any window.
TEST_CASE("pureNoiseIsOneCluster")
{
    for (int assets : {20, 100, 500})
        for (int window : {250, 2000}) {
            SUBCASE(test::format("assets=%d window=%d", assets, window).c_str())
            {
                const Dataset data = makeDemo(realisticSpec(assets, window, window + 1, 3, ",corr_market=0,corr_sector=0"));
                const RunReport report = adaptGrowOn(data);
                MESSAGE(test::format("%s: found k=%d", data.source.c_str(), report.result.k));
                CHECK_EQ(report.result.k, 1);
            }
        }
}

// One price history, its last 250 and its last 2000 returns: the same planted sectors,
// so the same choice of k, within one (the BIC's penalty grew with the window and lost
// them: k=1 at 2000 days). Exact equality is not reached yet: 2 of 5 seeds with 100
// assets choose 10 at 250 days and 11 at 2000 (README, benchmark).
TEST_CASE("choiceHoldsAcrossWindows")
{
    for (int assets : {100, 500})
        for (int seed : {1, 2}) {
            SUBCASE(test::format("assets=%d seed=%d", assets, seed).c_str())
            {
                const RunReport shortWindow = adaptGrowOn(makeDemo(realisticSpec(assets, 250, 2001, seed)));
                const RunReport longWindow = adaptGrowOn(makeDemo(realisticSpec(assets, 2000, 2001, seed)));
                MESSAGE(test::format("assets=%d seed=%d: k=%d at 250 days, k=%d at 2000", assets, seed,
                                     shortWindow.result.k, longWindow.result.k));
                CHECK(std::abs(shortWindow.result.k - longWindow.result.k) <= 1);
                CHECK(std::abs(shortWindow.result.k - 10) <= 1);
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

TEST_CASE("exactModeIsBitIdenticalAcrossShardsOnMarkets")
{
    const Dataset data = makeDemo(realisticSpec(100, 750, 751, 5));
    const RunReport reference = adaptGrowOn(data, kernels::Mode::Exact, "host");
    for (const char* topology : {"shards:2", "shards:5"}) {
        const RunReport other = adaptGrowOn(data, kernels::Mode::Exact, topology);
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
