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

// The uncompressed size of a rows x cols artifact: 4-byte values (int32le, float32le),
// or single bytes (utf8, rows = its length, cols = 1).
std::size_t artifactBytes(const std::string& encoding, std::int64_t rows, std::int64_t cols);

std::vector<unsigned char> compressArtifact(const void* data, std::size_t size);

// compression: kZlib, or empty for raw bytes. Throws StoreError naming `what` when the
// stored bytes are not `size` bytes once inflated.
std::vector<unsigned char> decompressArtifact(const std::vector<unsigned char>& stored, const std::string& compression,
                                              std::size_t size, const std::string& what);

}  // namespace clusterdesk::store
