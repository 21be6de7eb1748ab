// Which process owns a `running` run, and whether it still lives.
//
// Why not a lock file: an flock per run beside the database would need cleaning up
// and a second file per run to manage; the process table already says who is alive.
// A pid alone is not enough because pids are reused, so the owner is the host name,
// the pid, and a token made of the kernel's boot id and the process's start time
// (clock ticks since boot, /proc/PID/stat field 22): a reused pid has another start
// time, and a reboot changes the boot id. Runs owned by another host are never judged
// (its process table cannot be seen from here).
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>

namespace clusterdesk::store {

struct ProcessOwner {
    std::string host;
    std::int64_t pid = 0;
    std::string token;  // "BOOT_ID:START_TICKS"; empty when /proc could not be read
};

// Where the kernel says which boot this is; a parameter so a test can name a file that
// cannot be read, as in a container or sandbox that hides /proc/sys.
inline const std::filesystem::path kBootIdFile = "/proc/sys/kernel/random/boot_id";

ProcessOwner currentProcess(const std::filesystem::path& bootIdFile = kBootIdFile);
std::string hostName();

// False only when the owner is known to be gone: it ran on this host and that very
// process no longer runs. An owner that cannot be identified (no token: /proc was not
// readable when it started, or is not now) counts as possibly alive unless its pid is
// free; only a record without any owner (written before owners were recorded) is gone.
bool mayBeRunning(const ProcessOwner& owner, const std::filesystem::path& bootIdFile = kBootIdFile);

}  // namespace clusterdesk::store
