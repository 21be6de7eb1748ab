// `clusterdesk-cli whatif`: one job on several topologies, the ones here measured and
// the others modeled (engine/session/comparison.h), as a table or JSON.
#pragma once

#include <string>
#include <vector>

namespace clusterdesk::cli {

int whatifCommand(const std::vector<std::string>& args);

}  // namespace clusterdesk::cli
