// One target per loader, chosen at compile time (CLUSTERDESK_FUZZ_LAYOUT): the file
// goes through loadDataset with its layout forced, as the CLI's --layout does, and
// also through layout sniffing.
#include "fuzz_support.h"

#include "engine/data/load.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace clusterdesk;
    const std::string path = fuzz::inputFile(data, size, CLUSTERDESK_FUZZ_SUFFIX);
    LoadOptions options;
    options.layout = Layout::CLUSTERDESK_FUZZ_LAYOUT;
    options.barSeconds = 1;
    fuzz::expectCleanErrors([&] { loadDataset(path, options); });
    fuzz::expectCleanErrors([&] { sniffLayout(path); });
    return 0;
}
