// RAPL on a powercap tree the test writes in a temporary directory: discovery picks
// package zones only, and energy follows the counter through a wrap-around.
#include "engine/telemetry/rapl_power_source.h"

#include "doctest_support.h"
#include "temp_dir.h"

#include <string>

#include <filesystem>
#include <fstream>

namespace test = clusterdesk::test;

namespace {

// Replaces the file in one rename, as sysfs never shows a half-written value.
void writeFile(const std::string& path, const std::string& text)
{
    std::filesystem::create_directories(std::filesystem::path(path).parent_path());
    const std::string temporary = path + ".new";
    std::ofstream(temporary, std::ios::trunc) << text << "\n";
    std::error_code error;
    std::filesystem::rename(temporary, path, error);
    REQUIRE_MESSAGE(!error, path << ": " << error.message());
}

void writeZone(const test::TempDir& root, const std::string& zone, const std::string& name, const std::string& energy)
{
    writeFile(root.filePath(zone + "/name"), name);
    if (!energy.empty()) writeFile(root.filePath(zone + "/energy_uj"), energy);
    writeFile(root.filePath(zone + "/max_energy_range_uj"), "4000000");
}

}  // namespace

TEST_CASE("discoversPackagesOnly")
{
    test::TempDir root;
    writeZone(root, "intel-rapl:0", "package-0", "1000000");
    writeZone(root, "intel-rapl:0:0", "core", "5000");            // a subzone: part of the package
    writeZone(root, "intel-rapl-mmio:0", "package-0", "1000000");  // the same package again
    writeZone(root, "intel-rapl:1", "package-1", "");              // no counter: unavailable
    const clusterdesk::PowerDiscovery found = clusterdesk::discoverRaplSources(root.path());
    REQUIRE_EQ(found.sources.size(), std::size_t(1));
    REQUIRE_EQ(found.sources[0]->device(), std::string("cpu package 0"));
    REQUIRE_EQ(found.sources[0]->name(), std::string("rapl"));
    REQUIRE(found.sources[0]->kind() == clusterdesk::PowerKind::Measured);
    REQUIRE_EQ(found.unavailable.size(), std::size_t(1));
    REQUIRE_MESSAGE(found.unavailable[0].find("intel-rapl:1/energy_uj") != std::string::npos, found.unavailable[0].c_str());
}

TEST_CASE("countsThroughWrapAround")
{
    test::TempDir root;
    writeZone(root, "intel-rapl:0", "package-0", "1000000");
    clusterdesk::RaplPowerSource source(root.filePath("intel-rapl:0"), "cpu package 0");
    writeFile(root.filePath("intel-rapl:0/energy_uj"), "3000000");
    auto reading = source.read();
    REQUIRE((reading && reading->energyJ));
    REQUIRE_EQ(*reading->energyJ, 2.0);
    REQUIRE(reading->watts > 0);
    // 3.0 J -> 4.0 J (the range) -> wraps to 0 -> 0.5 J: 1.5 J more.
    writeFile(root.filePath("intel-rapl:0/energy_uj"), "500000");
    reading = source.read();
    REQUIRE((reading && reading->energyJ));
    REQUIRE_EQ(*reading->energyJ, 3.5);
}

TEST_CASE("absentRootIsUnavailable")
{
    const clusterdesk::PowerDiscovery found = clusterdesk::discoverRaplSources("/nonexistent/powercap");
    REQUIRE(found.sources.empty());
    REQUIRE_EQ(found.unavailable.size(), std::size_t(1));
    REQUIRE_MESSAGE(found.unavailable[0].find("/nonexistent/powercap") != std::string::npos, found.unavailable[0].c_str());
}

// The counter vanishing mid-run (a driver unloaded) is a failed read, not a crash.
TEST_CASE("unreadableCounterIsAFailedRead")
{
    test::TempDir root;
    writeZone(root, "intel-rapl:0", "package-0", "1000000");
    clusterdesk::RaplPowerSource source(root.filePath("intel-rapl:0"), "cpu package 0");
    REQUIRE(std::filesystem::remove(root.filePath("intel-rapl:0/energy_uj")));
    REQUIRE(!source.read());
}
