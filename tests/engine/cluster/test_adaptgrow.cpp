// AdaptGrow chooses k: planted sectors in the market demo (the strong one and the
// realistic default, small universes and long windows), none in pure noise, planted
// blobs, and the same answer bit for bit on every topology in exact mode.
#include "engine/cluster/cluster_codec.h"
#include "engine/cluster/growth_log.h"
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

// restarts: k-means restarts at the k growth chose (n-init), which also test the choice
// again on their cleaner partition; 10 is how a quant runs it (and the benchmark).
RunReport adaptGrowOn(const Dataset& data, kernels::Mode mode = kernels::Mode::Fast, const char* topology = "host", int restarts = 1)
{
    KMeansParams params;
    params.algorithm = Algorithm::AdaptGrow;
    params.k0 = 2;
    params.kMax = static_cast<int>(std::min<std::int64_t>(64, data.rows));
    params.mode = mode;
    params.nInit = restarts;
    return runClustering(data, params, parseTopology(topology), 2);
}

std::string realisticSpec(int assets, int window, int days, int seed, const char* extra = "")
{
    return test::format("market:assets=%d,sectors=10,days=%d,window=%d,seed=%d%s", assets, days, window, seed, extra);
}

}  // namespace

// The realistic demo (correlations of real daily equity returns) in every benchmark
// cell with 50 assets or more: the planted 10 sectors are found, +-1 by growth alone,
// and with restarts exactly from 100 assets, +-1 and ARI 0.9 at 50.
TEST_CASE("findsRealisticSectors")
{
    for (int assets : {50, 100, 500})
        for (int window : {250, 750, 2000}) {
            SUBCASE(test::format("assets=%d window=%d", assets, window).c_str())
            {
                const Dataset data = makeDemo(realisticSpec(assets, window, window + 1, 1));
                const RunReport alone = adaptGrowOn(data);
                const RunReport restarted = adaptGrowOn(data, kernels::Mode::Fast, "host", 10);
                const double ari = adjustedRandIndex(data.truth, restarted.result.labels);
                MESSAGE(test::format("%s: growth alone k=%d; with restarts k=%d, ARI %.4f", data.source.c_str(), alone.result.k,
                                     restarted.result.k, ari));
                CHECK(std::abs(alone.result.k - 10) <= 1);
                CHECK(std::abs(restarted.result.k - 10) <= (assets >= 100 ? 0 : 1));
                CHECK(ari >= 0.9);
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
// so the same choice of k (the BIC's penalty grew with the window and lost them: k=1 at
// 2000 days). With restarts, from 100 assets the choice is the same and the truth on
// every seed tried; with five assets a sector (50) it may differ by one (README,
// benchmark).
TEST_CASE("choiceHoldsAcrossWindows")
{
    for (int assets : {50, 100, 500})
        for (int seed : {1, 2, 3}) {
            SUBCASE(test::format("assets=%d seed=%d", assets, seed).c_str())
            {
                const RunReport shortWindow = adaptGrowOn(makeDemo(realisticSpec(assets, 250, 2001, seed)), kernels::Mode::Fast, "host", 10);
                const RunReport longWindow = adaptGrowOn(makeDemo(realisticSpec(assets, 2000, 2001, seed)), kernels::Mode::Fast, "host", 10);
                MESSAGE(test::format("assets=%d seed=%d: k=%d at 250 days, k=%d at 2000", assets, seed,
                                     shortWindow.result.k, longWindow.result.k));
                const int tolerance = assets >= 100 ? 0 : 1;
                CHECK(std::abs(shortWindow.result.k - longWindow.result.k) <= tolerance);
                CHECK(std::abs(shortWindow.result.k - 10) <= tolerance);
                CHECK(std::abs(longWindow.result.k - 10) <= tolerance);
            }
        }
}

// With restarts, the log is that of the re-test that settled k: its sentence names the
// re-test (it said "round 0"), and the stage travels with the log (pool runs, the store).
TEST_CASE("growthLogNamesTheReTestThatSettledK")
{
    const RunReport report = adaptGrowOn(makeDemo(realisticSpec(100, 250, 251, 1)), kernels::Mode::Fast, "host", 10);
    const GrowthLog& log = report.result.growth;
    REQUIRE(log.stop == GrowthStop::NoSplit);
    CHECK_EQ(log.stage.rfind("re-test at k=", 0), 0u);
    const std::string why = describeGrowthStop(log);
    MESSAGE(why);
    CHECK(why.find("tested in the " + log.stage) != std::string::npos);
    CHECK_EQ(codec::growthFromJson(codec::toJson(log)).stage, log.stage);
    nlohmann::json older = codec::toJson(log);
    older.erase("stage");  // a record from before the stage was kept
    CHECK(codec::growthFromJson(older).stage.empty());
}

// Why AdaptGrow ended at its k is kept: one test per cluster and round, each verdict
// what the criterion's values say, the k after each round's splits the k the next round
// tests, and the stop (no split, or kmax) where growth ended.
TEST_CASE("growthLogSaysWhyItStopped")
{
    const Dataset data = makeDemo(realisticSpec(100, 750, 751, 2));
    const RunReport report = adaptGrowOn(data);
    const GrowthLog& log = report.result.growth;
    REQUIRE(log.stop == GrowthStop::NoSplit);
    CHECK_EQ(log.finalK, report.result.k);
    int k = 2;  // k0
    for (int round = 0; round <= log.stopRound; ++round) {
        const std::vector<SplitTestRecord> tests = splitTestsOf(log, round);
        REQUIRE_EQ(static_cast<int>(tests.size()), k);
        int splits = 0;
        for (const SplitTestRecord& t : tests) {
            CAPTURE(round);
            CAPTURE(t.cluster);
            switch (t.verdict) {
            case SplitVerdict::Split:
                ++splits;
                CHECK(t.axisShare > t.axisBar);
                CHECK(t.splitShare > t.splitEdge);
                break;
            case SplitVerdict::AxisBelowBar: CHECK_FALSE(t.axisShare > t.axisBar); break;
            case SplitVerdict::SplitBelowEdge:
                CHECK(t.axisShare > t.axisBar);
                CHECK_FALSE(t.splitShare > t.splitEdge);
                break;
            default: break;
            }
        }
        if (round == log.stopRound) CHECK_EQ(splits, 0);
        else CHECK(splits > 0);
        k += splits;
    }
    CHECK_EQ(log.stopK, k);
    CHECK(log.stopIteration > 0);
    CHECK(log.stopIteration <= report.result.history.back().iteration);
    const std::string why = describeGrowthStop(log);
    MESSAGE(why);
    CHECK(why.find("stopped growing at k=" + std::to_string(k)) != std::string::npos);
    CHECK(why.find("tested in " + stoppingRound(log)) != std::string::npos);
    REQUIRE(closestToBar(splitTestsOf(log, log.stopRound)) != nullptr);

    KMeansParams capped;
    capped.algorithm = Algorithm::AdaptGrow;
    capped.kMax = 3;  // both of k0's clusters hold sectors: one split has no room
    capped.merge = false;
    const RunReport atMax = runClustering(data, capped, parseTopology("host"), 2);
    CHECK(atMax.result.growth.stop == GrowthStop::KMax);
    CHECK_EQ(atMax.result.growth.stopK, 3);
    // Splits of structure beyond kmax are kept as such: left out for want of room.
    const auto& splits = atMax.result.growth.splits;
    CHECK(std::any_of(splits.begin(), splits.end(), [](const SplitTestRecord& t) { return t.verdict == SplitVerdict::NoRoom; }));
    CHECK(describeGrowthStop(atMax.result.growth).find("k reached kmax") != std::string::npos);

    KMeansParams kmeans;
    CHECK(runClustering(data, kmeans, parseTopology("host"), 2).result.growth.stop == GrowthStop::NotGrown);
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
        // Every test's values too: the same bits decide the same splits.
        REQUIRE_EQ(codec::toJson(other.result.growth).dump(), codec::toJson(reference.result.growth).dump());
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

// A cluster of one row is not a group: growth never splits one off, and when a start
// (or a restart's partition tested again) holds one, it joins its nearest neighbour,
// however far the row lies.
TEST_CASE("aLoneRowIsNotACluster")
{
    Dataset data = makeDemo("blobs:n=400,d=5,k=2,seed=3");
    const std::vector<float> outlier(5, 60.f);
    data.values.insert(data.values.end(), outlier.begin(), outlier.end());
    data.truth.push_back(2);
    ++data.rows;
    // Start from the two blobs' means and the outlier itself.
    KMeansParams params;
    params.algorithm = Algorithm::AdaptGrow;
    params.init = InitMethod::Given;
    params.k0 = 3;
    params.kMax = 8;
    std::vector<double> means(10, 0.0);
    std::vector<int> counts(2, 0);
    for (std::int64_t i = 0; i + 1 < data.rows; ++i) {
        const int t = data.truth[static_cast<std::size_t>(i)];
        ++counts[t];
        for (int j = 0; j < 5; ++j) means[t * 5 + j] += data.row(i)[j];
    }
    for (int t = 0; t < 2; ++t)
        for (int j = 0; j < 5; ++j) params.initialCentroids.push_back(static_cast<float>(means[t * 5 + j] / counts[t]));
    params.initialCentroids.insert(params.initialCentroids.end(), outlier.begin(), outlier.end());
    const RunReport report = runClustering(data, params, parseTopology("host"), 2);
    CHECK_EQ(report.result.k, 2);
    for (std::int64_t size : report.result.sizes) CHECK(size >= 2);
    const auto& merges = report.result.growth.merges;
    CHECK(std::any_of(merges.begin(), merges.end(), [](const MergeTestRecord& m) { return m.merged; }));
}

// Fewer distinct rows than k0: a cluster left empty is no cluster, and k says what was
// found, the same on every topology.
TEST_CASE("anEmptyClusterIsNotCounted")
{
    for (const int distinct : {1, 2}) {
        Dataset data;
        data.cols = 2;
        for (int i = 0; i < 60; ++i) {
            const float at = static_cast<float>(i % distinct) * 10.f;
            data.values.insert(data.values.end(), {at + 1.5f, at - 2.5f});
        }
        data.rows = 60;
        KMeansParams params;
        params.algorithm = Algorithm::AdaptGrow;
        params.mode = kernels::Mode::Exact;
        params.k0 = 3;
        params.kMax = 8;
        const RunReport reference = runClustering(data, params, parseTopology("host"), 1);
        CHECK_EQ(reference.result.k, distinct);
        for (std::int64_t size : reference.result.sizes) CHECK(size > 0);
        const std::string why = describeGrowthStop(reference.result.growth);
        CHECK_MESSAGE(why.find("empty cluster") != std::string::npos, why.c_str());
        const RunReport sharded = runClustering(data, params, parseTopology("shards:3"), 2);
        CHECK_EQ(sharded.result.k, distinct);
        CHECK_EQ(sharded.result.labels, reference.result.labels);
    }
}
