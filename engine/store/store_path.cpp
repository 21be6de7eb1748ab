#include "store_path.h"

#include "engine/core/error.h"

#include <cstdlib>

namespace clusterdesk::store {
namespace {

std::string environment(const char* name)
{
    const char* value = std::getenv(name);
    return value ? value : "";
}

// $OVERRIDE if set; else the XDG base directory $XDG_VAR (absolute values only, as the
// XDG spec says), else $HOME/homeFallback; then clusterdesk/FILE below it.
std::filesystem::path userFile(const char* override, const char* xdgVar, const std::filesystem::path& homeFallback,
                               const char* file, const std::string& what)
{
    if (const std::string path = environment(override); !path.empty()) return path;
    std::filesystem::path base = environment(xdgVar);
    if (!base.is_absolute()) {
        const std::string home = environment("HOME");
        if (home.empty()) throw UsageError("no place for " + what + ": set " + override + ", " + xdgVar + " or HOME");
        base = std::filesystem::path(home) / homeFallback;
    }
    return base / "clusterdesk" / file;
}

}  // namespace

std::filesystem::path defaultStorePath()
{
    return userFile("CLUSTERDESK_DB", "XDG_DATA_HOME", ".local/share", "runs.sqlite", "the run store (or pass --db PATH)");
}

std::filesystem::path chainKeyPath()
{
    return userFile("CLUSTERDESK_CHAIN_KEY", "XDG_CONFIG_HOME", ".config", "chain.key", "the run store's chain key");
}

std::vector<ProtectedFile> storeFiles(const std::string& path)
{
    std::vector<ProtectedFile> files = {{path, "the run store"}, {path + "-wal", "the run store's write-ahead log"},
                                        {path + "-shm", "the run store's shared memory"}, {path + "-journal", "the run store's journal"},
                                        {path + ".chain-head", "the run store's chain head"}};
    // Replaced, it would leave every store it seals unverifiable.
    try {
        files.push_back({chainKeyPath().string(), "the run store's chain key"});
    } catch (const UsageError&) {
        // No place for a key: the store cannot be written either, and says so when opened.
    }
    return files;
}

}  // namespace clusterdesk::store
