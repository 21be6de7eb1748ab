// Hooks that let the test suite drive situations a fast machine would otherwise race
// through: a run that never ends until cancelled, a pool rank that hangs. They are
// compiled in only when CMake's CLUSTERDESK_TEST_HOOKS is ON (scripts/test.sh turns it
// on; the default build and scripts/run.sh leave it off), so a stray variable in a
// user's environment changes nothing in a production build.
#pragma once

namespace clusterdesk::test_hooks {

// Whether this build honours the hooks below.
bool enabled();

// The value of the test-hook environment variable `name`, or null when
// it is unset or this build does not honour test hooks.
const char* variable(const char* name);

// CLUSTERDESK_TEST_ENDLESS_RUN=1: clustering never converges and ignores the iteration
// limit, so a test can cancel or kill a run at any point, on any machine.
bool endlessRuns();

}  // namespace clusterdesk::test_hooks
