// Process control for the launchers that run other programs (today mpirun for pool
// runs): start a program from an argument list, never a shell string, in its own
// process group; read its stdout and stderr as lines; and take it down with
// everything it started, even descendants that lost their parent.
#pragma once

#include <sys/types.h>

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace clusterdesk {

// One process as /proc describes it. start (clock ticks since boot) tells a live
// process from a later one that reuses its pid.
struct ProcessInfo {
    pid_t ppid = 0;
    unsigned long long start = 0;
    bool zombie = false;  // ended, waiting for its parent to reap it: nothing of it runs
};

// Every process on this machine, by pid.
std::map<pid_t, ProcessInfo> processTable();

// "exited with status 3", "was killed by signal 9 (Killed)": a waitpid status in words.
std::string describeExitStatus(int status);

// The last few kilobytes of a stream, for error messages.
class OutputTail {
public:
    void appendLine(const std::string& line);
    // The last ~3000 bytes, trailing blank space removed.
    std::string text() const;
    // Everything kept (up to twice that).
    const std::string& all() const { return m_text; }

private:
    static constexpr std::size_t kLimit = 3000;
    std::string m_text;
};

class ChildProcess {
public:
    using LineHandler = std::function<void(const std::string& line)>;

    // Starts argv[0] (searched on PATH when searchPath) with stdin from /dev/null,
    // stdout and stderr piped to this process, default signal handling, and its own
    // process group (no terminal Ctrl-C reaches it; one group to kill). role names it
    // in errors: DeviceError "cannot start <role> '<argv0>': <reason>".
    ChildProcess(const std::vector<std::string>& argv, bool searchPath, const std::string& role);
    // Kills the group and the process when it was not reaped.
    ~ChildProcess();
    ChildProcess(const ChildProcess&) = delete;
    ChildProcess& operator=(const ChildProcess&) = delete;

    pid_t pid() const { return m_pid; }
    void signal(int sig) const;

    // Waits up to timeoutMs for output and hands each complete line read to onStdout or
    // onStderr (without its newline). Bytes kept from earlier reads hold no newline: only
    // new ones are searched, so a line of many megabytes costs linear time.
    void readLines(int timeoutMs, const LineHandler& onStdout, const LineHandler& onStderr);
    // Both streams reached end of file.
    bool outputClosed() const { return m_out < 0 && m_err < 0; }
    // Hands over what is left after the last newline of each stream (at the end).
    void flushPartialLines(const LineHandler& onStdout, const LineHandler& onStderr);

    // Reaps the child if it has ended; true once reaped.
    bool poll();
    void wait();
    // The waitpid status, once reaped.
    int status() const { return m_status; }

    // Remembers the processes now below the child (with their start times, so a reused
    // pid is never killed): ranks that lose mpirun are re-parented and can no longer be
    // found through it. Call now and then while it runs.
    void refreshDescendants();
    // SIGKILL to every remembered descendant still alive.
    void killDescendants();
    // SIGTERM to the child (mpirun takes its ranks down), then after a short wait
    // SIGKILL to its group and every descendant; returns once they are gone (or after
    // at most 15 s of trying, for a machine whose cores are all busy) with the child reaped.
    void terminate();

private:
    bool anyDescendantAlive() const;

    pid_t m_pid = -1;
    int m_out = -1;
    int m_err = -1;
    std::string m_pendingOut, m_pendingErr;  // read but not yet split into lines
    bool m_reaped = false;
    int m_status = 0;
    std::map<pid_t, unsigned long long> m_descendants;  // pid -> start time
};

}  // namespace clusterdesk
