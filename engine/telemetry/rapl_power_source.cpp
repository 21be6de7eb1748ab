#include "rapl_power_source.h"

#include "../core/error.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <fstream>

namespace clusterdesk {
namespace {

double nowSeconds()
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// The first line of a sysfs file, or nullopt with the reason in *why.
std::optional<std::string> readLine(const std::filesystem::path& file, std::string* why)
{
    std::ifstream in(file);
    std::string line;
    if (!in || !std::getline(in, line)) {
        if (why) *why = "cannot read " + file.string() + ": " + (errno ? std::strerror(errno) : "empty");
        return std::nullopt;
    }
    return line;
}

std::optional<std::uint64_t> readCounter(const std::filesystem::path& file, std::string* why)
{
    errno = 0;
    const auto line = readLine(file, why);
    if (!line) return std::nullopt;
    try {
        return static_cast<std::uint64_t>(std::stoull(*line));
    } catch (const std::exception&) {
        if (why) *why = file.string() + " does not hold a counter ('" + *line + "')";
        return std::nullopt;
    }
}

}  // namespace

RaplPowerSource::RaplPowerSource(std::filesystem::path zone, std::string device)
    : m_zone(std::move(zone)), m_device(std::move(device))
{
    std::string why;
    const auto counter = readCounter(m_zone / "energy_uj", &why);
    if (!counter) throw DeviceError("rapl: " + why);
    m_lastUj = *counter;
    m_lastSeconds = nowSeconds();
    if (const auto range = readCounter(m_zone / "max_energy_range_uj", nullptr)) m_maxRangeUj = *range;
}

std::optional<PowerReading> RaplPowerSource::read()
{
    const auto counter = readCounter(m_zone / "energy_uj", nullptr);
    if (!counter) return std::nullopt;
    const double now = nowSeconds();
    // The counter wraps at max_energy_range_uj (every few minutes on a busy server),
    // so a smaller value means one wrap: samples come far more often than that.
    std::uint64_t deltaUj = *counter - m_lastUj;  // unsigned: also right for a wrap at 2^64
    if (*counter < m_lastUj && m_maxRangeUj > m_lastUj) deltaUj = (m_maxRangeUj - m_lastUj) + *counter;
    const double joules = static_cast<double>(deltaUj) * 1e-6;
    const double seconds = now - m_lastSeconds;
    m_energyJ += joules;
    m_lastUj = *counter;
    m_lastSeconds = now;
    return PowerReading{seconds > 0 ? joules / seconds : 0.0, m_energyJ};
}

PowerDiscovery discoverRaplSources(const std::filesystem::path& root)
{
    PowerDiscovery found;
    std::error_code error;
    std::vector<std::filesystem::path> zones;
    for (const auto& entry : std::filesystem::directory_iterator(root, error)) zones.push_back(entry.path());
    if (error) {
        found.unavailable.push_back("rapl: cannot list " + root.string() + ": " + error.message());
        return found;
    }
    std::sort(zones.begin(), zones.end());
    for (const auto& zone : zones) {
        // The MMIO interface repeats the package zone on recent Intel parts; counting
        // both would double the energy.
        if (zone.filename().string().find("mmio") != std::string::npos) continue;
        const auto name = readLine(zone / "name", nullptr);
        if (!name || name->rfind("package-", 0) != 0) continue;
        std::string device = "cpu " + *name;  // "package-0" -> "cpu package 0"
        std::replace(device.begin(), device.end(), '-', ' ');
        try {
            found.sources.push_back(std::make_unique<RaplPowerSource>(zone, device));
        } catch (const DeviceError& e) {
            found.unavailable.push_back(e.what());
        }
    }
    if (found.sources.empty() && found.unavailable.empty())
        found.unavailable.push_back("rapl: no package zone under " + root.string());
    return found;
}

}  // namespace clusterdesk
