// CPU power estimated where nothing measures it: utilisation from /proc/stat deltas
// scaled between an idle floor and a TDP from the device catalog
// (engine/catalog/hardware_catalog.h). Always labelled Estimated.
#pragma once

#include "power_source.h"

#include <cstdint>
#include <filesystem>

namespace clusterdesk {

// What the catalog says about one CPU model.
struct CpuPowerModel {
    double tdpWatts = 0;   // for the hardware threads this process sees
    double idleWatts = 0;  // the floor at zero utilisation
    std::string basis;     // where tdpWatts came from: "catalog: EPYC 7763" or "default 15 W per thread"
};

// The "model name" of the first processor in cpuinfo; empty when there is none.
std::string cpuModelName(const std::filesystem::path& cpuinfo = "/proc/cpuinfo");

// cpuModel: as /proc/cpuinfo's "model name"; threads: hardware threads visible.
// catalogJson: the catalog's text (the compiled-in one when empty). Throws DataError
// when the catalog is malformed.
CpuPowerModel cpuPowerModel(const std::string& cpuModel, int threads, const std::string& catalogJson = {});

class EstimatedCpuPowerSource : public PowerSource {
public:
    // Reads procStat once as the baseline; throws DeviceError when it is unreadable.
    // cpuinfo gives the model name for the catalog look-up.
    explicit EstimatedCpuPowerSource(std::filesystem::path procStat = "/proc/stat",
                                     const std::filesystem::path& cpuinfo = "/proc/cpuinfo");

    std::string name() const override { return "estimated"; }
    std::string device() const override { return m_device; }
    PowerKind kind() const override { return PowerKind::Estimated; }
    std::optional<PowerReading> read() override;

    const CpuPowerModel& model() const { return m_model; }

private:
    struct Ticks {
        std::uint64_t busy = 0;
        std::uint64_t total = 0;
    };
    std::optional<Ticks> readTicks(int* threads) const;

    std::filesystem::path m_procStat;
    std::string m_device;
    CpuPowerModel m_model;
    Ticks m_last;
    double m_lastSeconds = 0;
    double m_energyJ = 0;
};

}  // namespace clusterdesk
