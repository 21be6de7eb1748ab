// What the run store reads back from its file: parameters and data sources as JSON
// (this release's and the older load options), compressed artifacts (labels,
// centroids) and a live update's recorded input. A store edited by hand or damaged on
// disk must give errors, never crash the program that opens it.
#include "fuzz_support.h"

#include "engine/store/artifact_codec.h"
#include "engine/store/run_codec.h"
#include "engine/stream/live_input.h"

#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace clusterdesk;
    const std::string text(reinterpret_cast<const char*>(data), size);
    fuzz::expectCleanErrors([&] { store::paramsFromJson(text); });
    fuzz::expectCleanErrors([&] { store::sourceSpecFromColumns({"/data/x.csv", "file", text}); });
    fuzz::expectCleanErrors([&] { store::sourceSpecFromColumns({"market", "demo", text}); });
    fuzz::expectCleanErrors([&] { stream::liveInputFromJson(text, "fuzzed live input"); });
    const std::vector<unsigned char> bytes(data, data + size);
    // The expected size comes from the input too: short, exact and long inflations.
    const std::size_t expected = size > 0 ? std::size_t(data[0]) * 61 : 0;
    fuzz::expectCleanErrors([&] { store::decompressArtifact(bytes, store::kZlib, expected, "fuzzed artifact"); });
    return 0;
}
