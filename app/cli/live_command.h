// `clusterdesk-cli live`: clusters a live feed as it streams, one update every N bars,
// printing each update (or one JSON line per update) and a summary at the end.
#pragma once

#include <string>
#include <vector>

namespace clusterdesk::cli {

int liveCommand(const std::vector<std::string>& args);

}  // namespace clusterdesk::cli
