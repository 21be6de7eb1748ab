// Test-hook variables (engine/core/test_hooks.h) set for one scope: the process and
// every child it starts meanwhile (clusterdesk-cli, mpirun and its ranks) see them.
#pragma once

#include <QByteArray>
#include <QTest>

namespace clusterdesk::testhooks {

// Skips the calling test, with the reason, when the build does not honour test hooks.
#ifdef CLUSTERDESK_TEST_HOOKS
#define CLUSTERDESK_REQUIRE_TEST_HOOKS() (void)0
#else
#define CLUSTERDESK_REQUIRE_TEST_HOOKS() \
    QSKIP("needs a build with -DCLUSTERDESK_TEST_HOOKS=ON (scripts/test.sh configures one)")
#endif

class ScopedTestHook {
public:
    ScopedTestHook(const char* name, const QByteArray& value) : m_name(name) { qputenv(name, value); }
    ~ScopedTestHook() { qunsetenv(m_name); }
    ScopedTestHook(const ScopedTestHook&) = delete;
    ScopedTestHook& operator=(const ScopedTestHook&) = delete;

private:
    const char* m_name;
};

// A run started while this lives never converges and ignores its iteration limit: it
// goes on until it is cancelled or killed, however fast the machine.
class EndlessRuns : public ScopedTestHook {
public:
    EndlessRuns() : ScopedTestHook("CLUSTERDESK_TEST_ENDLESS_RUN", "1") {}
};

}  // namespace clusterdesk::testhooks
