// The CPU estimate: catalog look-ups, a /proc/stat written by the test (exact
// arithmetic), and this machine's real /proc/stat while a thread burns CPU.
#include "engine/core/error.h"
#include "engine/telemetry/estimated_power_source.h"

#include "doctest_support.h"
#include "temp_dir.h"

#include <string>
#include <vector>

#include <atomic>
#include <chrono>
#include <fstream>
#include <thread>

namespace test = clusterdesk::test;

using clusterdesk::cpuPowerModel;

namespace {

void writeFile(const std::string& path, const std::string& text)
{
    std::ofstream file(path, std::ios::binary | std::ios::trunc);
    file << text;
    REQUIRE_MESSAGE(file.good(), path);
}

// Keeps one core busy for `seconds`.
void burn(double seconds)
{
    const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    volatile double x = 1;
    while (std::chrono::steady_clock::now() < end) x = x * 1.0000001 + 1e-9;
}

}  // namespace

namespace {

struct CatalogLookupRow {
    std::string tag;
    std::string model;
    int threads;
    double tdp;
    std::string basis;
};

std::vector<CatalogLookupRow> catalogLookupRows()
{
    std::vector<CatalogLookupRow> rows;
    // EPYC 7763: 280 W for 128 threads, so 8 threads of it are charged 17.5 W.
    rows.push_back({"known, part of a socket", "AMD EPYC 7763 64-Core Processor", 8, 17.5, "catalog: EPYC 7763"});
    rows.push_back({"known, whole socket", "AMD EPYC 7763 64-Core Processor", 128, 280.0, "catalog: EPYC 7763"});
    rows.push_back({"unknown model", "AMD EPYC", 2, 30.0, "default 15 W per thread"});
    rows.push_back({"no model", "", 4, 60.0, "default 15 W per thread"});
    return rows;
}

}  // namespace

TEST_CASE("catalogLookup")
{
    for (const CatalogLookupRow& row : catalogLookupRows()) {
        SUBCASE(row.tag.c_str())
        {
            const std::string& model = row.model;
            const int& threads = row.threads;
            const double& tdp = row.tdp;
            const std::string& basis = row.basis;
            const clusterdesk::CpuPowerModel power = cpuPowerModel(model, threads);
            REQUIRE_EQ(power.tdpWatts, tdp);
            REQUIRE_EQ(power.idleWatts, 0.3 * tdp);
            REQUIRE_EQ(power.basis, basis);
        }
    }
}

// A catalog entry with only what the power estimate reads varying.
static std::string cpuEntry(const std::string& id, const std::string& match, double tdp, int threads)
{
    return R"({"id": ")" + id + R"(", "name": "test", "kind": "cpu", "match": ")" + match + R"(", "cores": 1, "threads": )" +
           std::to_string(threads) + R"(, "fp32_tflops": 1, "memory_gib": 1, "memory_gbps": 1, "tdp_w": )" + std::to_string(tdp) +
           R"(, "idle_w": 0, "per_node": 1, "intra_link": "l", "host_link": "l", "usd_per_hour": 0, "price_date": "", "price_source": "", "source": ""})";
}

TEST_CASE("longestMatchWins")
{
    const std::string catalog = R"({"devices": [)" + cpuEntry("a", "EPYC", 100, 10) + ", " + cpuEntry("b", "EPYC 7763", 280, 128) +
                                R"(], "links": [{"id": "l", "name": "l", "gbps": 1, "latency_us": 1, "source": ""}],
                                    "default": {"watts_per_thread": 15, "idle_fraction": 0.25, "memory_gbps_per_core": 8, "internode_link": "l"}})";
    const auto power = cpuPowerModel("AMD EPYC 7763 64-Core Processor", 128, catalog);
    REQUIRE_EQ(power.tdpWatts, 280.0);
    REQUIRE_EQ(power.idleWatts, 70.0);
}

TEST_CASE("malformedCatalogThrows")
{
    REQUIRE_THROWS_AS(cpuPowerModel("x", 1, R"({"cpus": []})"), clusterdesk::DataError);
}

// Two CPUs, half of their ticks busy between the reads: idle + half of (TDP - idle).
TEST_CASE("utilisationFromStatDeltas")
{
    test::TempDir dir;
    const std::string stat = dir.filePath("stat");
    const std::string cpuinfo = dir.filePath("cpuinfo");
    writeFile(cpuinfo, "processor\t: 0\nmodel name\t: Imaginary CPU 9000\n");
    writeFile(stat, "cpu  100 0 100 800 0 0 0 0 0 0\ncpu0 50 0 50 400 0 0 0 0 0 0\ncpu1 50 0 50 400 0 0 0 0 0 0\nintr 1\n");
    clusterdesk::EstimatedCpuPowerSource source(stat, cpuinfo);
    REQUIRE_EQ(source.device(), std::string("cpu (Imaginary CPU 9000, 2 hardware threads)"));
    REQUIRE_EQ(source.model().tdpWatts, 30.0);
    // +100 busy (user 60, system 40), +100 idle.
    writeFile(stat, "cpu  160 0 140 900 0 0 0 0 0 0\ncpu0 80 0 70 450 0 0 0 0 0 0\ncpu1 80 0 70 450 0 0 0 0 0 0\nintr 1\n");
    const auto reading = source.read();
    REQUIRE((reading && reading->energyJ));
    REQUIRE_EQ(reading->watts, 9.0 + 0.5 * 21.0);
    REQUIRE(*reading->energyJ > 0);
}

TEST_CASE("unreadableStatThrows")
{
    REQUIRE_THROWS_AS(clusterdesk::EstimatedCpuPowerSource("/nonexistent/stat"), clusterdesk::DeviceError);
}

TEST_CASE("thisMachineWhileBurning")
{
    clusterdesk::EstimatedCpuPowerSource source;
    REQUIRE(source.kind() == clusterdesk::PowerKind::Estimated);
    REQUIRE_EQ(source.name(), std::string("estimated"));
    std::thread burner(burn, 0.5);
    burner.join();
    const auto reading = source.read();
    REQUIRE((reading && reading->energyJ));
    REQUIRE_MESSAGE(*reading->energyJ > 0, std::string(std::to_string(*reading->energyJ)).c_str());
    // One busy core moves the estimate above the idle floor.
    REQUIRE_MESSAGE(reading->watts > source.model().idleWatts, reading->watts << " W, idle " << source.model().idleWatts << " W");
    REQUIRE(reading->watts <= source.model().tdpWatts);
}
