// Test-hook variables (engine/core/test_hooks.h) set for one scope: the process and
// every child it starts meanwhile (clusterdesk-cli, mpirun and its ranks) see them.
// Qt-free, for the doctest and the Qt Test suites alike: include it after the test
// framework's header, so the skip below takes that framework's form.
#pragma once

#include <cstdlib>

namespace clusterdesk::testhooks {

inline constexpr const char* kNeedsTestHooks =
    "needs a build with -DCLUSTERDESK_TEST_HOOKS=ON (scripts/test.sh configures one)";

// Skips the calling test, with the reason, when the build does not honour test hooks.
#if defined(CLUSTERDESK_TEST_HOOKS)
#define CLUSTERDESK_REQUIRE_TEST_HOOKS() (void)0
#elif defined(DOCTEST_VERSION)
#define CLUSTERDESK_REQUIRE_TEST_HOOKS() CLUSTERDESK_SKIP(clusterdesk::testhooks::kNeedsTestHooks)
#else
#define CLUSTERDESK_REQUIRE_TEST_HOOKS() QSKIP(clusterdesk::testhooks::kNeedsTestHooks)
#endif

class ScopedTestHook {
public:
    ScopedTestHook(const char* name, const char* value) : m_name(name) { ::setenv(name, value, 1); }
    ~ScopedTestHook() { ::unsetenv(m_name); }
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
