// Runs a program to completion and collects what it printed: what QProcess gave the
// Qt Test suites, for the Qt-free ones. No time limit of its own: CTest's TIMEOUT ends
// a suite whose child hangs.
#pragma once

#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>
#include <vector>

extern char** environ;

namespace clusterdesk::test {

struct ProcessResult {
    bool started = false;  // false: `error` says why it could not start
    bool normalExit = false;  // false: killed by a signal
    int exitCode = -1;
    std::string out;
    std::string err;
    std::string error;

    bool succeeded() const { return started && normalExit && exitCode == 0; }
};

// argv[0] is the program's path (not searched on PATH).
inline ProcessResult runProcess(const std::vector<std::string>& argv)
{
    ProcessResult result;
    int outPipe[2], errPipe[2];
    if (::pipe(outPipe) != 0 || ::pipe(errPipe) != 0) {
        result.error = std::string("pipe: ") + std::strerror(errno);
        return result;
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, outPipe[1], STDOUT_FILENO);
    posix_spawn_file_actions_adddup2(&actions, errPipe[1], STDERR_FILENO);
    for (int fd : {outPipe[0], outPipe[1], errPipe[0], errPipe[1]}) posix_spawn_file_actions_addclose(&actions, fd);
    std::vector<char*> args;
    for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    pid_t pid = 0;
    const int spawnError = ::posix_spawn(&pid, args[0], &actions, nullptr, args.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    ::close(outPipe[1]);
    ::close(errPipe[1]);
    if (spawnError != 0) {
        result.error = argv[0] + " cannot be started: " + std::strerror(spawnError);
        ::close(outPipe[0]);
        ::close(errPipe[0]);
        return result;
    }
    result.started = true;
    // Both pipes at once, so a child filling one while we wait on the other cannot stall.
    pollfd fds[2] = {{outPipe[0], POLLIN, 0}, {errPipe[0], POLLIN, 0}};
    std::string* sinks[2] = {&result.out, &result.err};
    int open = 2;
    while (open > 0) {
        if (::poll(fds, 2, -1) < 0 && errno != EINTR) break;
        for (int i = 0; i < 2; ++i) {
            if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
            char buffer[4096];
            const ssize_t got = ::read(fds[i].fd, buffer, sizeof buffer);
            if (got > 0) {
                sinks[i]->append(buffer, static_cast<std::size_t>(got));
            } else if (got == 0 || errno != EINTR) {
                ::close(fds[i].fd);
                fds[i].fd = -1;
                --open;
            }
        }
    }
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    result.normalExit = WIFEXITED(status);
    result.exitCode = result.normalExit ? WEXITSTATUS(status) : -1;
    return result;
}

}  // namespace clusterdesk::test
