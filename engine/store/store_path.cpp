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

}  // namespace

std::filesystem::path defaultStorePath()
{
    if (const std::string db = environment("CLUSTERDESK_DB"); !db.empty()) return db;
    std::filesystem::path dataHome = environment("XDG_DATA_HOME");
    if (!dataHome.is_absolute()) {
        const std::string home = environment("HOME");
        if (home.empty())
            throw UsageError("no place for the run store: set CLUSTERDESK_DB, XDG_DATA_HOME or HOME, or pass --db PATH");
        dataHome = std::filesystem::path(home) / ".local" / "share";
    }
    return dataHome / "clusterdesk" / "runs.sqlite";
}

std::filesystem::path chainKeyPath()
{
    if (const std::string key = environment("CLUSTERDESK_CHAIN_KEY"); !key.empty()) return key;
    std::filesystem::path configHome = environment("XDG_CONFIG_HOME");
    if (!configHome.is_absolute()) {
        const std::string home = environment("HOME");
        if (home.empty())
            throw UsageError("no place for the run store's chain key: set CLUSTERDESK_CHAIN_KEY, XDG_CONFIG_HOME or HOME");
        configHome = std::filesystem::path(home) / ".config";
    }
    return configHome / "clusterdesk" / "chain.key";
}

}  // namespace clusterdesk::store
