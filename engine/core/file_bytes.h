// Reading input files whole or in part; failures are DataErrors naming the file.
//
// Every input the user names (data, initial centroids, hostfiles, keys, tokens,
// catalogs) is opened through
// openRegularFile: a FIFO blocks forever in open() until a writer appears, and a
// device such as /dev/zero never ends, so neither may reach a reader.
#pragma once

#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>

namespace clusterdesk {

struct FileCloser {
    void operator()(std::FILE* f) const { std::fclose(f); }
};
using File = std::unique_ptr<std::FILE, FileCloser>;

// Opens path for reading if it is a regular file. Throws DataError (line 0) for a
// missing file, and "is not a regular file (a FIFO)" (directory, device, socket, ...)
// before any open that could block.
File openRegularFile(const std::string& path);

// The whole file as bytes. Throws DataError (line 0) when it cannot be opened or read.
std::string readFileBytes(const std::string& path);

// At most maxBytes from the start of the file.
std::string readFilePrefix(const std::string& path, std::size_t maxBytes);

// The first line (without its line break) of a small file such as a key or a token,
// read through openRegularFile: a FIFO named there is refused, never waited on.
std::string readFirstLine(const std::string& path);

// Size in bytes of a regular file; throws DataError as openRegularFile does.
std::uint64_t fileSize(const std::string& path);

}  // namespace clusterdesk
