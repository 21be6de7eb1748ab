#include "child_process.h"

#include "../core/error.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>
#include <utility>

extern char** environ;

namespace clusterdesk {
namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point t)
{
    return std::chrono::duration<double>(Clock::now() - t).count();
}

}  // namespace

std::map<pid_t, ProcessInfo> processTable()
{
    std::map<pid_t, ProcessInfo> table;
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator("/proc", ec)) {
        const std::string name = entry.path().filename().string();
        if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos) continue;
        std::ifstream in(entry.path() / "stat");
        std::string text;
        if (!std::getline(in, text)) continue;
        const auto close = text.rfind(')');
        if (close == std::string::npos) continue;
        std::istringstream fields(text.substr(close + 2));
        std::string state;
        long long ppid = 0;
        fields >> state >> ppid;
        std::string skip;
        for (int i = 0; i < 17; ++i) fields >> skip;  // fields 5..21
        unsigned long long start = 0;
        fields >> start;                              // field 22: starttime
        table[static_cast<pid_t>(std::stoll(name))] = {static_cast<pid_t>(ppid), start, state == "Z"};
    }
    return table;
}

std::string describeExitStatus(int status)
{
    if (WIFEXITED(status)) return "exited with status " + std::to_string(WEXITSTATUS(status));
    if (WIFSIGNALED(status)) return std::string("was killed by signal ") + std::to_string(WTERMSIG(status)) + " (" + strsignal(WTERMSIG(status)) + ")";
    return "ended (status " + std::to_string(status) + ")";
}

void OutputTail::appendLine(const std::string& line)
{
    m_text += line;
    m_text += '\n';
    if (m_text.size() > 2 * kLimit) m_text.erase(0, m_text.size() - kLimit);
}

std::string OutputTail::text() const
{
    std::string t = m_text.size() > kLimit ? m_text.substr(m_text.size() - kLimit) : m_text;
    while (!t.empty() && (t.back() == '\n' || t.back() == ' ')) t.pop_back();
    return t;
}

ChildProcess::ChildProcess(const std::vector<std::string>& argv, bool searchPath, const std::string& role)
{
    int out[2], err[2];
    if (pipe2(out, O_CLOEXEC) != 0) throw DeviceError(role + ": pipe: " + std::strerror(errno));
    if (pipe2(err, O_CLOEXEC) != 0) {
        ::close(out[0]);
        ::close(out[1]);
        throw DeviceError(role + ": pipe: " + std::strerror(errno));
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&actions, out[1], 1);
    posix_spawn_file_actions_adddup2(&actions, err[1], 2);
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    sigset_t none, defaults;
    sigemptyset(&none);
    sigemptyset(&defaults);
    for (int sig : {SIGINT, SIGTERM, SIGPIPE, SIGHUP, SIGCHLD, SIGUSR1, SIGUSR2}) sigaddset(&defaults, sig);
    posix_spawnattr_setsigmask(&attr, &none);
    posix_spawnattr_setsigdefault(&attr, &defaults);
    posix_spawnattr_setpgroup(&attr, 0);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
    std::vector<char*> cargv;
    for (const std::string& a : argv) cargv.push_back(const_cast<char*>(a.c_str()));
    cargv.push_back(nullptr);
    const int rc = searchPath ? posix_spawnp(&m_pid, cargv[0], &actions, &attr, cargv.data(), environ)
                              : posix_spawn(&m_pid, cargv[0], &actions, &attr, cargv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attr);
    ::close(out[1]);
    ::close(err[1]);
    if (rc != 0) {
        ::close(out[0]);
        ::close(err[0]);
        throw DeviceError("cannot start " + role + " '" + argv[0] + "': " + std::strerror(rc));
    }
    m_out = out[0];
    m_err = err[0];
}

ChildProcess::~ChildProcess()
{
    if (m_out >= 0) ::close(m_out);
    if (m_err >= 0) ::close(m_err);
    if (!m_reaped) {
        ::kill(-m_pid, SIGKILL);
        ::kill(m_pid, SIGKILL);
        waitpid(m_pid, nullptr, 0);
    }
}

void ChildProcess::signal(int sig) const
{
    ::kill(m_pid, sig);
}

void ChildProcess::readLines(int timeoutMs, const LineHandler& onStdout, const LineHandler& onStderr)
{
    pollfd fds[2];
    int n = 0;
    if (m_out >= 0) fds[n++] = {m_out, POLLIN, 0};
    if (m_err >= 0) fds[n++] = {m_err, POLLIN, 0};
    if (n == 0) {
        std::this_thread::sleep_for(std::chrono::milliseconds(std::min(timeoutMs, 20)));
        return;
    }
    ::poll(fds, static_cast<nfds_t>(n), timeoutMs);
    char buffer[65536];
    for (int i = 0; i < n; ++i) {
        if (!(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
        const ssize_t got = ::read(fds[i].fd, buffer, sizeof buffer);
        if (got < 0 && errno == EINTR) continue;
        const bool isOut = fds[i].fd == m_out;
        if (got <= 0) {
            ::close(fds[i].fd);
            (isOut ? m_out : m_err) = -1;
            continue;
        }
        std::string& lines = isOut ? m_pendingOut : m_pendingErr;
        std::size_t searchFrom = lines.size();
        lines.append(buffer, static_cast<std::size_t>(got));
        std::size_t startLine = 0;
        for (std::size_t nl; (nl = lines.find('\n', searchFrom)) != std::string::npos; startLine = searchFrom = nl + 1) {
            const std::string line = lines.substr(startLine, nl - startLine);
            (isOut ? onStdout : onStderr)(line);
        }
        lines.erase(0, startLine);
    }
}

void ChildProcess::flushPartialLines(const LineHandler& onStdout, const LineHandler& onStderr)
{
    if (!m_pendingOut.empty()) onStdout(std::exchange(m_pendingOut, {}));
    if (!m_pendingErr.empty()) onStderr(std::exchange(m_pendingErr, {}));
}

bool ChildProcess::poll()
{
    if (m_reaped) return true;
    int status = 0;
    if (waitpid(m_pid, &status, WNOHANG) == m_pid) {
        m_reaped = true;
        m_status = status;
    }
    return m_reaped;
}

void ChildProcess::wait()
{
    if (m_reaped) return;
    int status = 0;
    while (waitpid(m_pid, &status, 0) < 0 && errno == EINTR) {}
    m_reaped = true;
    m_status = status;
}

void ChildProcess::refreshDescendants()
{
    const auto table = processTable();
    std::vector<pid_t> frontier{m_pid};
    while (!frontier.empty()) {
        const pid_t parent = frontier.back();
        frontier.pop_back();
        for (const auto& [pid, info] : table) {
            if (info.ppid != parent || pid == m_pid) continue;
            m_descendants.emplace(pid, info.start);
            frontier.push_back(pid);
        }
    }
}

void ChildProcess::killDescendants()
{
    refreshDescendants();
    const auto table = processTable();
    for (const auto& [pid, start] : m_descendants) {
        const auto it = table.find(pid);
        if (it != table.end() && it->second.start == start) ::kill(pid, SIGKILL);
    }
}

bool ChildProcess::anyDescendantAlive() const
{
    const auto table = processTable();
    for (const auto& [pid, start] : m_descendants) {
        const auto it = table.find(pid);
        if (it != table.end() && it->second.start == start && !it->second.zombie) return true;
    }
    return false;
}

void ChildProcess::terminate()
{
    refreshDescendants();
    if (!poll()) {
        ::kill(m_pid, SIGTERM);
        const auto start = Clock::now();
        while (!poll() && secondsSince(start) < 2) std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    if (!poll()) ::kill(-m_pid, SIGKILL);
    killDescendants();
    wait();
    // SIGKILL is not instant: a process must be scheduled to die, which takes seconds
    // on a machine whose cores are all busy. Nothing of the run may outlive this call.
    const auto start = Clock::now();
    while (anyDescendantAlive() && secondsSince(start) < 15) {
        killDescendants();
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
}

}  // namespace clusterdesk
