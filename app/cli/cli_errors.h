// Exit codes of clusterdesk-cli, and the one place that turns an exception into a
// message on stderr and its exit code.
#pragma once

#include <functional>

namespace clusterdesk::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitCheckFailed = 1;  // runs verify found an edit, runs rerun did not reproduce
inline constexpr int kExitUsage = 2;
inline constexpr int kExitData = 3;
inline constexpr int kExitEngine = 4;       // engine, device or run store error
inline constexpr int kExitOutput = 5;       // an output file could not be written (it keeps what it held)
inline constexpr int kExitCancelled = 130;

// Runs body; an exception becomes "clusterdesk-cli: ..." on stderr and its exit code.
int exitCodeOf(const std::function<int()>& body);

}  // namespace clusterdesk::cli
