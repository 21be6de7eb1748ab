#include "test_hooks.h"

#include <cstdlib>
#include <cstring>

namespace clusterdesk::test_hooks {

bool enabled()
{
#ifdef CLUSTERDESK_TEST_HOOKS
    return true;
#else
    return false;
#endif
}

const char* variable(const char* name)
{
    return enabled() ? std::getenv(name) : nullptr;
}

bool endlessRuns()
{
    const char* value = variable("CLUSTERDESK_TEST_ENDLESS_RUN");
    return value && std::strcmp(value, "1") == 0;
}

}  // namespace clusterdesk::test_hooks
