// `clusterdesk-cli runs ...`: list, show, rerun, diff, verify, export, delete and gc
// over the run store.
#pragma once

#include <string>
#include <vector>

namespace clusterdesk::cli {

int runsCommand(const std::vector<std::string>& args);

}  // namespace clusterdesk::cli
