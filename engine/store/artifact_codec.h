// How labels, centroids and a live update's input are kept in the artifacts table:
// zlib-compressed (labels of a few dozen clusters shrink about tenfold), or raw as
// schema version 1 wrote them.
// Their SHA-256 is always over the uncompressed little-endian bytes, so it names the
// content, whatever the storage.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace clusterdesk::store {

inline constexpr const char* kZlib = "zlib";

std::vector<unsigned char> compressArtifact(const void* data, std::size_t size);

// compression: kZlib, or empty for raw bytes. Throws StoreError naming `what` when the
// stored bytes are not `size` bytes once inflated.
std::vector<unsigned char> decompressArtifact(const std::vector<unsigned char>& stored, const std::string& compression,
                                              std::size_t size, const std::string& what);

// An artifact row as stored: its bytes, how they are compressed and encoded (int32le,
// float32le: 4 bytes a value; utf8: rows = its length, cols = 1), its shape and SHA-256.
struct StoredArtifact {
    std::vector<unsigned char> data;
    std::string compression, encoding;
    std::int64_t rows = 0, cols = 0;
    std::string sha256;
};

// The artifact's bytes, inflated and checked: a shape the stored bytes cannot hold (a
// negative or vast size, edited into the file) and bytes that do not match their SHA-256
// throw StoreError naming `what`, before anything is allocated for them or read from them.
std::vector<unsigned char> artifactBytes(const StoredArtifact& artifact, const std::string& what);

}  // namespace clusterdesk::store
