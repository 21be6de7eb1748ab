// CPU package power from the Linux powercap interface (RAPL on Intel and AMD): every
// zone named "package-N" exposes a microjoule counter, energy_uj, that wraps at
// max_energy_range_uj.
#pragma once

#include "power_source.h"

#include <cstdint>
#include <filesystem>

namespace clusterdesk {

class RaplPowerSource : public PowerSource {
public:
    // zone: one powercap zone directory (holding name, energy_uj, max_energy_range_uj).
    // Reads the counter once; throws DeviceError naming the file when it is unreadable.
    RaplPowerSource(std::filesystem::path zone, std::string device);

    std::string name() const override { return "rapl"; }
    std::string device() const override { return m_device; }
    PowerKind kind() const override { return PowerKind::Measured; }
    std::optional<PowerReading> read() override;

private:
    std::filesystem::path m_zone;
    std::string m_device;
    std::uint64_t m_maxRangeUj = 0;  // 0 when the zone does not say; a decrease is then a plain wrap at 2^64
    std::uint64_t m_lastUj = 0;
    double m_energyJ = 0;
    double m_lastSeconds = 0;
};

// One source per readable package zone under root (normally /sys/class/powercap; a
// test points it at a tree it wrote). Zones that cannot be read are listed with the
// reason; an absent root is one reason.
PowerDiscovery discoverRaplSources(const std::filesystem::path& root = "/sys/class/powercap");

}  // namespace clusterdesk
