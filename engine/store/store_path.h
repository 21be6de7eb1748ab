// Where the run store lives unless a --db PATH says otherwise; the CLI and the GUI
// both call this, so they share one history.
#pragma once

#include "engine/core/output_file.h"

#include <filesystem>
#include <vector>

namespace clusterdesk::store {

// $CLUSTERDESK_DB when set and not empty; else $XDG_DATA_HOME/clusterdesk/runs.sqlite
// (XDG base directory spec: only an absolute XDG_DATA_HOME counts); else
// $HOME/.local/share/clusterdesk/runs.sqlite. Throws UsageError when none applies.
std::filesystem::path defaultStorePath();

// The secret that keys the hash chain (run_chain.h), kept outside every store file so
// that whoever can edit a store cannot re-seal it: $CLUSTERDESK_CHAIN_KEY when set and
// not empty; else $XDG_CONFIG_HOME/clusterdesk/chain.key (absolute XDG_CONFIG_HOME
// only); else $HOME/.config/clusterdesk/chain.key. Throws UsageError when none applies.
std::filesystem::path chainKeyPath();

// The files that make up the run store at `path`, which no output may replace: the
// SQLite database, its -wal, -shm and -journal companions, the chain head beside it
// and the chain key (where one has a place).
std::vector<ProtectedFile> storeFiles(const std::string& path);

}  // namespace clusterdesk::store
