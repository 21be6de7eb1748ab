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

}  // namespace clusterdesk::store
