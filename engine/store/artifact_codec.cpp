#include "artifact_codec.h"

#include "store_error.h"

#include <zlib.h>

namespace clusterdesk::store {

std::size_t artifactBytes(const std::string& encoding, std::int64_t rows, std::int64_t cols)
{
    return static_cast<std::size_t>(rows * cols) * (encoding == "utf8" ? 1 : 4);
}

std::vector<unsigned char> compressArtifact(const void* data, std::size_t size)
{
    uLongf length = compressBound(static_cast<uLong>(size));
    std::vector<unsigned char> out(length);
    // Fastest level: labels are long runs of a few values; the gain beyond level 1 is small.
    if (compress2(out.data(), &length, static_cast<const Bytef*>(data), static_cast<uLong>(size), Z_BEST_SPEED) != Z_OK)
        throw StoreError("cannot compress an artifact of " + std::to_string(size) + " bytes (zlib)");
    out.resize(length);
    return out;
}

std::vector<unsigned char> decompressArtifact(const std::vector<unsigned char>& stored, const std::string& compression,
                                              std::size_t size, const std::string& what)
{
    if (compression.empty()) {
        if (stored.size() != size)
            throw StoreError(what + ": " + std::to_string(stored.size()) + " bytes stored, " + std::to_string(size) + " expected");
        return stored;
    }
    if (compression != kZlib) throw StoreError(what + ": unknown compression '" + compression + "'");
    std::vector<unsigned char> out(size);
    uLongf length = static_cast<uLongf>(size);
    if (uncompress(out.data(), &length, stored.data(), static_cast<uLong>(stored.size())) != Z_OK || length != size)
        throw StoreError(what + ": corrupt, the zlib data does not inflate to " + std::to_string(size) + " bytes");
    return out;
}

}  // namespace clusterdesk::store
