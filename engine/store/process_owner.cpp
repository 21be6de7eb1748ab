#include "process_owner.h"

#include <signal.h>
#include <unistd.h>

#include <cerrno>

#include <fstream>
#include <sstream>

namespace clusterdesk::store {
namespace {

std::string bootId()
{
    std::ifstream in("/proc/sys/kernel/random/boot_id");
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

std::string token(std::int64_t pid)
{
    const std::string boot = bootId();
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

ProcessOwner currentProcess()
{
    const std::int64_t pid = getpid();
    return {hostName(), pid, token(pid)};
}

bool mayBeRunning(const ProcessOwner& owner)
{
    if (owner.token.empty()) return false;
    if (owner.host != hostName()) return true;  // cannot tell: never take another host's run
    if (owner.pid <= 0) return false;
    if (kill(static_cast<pid_t>(owner.pid), 0) != 0 && errno == ESRCH) return false;
    // Alive (or not ours to signal): a pid reused by another process has another start
    // time. An unreadable /proc entry (hidepid, another user) proves nothing: keep the run.
    const std::string now = token(owner.pid);
    return now.empty() || now == owner.token;
}

}  // namespace clusterdesk::store
