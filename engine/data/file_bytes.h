// Reading input files whole or in part; failures are DataErrors naming the file.
#pragma once

#include <cstdint>
#include <string>

namespace clusterdesk::data {

// The whole file as bytes. Throws DataError (line 0) when it cannot be opened or read.
std::string readFileBytes(const std::string& path);

// At most maxBytes from the start of the file.
std::string readFilePrefix(const std::string& path, std::size_t maxBytes);

// Size in bytes of a regular file; throws DataError for a missing file or a directory.
std::uint64_t fileSize(const std::string& path);

}  // namespace clusterdesk::data
