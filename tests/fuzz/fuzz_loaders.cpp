// One target per data source, chosen at compile time (CLUSTERDESK_FUZZ_SOURCE): the
// file goes through the registry as the CLI's --source does (describeFile names the
// source, openSource reads it, with a 1 s bar where the source takes one), and also
// through detection, as every file the user names does.
#include "fuzz_support.h"

#include "engine/data/open_source.h"
#include "engine/data/source_registry.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace clusterdesk;
    const std::string path = fuzz::inputFile(data, size, CLUSTERDESK_FUZZ_SUFFIX);
    SourceOptions options;
    for (const auto& option : data::findSource(CLUSTERDESK_FUZZ_SOURCE).options())
        if (option.name == "bar") options["bar"] = "1";
    fuzz::expectCleanErrors([&] { openSource(describeFile(path, CLUSTERDESK_FUZZ_SOURCE, options)); });
    fuzz::expectCleanErrors([&] { describeFile(path); });
    return 0;
}
