#include "estimated_power_source.h"

#include "../core/error.h"
#include "../catalog/hardware_catalog.h"

#include <algorithm>
#include <chrono>
#include <fstream>
#include <sstream>

namespace clusterdesk {
namespace {

double nowSeconds()
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

}  // namespace

std::string cpuModelName(const std::filesystem::path& cpuinfo)
{
    std::ifstream in(cpuinfo);
    std::string line;
    while (std::getline(in, line)) {
        if (line.rfind("model name", 0) != 0) continue;
        const auto colon = line.find(':');
        if (colon == std::string::npos) break;
        const auto first = line.find_first_not_of(" \t", colon + 1);
        return first == std::string::npos ? std::string() : line.substr(first);
    }
    return {};
}

CpuPowerModel cpuPowerModel(const std::string& cpuModel, int threads, const std::string& catalogJson)
{
    const HardwareCatalog& catalog = catalogJson.empty() ? builtinCatalog() : parseHardwareCatalog(catalogJson, "device catalog");
    CpuPowerModel model;
    threads = std::max(threads, 1);
    if (const DeviceSpec* cpu = catalog.cpuMatching(cpuModel)) {
        // Per hardware thread, so a VM that sees 8 of a socket's 128 threads is not
        // charged the whole socket.
        model.tdpWatts = cpu->tdpW / std::max(cpu->threads, 1) * threads;
        model.basis = "catalog: " + cpu->match;
    } else {
        model.tdpWatts = catalog.wattsPerThread * threads;
        std::ostringstream basis;
        basis << "default " << catalog.wattsPerThread << " W per thread";
        model.basis = basis.str();
    }
    model.idleWatts = catalog.idleFraction * model.tdpWatts;
    return model;
}

EstimatedCpuPowerSource::EstimatedCpuPowerSource(std::filesystem::path procStat, const std::filesystem::path& cpuinfo)
    : m_procStat(std::move(procStat))
{
    int threads = 0;
    const auto ticks = readTicks(&threads);
    if (!ticks) throw DeviceError("estimated power: cannot read CPU times from " + m_procStat.string());
    m_last = *ticks;
    m_lastSeconds = nowSeconds();
    const std::string cpu = cpuModelName(cpuinfo);
    m_model = cpuPowerModel(cpu, threads);
    m_device = "cpu (" + (cpu.empty() ? std::string("unknown model") : cpu) + ", " + std::to_string(threads) + " hardware threads)";
}

// The aggregate "cpu" line: user nice system idle iowait irq softirq steal ...; guest
// time is already inside user. Busy is everything but idle and iowait.
std::optional<EstimatedCpuPowerSource::Ticks> EstimatedCpuPowerSource::readTicks(int* threads) const
{
    std::ifstream in(m_procStat);
    std::string line;
    if (!std::getline(in, line) || line.rfind("cpu ", 0) != 0) return std::nullopt;
    std::istringstream fields(line.substr(4));
    std::uint64_t value[8] = {};
    for (std::uint64_t& v : value) {
        if (!(fields >> v)) return std::nullopt;
    }
    Ticks ticks;
    for (std::uint64_t v : value) ticks.total += v;
    ticks.busy = ticks.total - value[3] - value[4];
    if (threads) {
        *threads = 0;
        while (std::getline(in, line) && line.rfind("cpu", 0) == 0) ++*threads;
    }
    return ticks;
}

std::optional<PowerReading> EstimatedCpuPowerSource::read()
{
    const auto ticks = readTicks(nullptr);
    if (!ticks) return std::nullopt;
    const double now = nowSeconds();
    const double seconds = now - m_lastSeconds;
    const std::uint64_t total = ticks->total - m_last.total;
    // The kernel counts in clock ticks (usually 100 Hz): within one tick no time has
    // passed for it, so keep the previous baseline and report the idle floor.
    if (total == 0) return PowerReading{m_model.idleWatts, m_energyJ + m_model.idleWatts * seconds};
    const double utilisation = std::clamp(static_cast<double>(ticks->busy - m_last.busy) / static_cast<double>(total), 0.0, 1.0);
    const double watts = m_model.idleWatts + (m_model.tdpWatts - m_model.idleWatts) * utilisation;
    m_energyJ += watts * seconds;
    m_last = *ticks;
    m_lastSeconds = now;
    return PowerReading{watts, m_energyJ};
}

}  // namespace clusterdesk
