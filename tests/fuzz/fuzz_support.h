// What every fuzz target shares: the input as a file (the loaders and the hostfile
// parser read paths), and the one rule for exceptions. A clear error for bad input
// (clusterdesk::Error: DataError, UsageError, ...; nlohmann's parse errors inside the
// codecs' own messages) is the expected answer; any other exception escapes, and
// libFuzzer reports it as a crash, as it does a sanitizer finding.
#pragma once

#include "engine/core/error.h"

#include <nlohmann/json.hpp>

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace clusterdesk::fuzz {

// A file holding the input, rewritten for every input and removed at exit; its name
// ends in `suffix`.
inline std::string inputFile(const std::uint8_t* data, std::size_t size, const char* suffix)
{
    static const std::string path = [suffix] {
        const char* dir = std::getenv("TMPDIR");
        return std::string(dir && *dir ? dir : "/tmp") + "/clusterdesk-fuzz-" + std::to_string(::getpid()) + suffix;
    }();
    static const bool removedAtExit = [] { return std::atexit([] { std::remove(path.c_str()); }) == 0; }();
    (void)removedAtExit;
    std::FILE* file = std::fopen(path.c_str(), "wb");
    if (!file) std::abort();
    if (size > 0 && std::fwrite(data, 1, size, file) != size) std::abort();
    std::fclose(file);
    return path;
}

template <typename F>
void expectCleanErrors(F&& body)
{
    try {
        body();
    } catch (const clusterdesk::Error&) {
    } catch (const nlohmann::json::exception&) {
    }
}

}  // namespace clusterdesk::fuzz
