// Where the run store lives unless a --db PATH says otherwise; the CLI and the GUI
// both call this, so they share one history.
#pragma once

#include <filesystem>

namespace clusterdesk::store {

// $CLUSTERDESK_DB when set and not empty; else $XDG_DATA_HOME/clusterdesk/runs.sqlite
// (XDG base directory spec: only an absolute XDG_DATA_HOME counts); else
// $HOME/.local/share/clusterdesk/runs.sqlite. Throws UsageError when none applies.
std::filesystem::path defaultStorePath();

}  // namespace clusterdesk::store
