// The sampler on this machine's real sources (whatever they are), and on a RAPL tree
// the test writes, where the energy it must report is known exactly.
#include "engine/telemetry/power_sampler.h"

#include "doctest_support.h"
#include "temp_dir.h"

#include <string>

#include <filesystem>
#include <fstream>

#include <chrono>
#include <thread>

namespace test = clusterdesk::test;

using namespace std::chrono_literals;

namespace {

void writeFile(const std::string& path, const std::string& text)
{
    std::filesystem::create_directories(std::filesystem::path(path).parent_path());
    // One rename: the sampler never reads half a number.
    const std::string temporary = path + ".new";
    std::ofstream(temporary, std::ios::trunc) << text << "\n";
    std::error_code error;
    std::filesystem::rename(temporary, path, error);
    REQUIRE_MESSAGE(!error, path << ": " << error.message());
}

void burn(std::chrono::milliseconds duration)
{
    const auto end = std::chrono::steady_clock::now() + duration;
    volatile double x = 1;
    while (std::chrono::steady_clock::now() < end) x = x * 1.0000001 + 1e-9;
}

}  // namespace

TEST_CASE("thisMachineTwice")
{
    clusterdesk::PowerSampler sampler;
    REQUIRE(sampler.deviceCount() >= 1);  // at worst the estimate
    for (int round = 0; round < 2; ++round) {
        sampler.start();
        REQUIRE(sampler.running());
        burn(1000ms);
        sampler.stop();
        REQUIRE(!sampler.running());

        const clusterdesk::PowerSummary s = sampler.summary();
        REQUIRE_MESSAGE(s.energyJ > 0, std::string(std::to_string(s.energyJ)).c_str());
        REQUIRE((s.seconds >= 0.9 && s.seconds < 3.0));
        REQUIRE_EQ(s.devices.size(), sampler.deviceCount());
        // The label follows from the devices found, whichever this machine has.
        REQUIRE_EQ(s.energySource, clusterdesk::energySourceLabel(s.devices));
        bool measured = false, estimated = false;
        for (const auto& d : s.devices) (d.kind == clusterdesk::PowerKind::Measured ? measured : estimated) = true;
        REQUIRE_EQ(s.energySource, std::string(measured && estimated ? "mixed" : measured ? "measured" : "estimated"));
        double sum = 0;
        for (const auto& d : s.devices) sum += d.joules;
        REQUIRE_EQ(s.energyJ, sum);

        // ~10 Hz for a second: about 11 samples per device (both ends count); a
        // loaded test machine may stretch that, hence the wide range.
        const auto samples = sampler.samples();
        for (std::size_t device = 0; device < s.devices.size(); ++device) {
            const auto count = std::count_if(samples.begin(), samples.end(),
                                             [&](const auto& p) { return p.device == int(device); });
            REQUIRE_MESSAGE((count >= 4 && count <= 33), count << " samples in 1 s");
        }
        for (std::size_t i = 1; i < samples.size(); ++i) REQUIRE(samples[i].seconds >= samples[i - 1].seconds);
    }
}

// Only a measured package: no estimate beside it, and exactly the counter's joules.
TEST_CASE("raplFixtureIsMeasured")
{
    test::TempDir root;
    writeFile(root.filePath("intel-rapl:0/name"), "package-0");
    writeFile(root.filePath("intel-rapl:0/max_energy_range_uj"), "262143328850");
    writeFile(root.filePath("intel-rapl:0/energy_uj"), "1000000");
    clusterdesk::PowerSamplerOptions options;
    options.useNvml = false;
    options.powercapRoot = root.path();
    clusterdesk::PowerSampler sampler(options);
    REQUIRE_EQ(sampler.deviceCount(), std::size_t(1));
    sampler.start();
    std::this_thread::sleep_for(300ms);
    writeFile(root.filePath("intel-rapl:0/energy_uj"), "6000000");
    std::this_thread::sleep_for(300ms);
    sampler.stop();
    const clusterdesk::PowerSummary s = sampler.summary();
    REQUIRE_EQ(s.energySource, std::string("measured"));
    REQUIRE_EQ(s.devices.size(), std::size_t(1));
    REQUIRE_EQ(s.devices[0].device, std::string("cpu package 0"));
    REQUIRE_EQ(s.energyJ, 5.0);
}

// Without RAPL the estimate stands in, and the reason RAPL was not used is kept.
TEST_CASE("estimateWhereNothingMeasures")
{
    clusterdesk::PowerSamplerOptions options;
    options.useNvml = false;
    options.powercapRoot = "/nonexistent/powercap";
    clusterdesk::PowerSampler sampler(options);
    const clusterdesk::PowerSummary s = sampler.summary();
    REQUIRE_EQ(s.devices.size(), std::size_t(1));
    REQUIRE_EQ(s.devices[0].source, std::string("estimated"));
    REQUIRE_EQ(s.energySource, std::string("estimated"));
    REQUIRE(!s.unavailable.empty());
}

TEST_CASE("destroyedWhileRunning")
{
    clusterdesk::PowerSampler sampler;
    sampler.start();
    sampler.start();  // no second thread
    std::this_thread::sleep_for(50ms);
}  // the destructor stops and joins

void mixedLabel()
{
    using clusterdesk::DeviceEnergy;
    using clusterdesk::PowerKind;
    const DeviceEnergy gpu{"GPU 0", "nvml", PowerKind::Measured, 1};
    const DeviceEnergy cpu{"cpu", "estimated", PowerKind::Estimated, 1};
    REQUIRE_EQ(clusterdesk::energySourceLabel({gpu, cpu}), std::string("mixed"));
    REQUIRE_EQ(clusterdesk::energySourceLabel({gpu}), std::string("measured"));
    REQUIRE_EQ(clusterdesk::energySourceLabel({cpu}), std::string("estimated"));
    REQUIRE_EQ(clusterdesk::energySourceLabel({}), std::string());
}
