// Process control without the pool protocol: arguments reach the program as given (no
// shell), output comes back as lines on the right stream, exit statuses read as words,
// a failed start names the program, terminate() takes down what the child started;
// and the heartbeat watchdog names the rank that hung.
#include "doctest_support.h"

#include "engine/core/error.h"
#include "engine/exec/child_process.h"
#include "engine/exec/heartbeat_watchdog.h"

#include <chrono>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

using namespace clusterdesk;

namespace {

struct Collected {
    std::vector<std::string> out, err;
};

// Reads every line until the child's output closes and it has ended.
Collected runToEnd(ChildProcess& child)
{
    Collected c;
    const auto onOut = [&](const std::string& line) { c.out.push_back(line); };
    const auto onErr = [&](const std::string& line) { c.err.push_back(line); };
    const auto start = std::chrono::steady_clock::now();
    while (!(child.outputClosed() && child.poll())) {
        child.readLines(100, onOut, onErr);
        REQUIRE(std::chrono::steady_clock::now() - start < std::chrono::seconds(20));
    }
    child.flushPartialLines(onOut, onErr);
    return c;
}

// Running (or sleeping), not a zombie waiting for a parent that never reaps.
bool runs(pid_t pid)
{
    std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
    std::string text;
    if (!std::getline(in, text)) return false;
    const auto close = text.rfind(')');
    return close != std::string::npos && text.size() > close + 2 && text[close + 2] != 'Z';
}

void sleepMs(int ms)
{
    std::this_thread::sleep_for(std::chrono::milliseconds(ms));
}

}  // namespace

TEST_CASE("arguments are passed as given, never through a shell")
{
    ChildProcess child({"printf", "%s\\n|%s", "a b; echo injected", "no newline at the end"}, true, "printf");
    const Collected c = runToEnd(child);
    CHECK(c.out == std::vector<std::string>{"a b; echo injected", "|no newline at the end"});
    CHECK(c.err.empty());
    CHECK(describeExitStatus(child.status()) == "exited with status 0");
}

TEST_CASE("stdout and stderr come back as separate lines, and the exit status in words")
{
    ChildProcess child({"/bin/sh", "-c", "echo out1; echo err1 >&2; echo out2; exit 3"}, false, "the test shell");
    const Collected c = runToEnd(child);
    CHECK(c.out == std::vector<std::string>{"out1", "out2"});
    CHECK(c.err == std::vector<std::string>{"err1"});
    CHECK(describeExitStatus(child.status()) == "exited with status 3");
}

TEST_CASE("a program that cannot start is named in a DeviceError")
{
    std::string message;
    try {
        ChildProcess child({"/nonexistent/clusterdesk-no-such-program"}, false, "the test program");
    } catch (const DeviceError& e) {
        message = e.what();
    }
    CHECK(message.find("cannot start the test program '/nonexistent/clusterdesk-no-such-program'") != std::string::npos);
}

TEST_CASE("terminate takes down the child and what it started")
{
    ChildProcess child({"/bin/sh", "-c", "sleep 300 & sleep 300 & wait"}, false, "the test shell");
    std::vector<pid_t> started;
    for (int attempt = 0; attempt < 200 && started.size() < 2; ++attempt) {
        sleepMs(10);
        started.clear();
        for (const auto& [pid, info] : processTable())
            if (info.ppid == child.pid()) started.push_back(pid);
    }
    REQUIRE(started.size() == 2);
    child.refreshDescendants();
    child.terminate();
    CHECK(child.poll());
    CHECK(WIFSIGNALED(child.status()));
    for (const pid_t pid : started) CHECK_FALSE(runs(pid));
}

TEST_CASE("the watchdog names ranks that never report, go silent or stop progressing")
{
    SUBCASE("never reported")
    {
        HeartbeatWatchdog watchdog(2, {0.05, 10, 600});
        watchdog.beat({0, 0, false, false});
        CHECK(watchdog.verdict().empty());
        sleepMs(100);
        CHECK(watchdog.verdict() == "pool rank 1 never reported within 0 s of the launch");
    }
    SUBCASE("silent")
    {
        HeartbeatWatchdog watchdog(3, {10, 0.05, 600});
        for (int rank = 0; rank < 3; ++rank) watchdog.beat({rank, 1, false, false});
        sleepMs(100);
        watchdog.beat({1, 2, false, false});
        CHECK(watchdog.verdict() == "pool ranks 0, 2 hung: no heartbeat for over 0 s (the process froze or its node is unreachable)");
    }
    SUBCASE("stalled outside a collective while the others wait")
    {
        HeartbeatWatchdog watchdog(2, {10, 10, 0.05});
        watchdog.beat({0, 5, true, false});
        watchdog.beat({1, 4, false, false});
        sleepMs(100);
        watchdog.beat({0, 5, true, false});
        watchdog.beat({1, 4, false, false});
        CHECK(watchdog.verdict() == "pool rank 1 hung: no progress for 0 s outside any collective while rank 0 waited for it");
    }
    SUBCASE("finished ranks and beats from unknown ranks are ignored")
    {
        HeartbeatWatchdog watchdog(2, {0.05, 0.05, 600});
        watchdog.beat({0, 1, false, true});
        watchdog.beat({7, 1, false, false});
        sleepMs(100);
        watchdog.beat({1, 1, false, false});
        CHECK(watchdog.verdict().empty());
    }
}
