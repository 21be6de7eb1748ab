// Every struct that is written somewhere (the store, the pool job, rank 0's progress
// lines, --json) goes through one codec and comes back equal: parameters with every
// field off its default, iteration statistics with per-rank timings, results, data
// source descriptions, topologies, pool jobs, and the store's source columns
// (including records written before sources were described). Malformed input is a
// clear error naming the field, never a crash.
#include "doctest_support.h"

#include "engine/cluster/cluster_codec.h"
#include "engine/core/error.h"
#include "engine/data/source_spec.h"
#include "engine/exec/pool_job.h"
#include "engine/exec/topology.h"
#include "engine/store/run_codec.h"
#include "engine/store/store_error.h"

#include <cmath>
#include <limits>
#include <string>

using namespace clusterdesk;

namespace {

// Every field differs from its default, so a field the codec drops or swaps shows.
KMeansParams unusualParams()
{
    KMeansParams p;
    p.algorithm = Algorithm::AdaptGrow;
    p.k = 17;
    p.k0 = 3;
    p.kMax = 99;
    p.merge = false;
    p.init = InitMethod::KMeansParallel;
    p.maxIterations = 321;
    p.tolerance = 1.5e-7;
    p.seed = 18446744073709551615ull;
    p.mode = kernels::Mode::Exact;
    p.precision = kernels::Precision::BF16;
    p.parallelRounds = 9;
    p.oversampling = 3.25;
    p.splitIterations = 11;
    p.maxRounds = 13;
    return p;
}

bool sameParams(const KMeansParams& a, const KMeansParams& b)
{
    return a.algorithm == b.algorithm && a.k == b.k && a.k0 == b.k0 && a.kMax == b.kMax && a.merge == b.merge && a.init == b.init &&
           a.initialCentroids == b.initialCentroids && a.maxIterations == b.maxIterations && a.tolerance == b.tolerance &&
           a.seed == b.seed && a.mode == b.mode && a.precision == b.precision && a.parallelRounds == b.parallelRounds &&
           a.oversampling == b.oversampling && a.splitIterations == b.splitIterations && a.maxRounds == b.maxRounds;
}

IterationStats unusualIteration()
{
    IterationStats s;
    s.iteration = 7;
    s.round = 2;
    s.k = 3;
    s.inertia = 12345.678901234567;
    s.sizes = {5, 0, 9000000000};
    s.assignMs = 1.25;
    s.updateMs = 0.5;
    s.reduceMs = 0.125;
    s.rowsSearched = 42;
    s.event = "split 1 of 2 clusters";
    s.ranks = {{1.0, 2.0, 3.0}, {4.5, 5.5, 6.5}};
    return s;
}

}  // namespace

TEST_CASE("parameters round-trip with every field, enums by name")
{
    const KMeansParams p = unusualParams();
    const nlohmann::json j = codec::toJson(p);
    CHECK(j.at("algorithm") == "adaptgrow");
    CHECK(j.at("mode") == "exact");
    CHECK(sameParams(codec::paramsFromJson(j), p));
    // Through text, as the store keeps them.
    CHECK(sameParams(store::paramsFromJson(store::paramsToJson(p)), p));
}

TEST_CASE("a reader sees the parameters that played a part in the run")
{
    KMeansParams p = unusualParams();
    p.algorithm = Algorithm::AdaptGrow;
    p.init = InitMethod::KMeansPlusPlus;
    const nlohmann::json grow = codec::paramsThatApplied(codec::toJson(p));
    CHECK(!grow.contains("k"));  // AdaptGrow chooses k
    for (const char* key : {"k0", "kmax", "merge", "split_iterations", "max_rounds", "n_init", "seed", "mode"}) CHECK(grow.contains(key));
    CHECK(!grow.contains("parallel_rounds"));
    CHECK(!grow.contains("oversampling"));

    p.algorithm = Algorithm::KMeans;
    p.init = InitMethod::KMeansParallel;
    const nlohmann::json lloyd = codec::paramsThatApplied(codec::toJson(p));
    CHECK(lloyd.at("k") == p.k);
    for (const char* key : {"k0", "kmax", "merge", "split_iterations", "max_rounds"}) CHECK(!lloyd.contains(key));
    CHECK(lloyd.at("parallel_rounds") == p.parallelRounds);
    CHECK(lloyd.at("oversampling") == p.oversampling);
    // Not parameters at all (a damaged record): shown as they are.
    CHECK(codec::paramsThatApplied(nlohmann::json("text")) == nlohmann::json("text"));
}

TEST_CASE("malformed parameters name the field")
{
    nlohmann::json j = codec::toJson(unusualParams());
    j["mode"] = "approximate";
    CHECK_THROWS_WITH_AS(codec::paramsFromJson(j), doctest::Contains("'mode' has an unknown value 'approximate'"), CodecError);
    j = codec::toJson(unusualParams());
    j.erase("seed");
    CHECK_THROWS_WITH_AS(codec::paramsFromJson(j), doctest::Contains("'seed'"), CodecError);
    CHECK_THROWS_AS(store::paramsFromJson("{not json"), store::StoreError);
}

TEST_CASE("numbers outside a field's range are errors, not conversions")
{
    // nlohmann's get<int> on 1e300 or 2^64-1 is undefined behaviour; a damaged store or
    // a stray line from a rank must give a clear error instead.
    nlohmann::json j = codec::toJson(unusualParams());
    j["k"] = 1e300;
    CHECK_THROWS_WITH_AS(codec::paramsFromJson(j), doctest::Contains("'k' must be an integer"), CodecError);
    j["k"] = 18446744073709551615ull;
    CHECK_THROWS_WITH_AS(codec::paramsFromJson(j), doctest::Contains("'k' is out of range"), CodecError);
    j["k"] = -3000000000ll;
    CHECK_THROWS_WITH_AS(codec::paramsFromJson(j), doctest::Contains("'k' is out of range"), CodecError);
    CHECK(codec::integerValue<std::uint64_t>(nlohmann::json(18446744073709551615ull), "seed") == 18446744073709551615ull);
    CHECK_THROWS_WITH_AS(codec::integerValue<std::uint64_t>(nlohmann::json(-1), "seed"), doctest::Contains("must not be negative"), CodecError);

    nlohmann::json result = codec::toJson(ClusterResult{});
    result["labels"] = {0, 4294967296ll};
    CHECK_THROWS_WITH_AS(codec::resultFromJson(result), doctest::Contains("'labels' is out of range"), CodecError);
    result["labels"] = nlohmann::json::array();
    result["centroids"] = {1e300};
    CHECK_THROWS_WITH_AS(codec::resultFromJson(result), doctest::Contains("not a float32 number"), CodecError);

    CHECK(parsePoolLine(R"({"type":"heartbeat","rank":1e300,"progress":1,"waiting":false})").type == PoolMessage::Type::Other);
    CHECK(parsePoolLine(R"({"type":"error","rank":0,"line":1e30})").type == PoolMessage::Type::Other);
    CHECK_THROWS_WITH_AS(
        store::sourceSpecFromColumns({"/data/t.csv", "file", R"({"layout":"ticks","bar_seconds":1e300})"}), doctest::Contains("bar_seconds"),
        std::exception);
}

TEST_CASE("iteration statistics round-trip with per-rank timings")
{
    const IterationStats s = unusualIteration();
    const IterationStats back = codec::iterationFromJson(codec::toJson(s));
    CHECK(back.iteration == s.iteration);
    CHECK(back.round == s.round);
    CHECK(back.k == s.k);
    CHECK(back.inertia == s.inertia);
    CHECK(back.sizes == s.sizes);
    CHECK(back.assignMs == s.assignMs);
    CHECK(back.updateMs == s.updateMs);
    CHECK(back.reduceMs == s.reduceMs);
    CHECK(back.rowsSearched == s.rowsSearched);
    CHECK(back.event == s.event);
    REQUIRE(back.ranks.size() == 2);
    CHECK(back.ranks[1].assignMs == 4.5);
    CHECK(back.ranks[1].updateMs == 5.5);
    CHECK(back.ranks[1].reduceMs == 6.5);
}

TEST_CASE("results round-trip; centroids must match k x cols")
{
    ClusterResult r;
    r.k = 2;
    r.cols = 3;
    r.centroids = {1.5f, -2.0f, 3.0e-8f, 4, 5, 6};
    r.labels = {0, 1, 1, 0};
    r.sizes = {2, 2};
    r.inertia = 0.1;
    r.iterations = 4;
    r.initMs = 0.75;
    r.converged = true;
    r.cancelled = true;
    const ClusterResult back = codec::resultFromJson(codec::toJson(r));
    CHECK(back.k == r.k);
    CHECK(back.cols == r.cols);
    CHECK(back.centroids == r.centroids);
    CHECK(back.labels == r.labels);
    CHECK(back.sizes == r.sizes);
    CHECK(back.inertia == r.inertia);
    CHECK(back.iterations == r.iterations);
    CHECK(back.initMs == r.initMs);
    CHECK(back.converged);
    CHECK(back.cancelled);
    nlohmann::json bad = codec::toJson(r);
    bad["k"] = 3;
    CHECK_THROWS_WITH_AS(codec::resultFromJson(bad), doctest::Contains("not k x cols"), CodecError);
}

// AdaptGrow's growth log travels with the result (pool) and in the metrics (store):
// every test, every verdict by name, unmeasured shares as null, a bar nothing clears as
// "inf".
TEST_CASE("growth logs round-trip, shares that could not be measured included")
{
    GrowthLog log;
    log.stop = GrowthStop::NoSplit;
    log.stopRound = 3;
    log.stopIteration = 17;
    log.stopK = 11;
    log.finalK = 9;
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const double inf = std::numeric_limits<double>::infinity();
    log.splits = {{0, 0, 50, 0.165, 0.138, 0.12, 0.11, SplitVerdict::Split},
                  {3, 1, 1, nan, inf, nan, inf, SplitVerdict::TooFewRows},
                  {3, 2, 6, 0.272, 0.251, 0.229, 0.264, SplitVerdict::SplitBelowEdge},
                  {3, 4, 5, 0.2, 0.3, 0.1, 0.2, SplitVerdict::AxisBelowBar},
                  {3, 5, 5, 0.9, 0.3, 0.8, 0.2, SplitVerdict::LoneChild},
                  {2, 6, 9, 0.5, 0.3, 0.4, 0.2, SplitVerdict::NoRoom}};
    log.merges = {{3, 0, 4, 10, 0.15, 0.16, true}, {3, 1, 9, 13, 0.17, 0.13, false}};
    ClusterResult r;
    r.growth = log;
    const GrowthLog back = codec::resultFromJson(nlohmann::json::parse(codec::toJson(r).dump())).growth;
    CHECK(back.stop == log.stop);
    CHECK(back.stopRound == 3);
    CHECK(back.stopIteration == 17);
    CHECK(back.stopK == 11);
    CHECK(back.finalK == 9);
    REQUIRE(back.splits.size() == log.splits.size());
    for (std::size_t i = 0; i < log.splits.size(); ++i) {
        const SplitTestRecord& a = log.splits[i];
        const SplitTestRecord& b = back.splits[i];
        CAPTURE(i);
        CHECK(b.round == a.round);
        CHECK(b.cluster == a.cluster);
        CHECK(b.rows == a.rows);
        CHECK(b.verdict == a.verdict);
        for (const auto& [x, y] : {std::pair{a.axisShare, b.axisShare}, {a.axisBar, b.axisBar}, {a.splitShare, b.splitShare}, {a.splitEdge, b.splitEdge}})
            CHECK((std::isnan(x) ? std::isnan(y) : x == y));
    }
    REQUIRE(back.merges.size() == 2);
    CHECK(back.merges[0].merged);
    CHECK_FALSE(back.merges[1].merged);
    CHECK(back.merges[1].share == 0.17);
    nlohmann::json bad = codec::toJson(log);
    bad["splits"][0]["verdict"] = "maybe";
    CHECK_THROWS_WITH_AS(codec::growthFromJson(bad), doctest::Contains("unknown value 'maybe'"), CodecError);
    bad = codec::toJson(log);
    bad["splits"][1]["axis_bar"] = "wide";
    CHECK_THROWS_WITH_AS(codec::growthFromJson(bad), doctest::Contains("'axis_bar'"), CodecError);
}

TEST_CASE("data source descriptions round-trip")
{
    const SourceSpec spec{"ticks", "/data/ticks, \"quoted\".csv", {{"bar", "300"}, {"window", "120"}, {"min_history", "0.8"}}};
    CHECK(sourceSpecFromJson(sourceSpecToJson(spec)) == spec);
    CHECK_THROWS_AS(sourceSpecFromJson(R"({"source":"csv"})"), UsageError);
}

TEST_CASE("the store's source columns round-trip, and read records from before sources were described")
{
    const SourceSpec file{"prices", "/data/p.csv", {{"window", "250"}, {"max_forward_fill", "5"}, {"min_history", "0.8"}}};
    const store::SourceColumns columns = store::toColumns(file);
    CHECK(columns.kind == "file");
    CHECK(store::sourceSpecFromColumns(columns) == file);
    const SourceSpec demo{"demo", "blobs:n=10,d=2,k=2,seed=7,spread=1", {}};
    CHECK(store::toColumns(demo).kind == "demo");
    CHECK(store::sourceSpecFromColumns(store::toColumns(demo)) == demo);

    // Schema v5 records: load options by layout, demos with "{}".
    const SourceSpec ticks = store::sourceSpecFromColumns(
        {"/data/t.csv", "file", R"({"layout":"ticks","window":0,"max_forward_fill":5,"min_history":0.8,"bar_seconds":300})"});
    CHECK(ticks.source == "ticks");
    CHECK(ticks.options.at("bar") == "300");
    CHECK(ticks.options.at("window") == "0");
    const SourceSpec sniffed =
        store::sourceSpecFromColumns({"/data/m.csv", "file", R"({"window":0,"max_forward_fill":5,"min_history":0.8,"bar_seconds":60})"});
    CHECK(sniffed.source.empty());  // chosen from the file again when reopened
    CHECK(sniffed.options.empty());
    CHECK(store::sourceSpecFromColumns({"market", "demo", "{}"}) == SourceSpec{"demo", "market", {}});
    CHECK_THROWS_AS(store::sourceSpecFromColumns({"/x", "file", "[1,2"}), store::StoreError);
}

TEST_CASE("topologies round-trip through their spelling")
{
    for (const char* spelling : {"host", "shards:4", "cuda:0", "cuda:1,0,1", "pool:3", "pool:2:cuda"}) {
        CAPTURE(spelling);
        const Topology t = parseTopology(spelling);
        CHECK(toString(t) == spelling);
        CHECK((parseTopology(toString(t)) == t));  // not decomposed: toString(Topology) is not doctest's
    }
    CHECK(toString(parseTopology("cuda")) == "cuda:0");
    CHECK(toString(parseTopology("pool:2:host")) == "pool:2");
    const Topology pool = parseTopology("pool:2:cuda");
    CHECK(pool.isPool());
    CHECK(pool.onGpus());
    CHECK(pool.shardCount() == 2);
    CHECK(pool.shardBackend(1) == "cuda");
    CHECK(parseTopology("cuda:0,1").shardBackend(1) == "cuda:1");
}

TEST_CASE("pool jobs round-trip: source, hash, parameters with their initial centroids")
{
    PoolJob job;
    job.source = {"ticks", "/data/t.csv", {{"bar", "300"}, {"window", "0"}}};
    job.expectedHash = std::string(64, 'c');
    job.params = unusualParams();
    job.params.init = InitMethod::Given;
    job.params.initialCentroids = {1, 2, 3, 4, 5, 6};
    job.threadsPerRank = 3;
    job.rankBackend = "cuda";
    const PoolJob back = poolJobFromJson(poolJobToJson(job));
    CHECK(back.source == job.source);
    CHECK(back.expectedHash == job.expectedHash);
    CHECK(sameParams(back.params, job.params));
    CHECK(back.threadsPerRank == job.threadsPerRank);
    CHECK(back.rankBackend == job.rankBackend);
    CHECK_THROWS_WITH_AS(poolJobFromJson(R"({"source":{"source":"csv","location":"x","options":{}}})"), doctest::Contains("malformed pool job"),
                         UsageError);
}

TEST_CASE("rank 0's progress lines carry iterations and results through the same codec")
{
    const IterationStats s = unusualIteration();
    const PoolMessage iteration = parsePoolLine(iterationLine(s));
    REQUIRE(iteration.type == PoolMessage::Type::Iteration);
    CHECK(iteration.iteration.event == s.event);
    CHECK(iteration.iteration.ranks.size() == s.ranks.size());
    ClusterResult r;
    r.k = 1;
    r.cols = 2;
    r.centroids = {0.5f, 1.5f};
    r.labels = {0, 0};
    r.sizes = {2};
    const PoolMessage result = parsePoolLine(resultLine(r, "MPI"));
    REQUIRE(result.type == PoolMessage::Type::Result);
    CHECK(result.result.centroids == r.centroids);
    CHECK(result.communicator == "MPI");
    CHECK(parsePoolLine(R"({"type":"result","k":1})").type == PoolMessage::Type::Other);
}
