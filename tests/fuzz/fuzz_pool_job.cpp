// What crosses the process boundary of a pool run: the job file a rank reads, and the
// JSON lines the launcher reads from rank 0 and every rank's heartbeats.
#include "fuzz_support.h"

#include "engine/exec/pool_job.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string text(reinterpret_cast<const char*>(data), size);
    clusterdesk::fuzz::expectCleanErrors([&] { clusterdesk::poolJobFromJson(text); });
    clusterdesk::fuzz::expectCleanErrors([&] { clusterdesk::parsePoolLine(text); });
    return 0;
}
