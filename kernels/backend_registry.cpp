#include "backend_registry.h"

#include "cuda/cuda_plugin.h"
#include "host/host_backend.h"

#include <dlfcn.h>
#include <unistd.h>

#include <array>
#include <climits>
#include <cstdlib>
#include <mutex>

namespace clusterdesk::kernels {
namespace {

struct CudaPlugin {
    CudaDeviceCountFn deviceCount = nullptr;
    CudaCreateBackendFn create = nullptr;
    void* handle = nullptr;
    std::string loadError;
};

std::string executableDir()
{
    std::array<char, PATH_MAX> path{};
    const ssize_t n = readlink("/proc/self/exe", path.data(), path.size() - 1);
    if (n <= 0) return ".";
    std::string exe(path.data(), static_cast<std::size_t>(n));
    return exe.substr(0, exe.find_last_of('/'));
}

// Looks beside the executable first, then in $CLUSTERDESK_PLUGIN_DIR, then the loader path.
const CudaPlugin& cudaPlugin()
{
    static CudaPlugin plugin;
    static std::once_flag once;
    std::call_once(once, [] {
        const std::string file = CLUSTERDESK_CUDA_PLUGIN;
        if (file.empty()) {
            plugin.loadError = "this build has no CUDA backend (nvcc was not found when it was configured)";
            return;
        }
        std::vector<std::string> candidates{executableDir() + "/" + file};
        if (const char* dir = std::getenv("CLUSTERDESK_PLUGIN_DIR")) candidates.push_back(std::string(dir) + "/" + file);
        candidates.push_back(file);
        std::string errors;
        for (const std::string& candidate : candidates) {
            void* handle = dlopen(candidate.c_str(), RTLD_NOW | RTLD_LOCAL);
            if (!handle) {
                errors += std::string(errors.empty() ? "" : "; ") + dlerror();
                continue;
            }
            plugin.deviceCount = reinterpret_cast<CudaDeviceCountFn>(dlsym(handle, "clusterdesk_cuda_device_count"));
            plugin.create = reinterpret_cast<CudaCreateBackendFn>(dlsym(handle, "clusterdesk_cuda_create_backend"));
            if (plugin.deviceCount && plugin.create) {
                plugin.handle = handle;
                return;
            }
            errors += "; " + candidate + " lacks the ClusterDesk entry points";
            plugin.deviceCount = nullptr;
            plugin.create = nullptr;
        }
        plugin.loadError = "cannot load the CUDA backend plug-in: " + errors;
    });
    return plugin;
}

}  // namespace

CudaAvailability cudaAvailability()
{
    const CudaPlugin& plugin = cudaPlugin();
    if (!plugin.deviceCount) return {0, plugin.loadError};
    std::array<char, 512> reason{};
    const int count = plugin.deviceCount(reason.data(), reason.size());
    if (count < 0) return {0, std::string("CUDA is not usable: ") + reason.data()};
    if (count == 0) return {0, "no CUDA device found"};
    return {count, {}};
}

void* cudaPluginSymbol(const char* name, std::string& reason)
{
    const CudaPlugin& plugin = cudaPlugin();
    if (!plugin.handle) {
        reason = plugin.loadError;
        return nullptr;
    }
    void* symbol = dlsym(plugin.handle, name);
    if (!symbol) reason = std::string("the CUDA plug-in lacks ") + name + " (an older build?)";
    return symbol;
}

std::unique_ptr<Backend> createBackend(const std::string& name)
{
    if (name == "host") return createHostBackend();
    if (name.rfind("cuda", 0) == 0) {
        int device = 0;
        if (name.size() > 4) {
            if (name[4] != ':' || name.size() == 5) throw BackendUnavailable("unknown backend '" + name + "' (expected cuda:N)");
            char* end = nullptr;
            const long parsed = std::strtol(name.c_str() + 5, &end, 10);
            if (*end != '\0' || parsed < 0 || parsed > 1024) throw BackendUnavailable("unknown backend '" + name + "' (expected cuda:N)");
            device = static_cast<int>(parsed);
        }
        const CudaAvailability available = cudaAvailability();
        if (available.deviceCount == 0) throw BackendUnavailable("no GPU is usable for '" + name + "': " + available.reason);
        if (device >= available.deviceCount)
            throw BackendUnavailable("no GPU " + std::to_string(device) + " for '" + name + "': " +
                                     std::to_string(available.deviceCount) + " device(s) present");
        std::array<char, 512> reason{};
        Backend* backend = cudaPlugin().create(device, reason.data(), reason.size());
        if (!backend) throw BackendUnavailable("cannot start " + name + ": " + reason.data());
        return std::unique_ptr<Backend>(backend);
    }
    throw BackendUnavailable("unknown backend '" + name + "' (expected host or cuda:N)");
}

}  // namespace clusterdesk::kernels
