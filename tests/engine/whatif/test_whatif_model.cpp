// The what-if model's parts on their own: the compiled-in catalog and its errors, the
// placement of topology spellings (with the impossible ones refused), the model's
// response to more devices, slower links and bigger jobs, and a calibration that must
// recover the parameters a set of runs was generated with.
#include "doctest_support.h"

#include "engine/catalog/hardware_catalog.h"
#include "engine/core/error.h"
#include "engine/whatif/performance_model.h"

#include <cmath>
#include <functional>
#include <string>

using namespace clusterdesk;
using namespace clusterdesk::whatif;

namespace {

std::string errorOf(const std::function<void()>& body)
{
    try {
        body();
    } catch (const Error& e) {
        return e.what();
    }
    return "<no error>";
}

LocalMachine twoCores()
{
    LocalMachine m;
    m.cpuModel = "Test CPU";
    m.cores = 2;
    m.mhz = 2000;
    m.fp32PerCycle = 64;
    return m;
}

KMeansParams kmeans(int k, int iterations, kernels::Mode mode = kernels::Mode::Exact)
{
    KMeansParams p;
    p.k = k;
    p.maxIterations = iterations;
    p.mode = mode;
    return p;
}


}  // namespace

TEST_CASE("theCompiledInCatalogHoldsTheIssuesHardware")
{
    const HardwareCatalog& c = builtinCatalog();
    for (const char* id : {"h200", "h100", "a100", "l40s", "p100", "epyc-9654", "xeon-8592"}) {
        const DeviceSpec& d = c.device(id);
        REQUIRE_GT(d.fp32Tflops, 0);
        REQUIRE_GT(d.memoryGBs, 0);
        REQUIRE_GT(d.tdpW, d.idleW);
        REQUIRE_FALSE(d.priceDate.empty());
        REQUIRE_FALSE(d.source.empty());
    }
    for (const char* id : {"nvlink4", "pcie5", "ib-ndr", "100gbe", "10gbe", "loopback", "threads"}) REQUIRE_GT(c.link(id).gbs, 0);
    REQUIRE_EQ(c.sha256.size(), 64u);
    REQUIRE_EQ(c.cpuMatching("AMD EPYC 9654 96-Core Processor")->id, "epyc-9654");
    REQUIRE(c.cpuMatching("Some Other CPU") == nullptr);
}

TEST_CASE("aMalformedCatalogNamesTheEntry")
{
    const std::string link = R"({"id": "l", "name": "l", "gbps": 1, "latency_us": 1, "source": ""})";
    const std::string defaults = R"("default": {"watts_per_thread": 15, "idle_fraction": 0.3, "memory_gbps_per_core": 8, "internode_link": "l"})";
    const auto catalogWith = [&](const std::string& device) {
        return R"({"devices": [)" + device + R"(], "links": [)" + link + "], " + defaults + "}";
    };
    const std::string good = R"({"id": "g1", "name": "G", "kind": "gpu", "fp32_tflops": 10, "tf32_tflops": 20, "bf16_tflops": 40, "memory_gib": 16,
        "memory_gbps": 900, "tdp_w": 300, "idle_w": 30, "per_node": 4, "intra_link": "l", "host_link": "l", "usd_per_hour": 1,
        "price_date": "2026-12-01", "price_source": "test", "source": "test"})";
    REQUIRE_EQ(parseHardwareCatalog(catalogWith(good), "c.json").device("g1").perNode, 4);

    std::string noPeak = good;
    noPeak.replace(noPeak.find("\"fp32_tflops\": 10, "), 19, "");
    REQUIRE_EQ(errorOf([&] { parseHardwareCatalog(catalogWith(noPeak), "c.json"); }), "c.json: devices[0] 'g1' has no 'fp32_tflops'");
    std::string negative = good;
    negative.replace(negative.find("\"tdp_w\": 300"), 12, "\"tdp_w\": -5");
    REQUIRE_EQ(errorOf([&] { parseHardwareCatalog(catalogWith(negative), "c.json"); }),
               "c.json: devices[0] 'g1' 'tdp_w' must be a finite number >= 0 (got -5)");
    std::string badLink = good;
    badLink.replace(badLink.find("\"intra_link\": \"l\""), 17, "\"intra_link\": \"warp\"");
    REQUIRE_EQ(errorOf([&] { parseHardwareCatalog(catalogWith(badLink), "c.json"); }),
               "c.json: devices[0] 'g1' names link 'warp', which the catalog does not list");
    REQUIRE_EQ(errorOf([&] { parseHardwareCatalog(catalogWith(good + ", " + good), "c.json"); }), "c.json: devices[1] 'g1' repeats an id used before");
    REQUIRE(errorOf([&] { parseHardwareCatalog("{\"devices\": [", "c.json"); }).find("c.json: not valid JSON") == 0);
    REQUIRE_EQ(errorOf([&] { parseHardwareCatalog(R"({"devices": [], "links": []})", "c.json"); }), "c.json: default has no 'watts_per_thread'");
}

TEST_CASE("topologiesArePlacedOrRefusedByName")
{
    const HardwareCatalog& c = builtinCatalog();
    const Placement eight = placeTopology("model:h200x8", c, twoCores());
    REQUIRE_EQ(eight.shards, 8);
    REQUIRE_EQ(eight.intra.id, "nvlink4");
    REQUIRE_EQ(eight.comm, "nccl");
    const Placement pod = placeTopology("model:h200x8:nodes=4:net=100gbe", c, twoCores());
    REQUIRE_EQ(pod.shards, 32);
    REQUIRE_EQ(pod.inter.id, "100gbe");
    const Placement one = placeTopology("host@1", c, twoCores());
    REQUIRE(one.measurable);
    REQUIRE_EQ(one.threads, 1);
    REQUIRE_EQ(one.coresPerShard, 1.0);
    // Four shards on two cores: each computes on half a core.
    REQUIRE_EQ(placeTopology("shards:4", c, twoCores()).coresPerShard, 0.5);
    REQUIRE_EQ(placeTopology("pool:4", c, twoCores()).comm, "mpi");

    REQUIRE_EQ(errorOf([&] { placeTopology("model:h200x16", c, twoCores()); }),
               "topology 'model:h200x16': a node holds at most 8 h200 (the catalog's per_node for NVIDIA H200 SXM 141 GB)");
    REQUIRE(errorOf([&] { placeTopology("model:b300x8", c, twoCores()); }).find("no device 'b300' in the catalog") == 0);
    REQUIRE(errorOf([&] { placeTopology("model:h200x8:net=carrier-pigeon", c, twoCores()); }).find("no link 'carrier-pigeon'") == 0);
    REQUIRE(errorOf([&] { placeTopology("model:h200x8:speed=9", c, twoCores()); }).find("unknown option 'speed=9'") != std::string::npos);
    REQUIRE(errorOf([&] { placeTopology("host@0", c, twoCores()); }).find("the thread count after @: '0' is not a number from 1 to 1024") != std::string::npos);
    REQUIRE(errorOf([&] { placeTopology("cuda:0", c, twoCores()); }).find("model them here as model:DEVICExN") != std::string::npos);
}

TEST_CASE("theModelRespondsToDevicesLinksAndSize")
{
    const HardwareCatalog& c = builtinCatalog();
    const LocalMachine m = twoCores();
    const JobProfile big = plannedProfile(kmeans(1024, 10, kernels::Mode::Fast), 10'000'000, 128);
    const Prediction one = predict(big, placeTopology("model:h200", c, m), {});
    const Prediction eight = predict(big, placeTopology("model:h200x8", c, m), {});
    REQUIRE_LT(eight.perIteration.assignMs, one.perIteration.assignMs / 7.9);
    REQUIRE_EQ(one.perIteration.reduceMs, 0.0);
    REQUIRE_GT(eight.perIteration.reduceMs, 0.0);
    REQUIRE_EQ(eight.iterations, 10);
    // The same eight GPUs split over nodes joined by a slower network reduce slower.
    const Prediction overEthernet = predict(big, placeTopology("model:h200x2:nodes=4:net=10gbe", c, m), {});
    REQUIRE_GT(overEthernet.perIteration.reduceMs, eight.perIteration.reduceMs);
    // A tiny job on many GPUs is all communication.
    const JobProfile tiny = plannedProfile(kmeans(8, 10), 1000, 8);
    REQUIRE_EQ(predict(tiny, placeTopology("model:h200x8:nodes=8", c, m), {}).perIteration.bottleneck, "reduce");
    // Energy and cost grow with the devices held.
    REQUIRE_GT(eight.watts, 7 * one.watts);
    REQUIRE_GT(one.costUsd, 0.0);
    // 40 billion values do not fit in one GPU's memory, but do across a pod.
    const JobProfile huge = plannedProfile(kmeans(64, 5), 400'000'000, 100);
    REQUIRE_FALSE(predict(huge, placeTopology("model:h200", c, m), {}).fitsInMemory);
    REQUIRE(predict(huge, placeTopology("model:h200x8:nodes=4", c, m), {}).fitsInMemory);
}

TEST_CASE("calibrationRecoversTheParametersRunsWereMadeWith")
{
    const HardwareCatalog& c = builtinCatalog();
    const LocalMachine m = twoCores();
    ModelParameters truth;
    truth.cpuCompute[1] = 0.31;
    truth.cpuMemory = 0.42;
    truth.linkLatencyUs["threads"] = 250;
    truth.linkLatencyUs["loopback"] = 900;
    const JobProfile job = plannedProfile(kmeans(64, 20), 1'000'000, 32);
    std::vector<Observation> runs;
    for (const char* spelling : {"host@1", "host@2", "shards:2", "shards:4", "pool:2", "pool:4"}) {
        const Placement where = placeTopology(spelling, c, m);
        const Prediction p = predict(job, where, truth);
        Observation o;
        o.runId = std::string("run-") + spelling;
        o.job = job;
        o.where = where;
        o.assignMs = p.perIteration.assignMs;
        o.updateMs = p.perIteration.updateMs;
        o.reduceMs = p.perIteration.reduceMs;
        o.secondsTotal = p.totalS;
        runs.push_back(o);
    }
    const ModelParameters fitted = calibrate(runs);
    REQUIRE(std::abs(fitted.cpuCompute[1] / 0.31 - 1) < 1e-9);
    REQUIRE(std::abs(fitted.cpuMemory / 0.42 - 1) < 1e-9);
    REQUIRE(std::abs(fitted.linkLatencyUs.at("threads") / 250 - 1) < 1e-9);
    REQUIRE(std::abs(fitted.linkLatencyUs.at("loopback") / 900 - 1) < 1e-9);
    // Fast mode was never measured: it keeps its default ratio to exact mode.
    REQUIRE(std::abs(fitted.cpuCompute[0] / fitted.cpuCompute[1] - ModelParameters{}.cpuCompute[0] / ModelParameters{}.cpuCompute[1]) < 1e-9);
    REQUIRE_EQ(fitted.fittedOn.size(), 6u);
    REQUIRE_EQ(fitted.fittedOn.front(), "run-host@1");
    // GPUs were never measured: their efficiencies stay the defaults.
    REQUIRE_EQ(fitted.gpuCompute[0], ModelParameters{}.gpuCompute[0]);
    // And the fitted model predicts every run it was made from.
    for (const Observation& o : runs) {
        const double predicted = predict(o.job, o.where, fitted).msPerIteration;
        REQUIRE(std::abs(predicted / (o.assignMs + o.updateMs + o.reduceMs) - 1) < 1e-9);
    }
}
