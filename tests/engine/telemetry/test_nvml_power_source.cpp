// NVML GPUs where a driver is present; elsewhere the reason it is unavailable.
#include "engine/telemetry/nvml_power_source.h"

#include "doctest_support.h"

#include <string>

#include <thread>

TEST_CASE("readsEveryGpu")
{
    const clusterdesk::PowerDiscovery found = clusterdesk::discoverNvmlSources();
    if (found.sources.empty()) {
        REQUIRE_MESSAGE(!found.unavailable.empty(), "no GPU and no reason why");
        CLUSTERDESK_SKIP(found.unavailable.front().c_str());
    }
    for (const auto& source : found.sources) {
        REQUIRE_EQ(source->name(), std::string("nvml"));
        REQUIRE(source->kind() == clusterdesk::PowerKind::Measured);
        REQUIRE_MESSAGE(source->device().rfind("GPU ", 0) == 0, source->device().c_str());
        const auto first = source->read();
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
        const auto second = source->read();
        REQUIRE((first && second));
        REQUIRE_MESSAGE(second->watts > 0, source->device().c_str());  // a powered GPU draws tens of watts idle
        if (second->energyJ) REQUIRE(*second->energyJ >= *first->energyJ);
    }
}
