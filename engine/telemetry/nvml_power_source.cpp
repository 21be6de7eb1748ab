#include "nvml_power_source.h"

#include <dlfcn.h>

#include <chrono>
#include <string>

namespace clusterdesk {
namespace {

// The few NVML entry points we call, declared here so the build needs no NVML header.
using NvmlReturn = int;  // nvmlReturn_t; 0 is NVML_SUCCESS
using NvmlDevice = struct NvmlDeviceOpaque*;
using NvmlInit = NvmlReturn (*)();
using NvmlShutdown = NvmlReturn (*)();
using NvmlErrorString = const char* (*)(NvmlReturn);
using NvmlGetCount = NvmlReturn (*)(unsigned int*);
using NvmlGetHandle = NvmlReturn (*)(unsigned int, NvmlDevice*);
using NvmlGetName = NvmlReturn (*)(NvmlDevice, char*, unsigned int);
using NvmlGetPower = NvmlReturn (*)(NvmlDevice, unsigned int*);               // milliwatts
using NvmlGetEnergy = NvmlReturn (*)(NvmlDevice, unsigned long long*);        // millijoules since driver load

// The loaded library, initialised once and shut down when the last source goes.
struct NvmlLibrary {
    void* handle = nullptr;
    NvmlInit init = nullptr;
    NvmlShutdown shutdown = nullptr;
    NvmlErrorString errorString = nullptr;
    NvmlGetCount getCount = nullptr;
    NvmlGetHandle getHandle = nullptr;
    NvmlGetName getName = nullptr;
    NvmlGetPower getPower = nullptr;
    NvmlGetEnergy getEnergy = nullptr;  // absent in very old drivers
    bool initialised = false;

    ~NvmlLibrary()
    {
        if (initialised) shutdown();
        if (handle) dlclose(handle);
    }

    std::string error(NvmlReturn code) const
    {
        return errorString ? errorString(code) : "NVML error " + std::to_string(code);
    }
};

template <typename F>
F symbol(void* handle, const char* name)
{
    return reinterpret_cast<F>(dlsym(handle, name));
}

double nowSeconds()
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

class NvmlPowerSource : public PowerSource {
public:
    NvmlPowerSource(std::shared_ptr<NvmlLibrary> nvml, NvmlDevice device, std::string label)
        : m_nvml(std::move(nvml)), m_device(device), m_label(std::move(label))
    {
        // The energy counter (Volta and later) integrates on the GPU at a far higher
        // rate than we sample; instantaneous power is the fallback.
        unsigned long long millijoules = 0;
        m_hasEnergy = m_nvml->getEnergy && m_nvml->getEnergy(m_device, &millijoules) == 0;
        m_firstMj = millijoules;
        m_lastMj = millijoules;
        m_lastSeconds = nowSeconds();
    }

    std::string name() const override { return "nvml"; }
    std::string device() const override { return m_label; }
    PowerKind kind() const override { return PowerKind::Measured; }

    std::optional<PowerReading> read() override
    {
        unsigned int milliwatts = 0;
        const bool hasPower = m_nvml->getPower(m_device, &milliwatts) == 0;
        if (!m_hasEnergy) {
            if (!hasPower) return std::nullopt;
            return PowerReading{milliwatts * 1e-3, std::nullopt};
        }
        unsigned long long millijoules = 0;
        if (m_nvml->getEnergy(m_device, &millijoules) != 0) return std::nullopt;
        const double now = nowSeconds();
        const double seconds = now - m_lastSeconds;
        const double meanWatts = seconds > 0 ? static_cast<double>(millijoules - m_lastMj) * 1e-3 / seconds : 0.0;
        m_lastMj = millijoules;
        m_lastSeconds = now;
        return PowerReading{hasPower ? milliwatts * 1e-3 : meanWatts, static_cast<double>(millijoules - m_firstMj) * 1e-3};
    }

private:
    std::shared_ptr<NvmlLibrary> m_nvml;
    NvmlDevice m_device;
    std::string m_label;
    bool m_hasEnergy = false;
    unsigned long long m_firstMj = 0;
    unsigned long long m_lastMj = 0;
    double m_lastSeconds = 0;
};

}  // namespace

PowerDiscovery discoverNvmlSources()
{
    PowerDiscovery found;
    auto nvml = std::make_shared<NvmlLibrary>();
    nvml->handle = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!nvml->handle) {
        const char* why = dlerror();
        found.unavailable.push_back(std::string("nvml: cannot load libnvidia-ml.so.1 (") + (why ? why : "unknown reason") + ")");
        return found;
    }
    nvml->init = symbol<NvmlInit>(nvml->handle, "nvmlInit_v2");
    nvml->shutdown = symbol<NvmlShutdown>(nvml->handle, "nvmlShutdown");
    nvml->errorString = symbol<NvmlErrorString>(nvml->handle, "nvmlErrorString");
    nvml->getCount = symbol<NvmlGetCount>(nvml->handle, "nvmlDeviceGetCount_v2");
    nvml->getHandle = symbol<NvmlGetHandle>(nvml->handle, "nvmlDeviceGetHandleByIndex_v2");
    nvml->getName = symbol<NvmlGetName>(nvml->handle, "nvmlDeviceGetName");
    nvml->getPower = symbol<NvmlGetPower>(nvml->handle, "nvmlDeviceGetPowerUsage");
    nvml->getEnergy = symbol<NvmlGetEnergy>(nvml->handle, "nvmlDeviceGetTotalEnergyConsumption");
    if (!nvml->init || !nvml->shutdown || !nvml->getCount || !nvml->getHandle || !nvml->getName || !nvml->getPower) {
        found.unavailable.push_back("nvml: libnvidia-ml.so.1 lacks an entry point we need (too old a driver?)");
        return found;
    }
    if (const NvmlReturn code = nvml->init(); code != 0) {
        found.unavailable.push_back("nvml: nvmlInit failed: " + nvml->error(code));
        return found;
    }
    nvml->initialised = true;
    unsigned int count = 0;
    if (const NvmlReturn code = nvml->getCount(&count); code != 0) {
        found.unavailable.push_back("nvml: cannot count GPUs: " + nvml->error(code));
        return found;
    }
    for (unsigned int i = 0; i < count; ++i) {
        NvmlDevice device = nullptr;
        char name[96] = {};
        unsigned int milliwatts = 0;
        const std::string label = "GPU " + std::to_string(i);
        if (const NvmlReturn code = nvml->getHandle(i, &device); code != 0) {
            found.unavailable.push_back("nvml: " + label + ": " + nvml->error(code));
            continue;
        }
        if (const NvmlReturn code = nvml->getPower(device, &milliwatts); code != 0) {
            found.unavailable.push_back("nvml: " + label + " reports no power: " + nvml->error(code));
            continue;
        }
        const bool named = nvml->getName(device, name, sizeof name) == 0;
        found.sources.push_back(std::make_unique<NvmlPowerSource>(nvml, device, named ? label + " " + name : label));
    }
    if (count == 0) found.unavailable.push_back("nvml: the driver reports no GPU");
    return found;
}

}  // namespace clusterdesk
