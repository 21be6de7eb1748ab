// `clusterdesk-cli run`: load, cluster, write the outputs, map failures to exit codes.
#pragma once

#include <string>
#include <vector>

namespace clusterdesk::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitUsage = 2;
inline constexpr int kExitData = 3;
inline constexpr int kExitEngine = 4;
inline constexpr int kExitCancelled = 130;

int runCommand(const std::vector<std::string>& args);

}  // namespace clusterdesk::cli
