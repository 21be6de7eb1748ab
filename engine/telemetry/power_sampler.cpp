#include "power_sampler.h"

#include "../core/error.h"
#include "estimated_power_source.h"
#include "nvml_power_source.h"
#include "rapl_power_source.h"

namespace clusterdesk {
namespace {

void append(PowerDiscovery& into, PowerDiscovery&& from)
{
    for (auto& source : from.sources) into.sources.push_back(std::move(source));
    for (auto& reason : from.unavailable) into.unavailable.push_back(std::move(reason));
}

}  // namespace

std::string energySourceLabel(const std::vector<DeviceEnergy>& devices)
{
    bool measured = false;
    bool estimated = false;
    for (const DeviceEnergy& d : devices) (d.kind == PowerKind::Measured ? measured : estimated) = true;
    if (measured && estimated) return "mixed";
    if (measured) return "measured";
    if (estimated) return "estimated";
    return {};
}

PowerDiscovery discoverPowerSources(const PowerSamplerOptions& options)
{
    PowerDiscovery found;
    if (options.useNvml) append(found, discoverNvmlSources());
    PowerDiscovery rapl = discoverRaplSources(options.powercapRoot);
    const bool cpuMeasured = !rapl.sources.empty();
    append(found, std::move(rapl));
    // The estimate stands in for the CPU only where RAPL measures nothing: both at
    // once would count the CPU twice.
    if (!cpuMeasured) {
        try {
            found.sources.push_back(std::make_unique<EstimatedCpuPowerSource>(options.procStat));
        } catch (const Error& e) {
            found.unavailable.push_back(e.what());
        }
    }
    return found;
}

PowerSampler::PowerSampler(const PowerSamplerOptions& options) : PowerSampler(discoverPowerSources(options), options.period) {}

PowerSampler::PowerSampler(PowerDiscovery sources, std::chrono::milliseconds period)
    : m_sources(std::move(sources.sources)), m_unavailable(std::move(sources.unavailable)),
      m_period(std::max(period, std::chrono::milliseconds(1)))
{
}

PowerSampler::~PowerSampler()
{
    stop();
}

void PowerSampler::start()
{
    if (m_thread.joinable()) return;
    {
        std::lock_guard lock(m_mutex);
        m_state.assign(m_sources.size(), DeviceState{});
        m_samples.clear();
        m_stopSeconds = 0;
    }
    m_stop.store(false);
    m_start = std::chrono::steady_clock::now();
    // The first sample here and the last in stop(): a run shorter than one period still
    // spans two samples and gets its energy. Sources are never read by two threads at once.
    sampleAll(0);
    m_thread = std::thread(&PowerSampler::loop, this);
}

void PowerSampler::stop()
{
    if (!m_thread.joinable()) return;
    {
        // Under the wait's mutex, so the thread cannot miss the notification between
        // testing the flag and going to sleep.
        std::lock_guard lock(m_wakeMutex);
        m_stop.store(true);
    }
    m_wake.notify_all();
    m_thread.join();
    std::lock_guard lock(m_mutex);
    m_stopSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - m_start).count();
}

void PowerSampler::loop()
{
    auto next = m_start;
    for (;;) {
        // A fixed grid keeps the rate at 10 Hz however long a read takes; after a stall
        // (a suspended VM) restart the grid rather than firing a burst of catch-up reads.
        next += m_period;
        if (const auto now = std::chrono::steady_clock::now(); next < now) next = now + m_period;
        {
            std::unique_lock lock(m_wakeMutex);
            m_wake.wait_until(lock, next, [this] { return m_stop.load(); });
        }
        // After stop() too: the final sample closes the last interval.
        sampleAll(std::chrono::duration<double>(std::chrono::steady_clock::now() - m_start).count());
        if (m_stop.load()) return;
    }
}

void PowerSampler::sampleAll(double seconds)
{
    // Read outside the lock: a sysfs or driver read can take a while, and summary()
    // should not wait for it.
    std::vector<std::optional<PowerReading>> readings;
    readings.reserve(m_sources.size());
    for (auto& source : m_sources) readings.push_back(source->read());

    std::lock_guard lock(m_mutex);
    for (std::size_t i = 0; i < m_sources.size(); ++i) {
        const auto& reading = readings[i];
        if (!reading) continue;
        DeviceState& state = m_state[i];
        if (!state.first) {
            state.first = reading;
        } else if (reading->energyJ && state.first->energyJ) {
            state.joules = *reading->energyJ - *state.first->energyJ;
        } else {
            state.joules += 0.5 * (state.last->watts + reading->watts) * (seconds - state.lastSeconds);
        }
        state.last = reading;
        state.lastSeconds = seconds;
        m_samples.push_back(PowerSample{seconds, static_cast<int>(i), reading->watts, m_sources[i]->kind()});
    }
}

PowerSummary PowerSampler::summary() const
{
    std::lock_guard lock(m_mutex);
    PowerSummary summary;
    summary.unavailable = m_unavailable;
    summary.seconds = m_thread.joinable() ? std::chrono::duration<double>(std::chrono::steady_clock::now() - m_start).count()
                                          : m_stopSeconds;
    for (std::size_t i = 0; i < m_sources.size(); ++i) {
        const double joules = i < m_state.size() ? m_state[i].joules : 0.0;
        summary.devices.push_back(DeviceEnergy{m_sources[i]->device(), m_sources[i]->name(), m_sources[i]->kind(), joules});
        summary.energyJ += joules;
    }
    summary.energySource = energySourceLabel(summary.devices);
    return summary;
}

std::vector<PowerSample> PowerSampler::samples() const
{
    std::lock_guard lock(m_mutex);
    return m_samples;
}

}  // namespace clusterdesk
