// An OpenMPI hostfile as pool:FILE names it.
#include "fuzz_support.h"

#include "engine/exec/topology.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string path = clusterdesk::fuzz::inputFile(data, size, ".hosts");
    clusterdesk::fuzz::expectCleanErrors([&] { clusterdesk::parseTopology("pool:" + path); });
    return 0;
}
