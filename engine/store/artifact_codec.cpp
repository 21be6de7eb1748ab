#include "artifact_codec.h"

#include "store_error.h"

#include "engine/core/sha256.h"

#include <zlib.h>

#include <cstdint>

namespace clusterdesk::store {

namespace {

// zlib inflates at most about 1032 bytes from one; a shape that asks more of the stored
// bytes was not written with them.
constexpr std::uint64_t kMostInflation = 1100;

std::size_t expectedBytes(const StoredArtifact& artifact, const std::string& what)
{
    const std::uint64_t valueBytes = artifact.encoding == "utf8" ? 1 : 4;
    const std::uint64_t most = artifact.compression.empty() ? artifact.data.size() : (artifact.data.size() + 64) * kMostInflation;
    const bool sane = artifact.rows >= 0 && artifact.cols >= 0 &&
                      (artifact.cols == 0 || static_cast<std::uint64_t>(artifact.rows) <= most / valueBytes / static_cast<std::uint64_t>(artifact.cols));
    if (!sane)
        throw StoreError(what + ": a shape of " + std::to_string(artifact.rows) + " x " + std::to_string(artifact.cols) + " cannot come from " +
                         std::to_string(artifact.data.size()) + " stored bytes (the file was changed outside ClusterDesk)");
    return static_cast<std::size_t>(static_cast<std::uint64_t>(artifact.rows) * static_cast<std::uint64_t>(artifact.cols) * valueBytes);
}

}  // namespace

std::vector<unsigned char> artifactBytes(const StoredArtifact& artifact, const std::string& what)
{
    std::vector<unsigned char> bytes = decompressArtifact(artifact.data, artifact.compression, expectedBytes(artifact, what), what);
    if (sha256Hex(bytes.data(), bytes.size()) != artifact.sha256) throw StoreError(what + " bytes do not match their SHA-256");
    return bytes;
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
