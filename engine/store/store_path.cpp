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

}  // namespace clusterdesk::store
