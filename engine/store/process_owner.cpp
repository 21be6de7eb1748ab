#include "process_owner.h"

#include <signal.h>
#include <unistd.h>

#include <cerrno>

#include <fstream>
#include <sstream>

namespace clusterdesk::store {
namespace {

std::string bootId(const std::filesystem::path& bootIdFile)
{
    std::ifstream in(bootIdFile);
    std::string id;
    std::getline(in, id);
    return id;
}

// Field 22 of /proc/PID/stat; the fields are counted after the command name, which
// may itself hold spaces and parentheses, so parsing starts at its last ')'.
std::string startTicks(std::int64_t pid)
{
    std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
    std::string stat;
    std::getline(in, stat);
    const auto close = stat.rfind(')');
    if (close == std::string::npos) return "";
    std::istringstream fields(stat.substr(close + 1));
    std::string field;
    for (int index = 3; index <= 22 && fields >> field; ++index) {
        if (index == 22) return field;
    }
    return "";
}

std::string token(std::int64_t pid, const std::filesystem::path& bootIdFile)
{
    const std::string boot = bootId(bootIdFile);
    const std::string ticks = startTicks(pid);
    return boot.empty() || ticks.empty() ? "" : boot + ":" + ticks;
}

}  // namespace

std::string hostName()
{
    char name[256] = {};
    if (gethostname(name, sizeof name - 1) != 0) return "localhost";
    return name;
}

ProcessOwner currentProcess(const std::filesystem::path& bootIdFile)
{
    const std::int64_t pid = getpid();
    return {hostName(), pid, token(pid, bootIdFile)};
}

bool mayBeRunning(const ProcessOwner& owner, const std::filesystem::path& bootIdFile)
{
    // No owner recorded (a row left running under schema v1, before owners were kept):
    // no process of this or any later build can finish it.
    if (owner.pid <= 0) return false;
    if (owner.host != hostName()) return true;  // cannot tell: never take another host's run
    if (kill(static_cast<pid_t>(owner.pid), 0) != 0 && errno == ESRCH) return false;
    // Alive (or not ours to signal). Without a token the pid may have been reused, but
    // taking a live run from its process is worse than leaving a dead one `running`.
    if (owner.token.empty()) return true;
    // A pid reused by another process has another start time. An unreadable /proc entry
    // (hidepid, another user, no boot id) proves nothing: keep the run.
    const std::string now = token(owner.pid, bootIdFile);
    return now.empty() || now == owner.token;
}

}  // namespace clusterdesk::store
