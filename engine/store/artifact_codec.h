// How labels and centroids are kept in the artifacts table: zlib-compressed (labels of
// a few dozen clusters shrink about tenfold), or raw as schema version 1 wrote them.
// Their SHA-256 is always over the uncompressed little-endian bytes, so it names the
// content, whatever the storage.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace clusterdesk::store {

inline constexpr const char* kZlib = "zlib";

std::vector<unsigned char> compressArtifact(const void* data, std::size_t size);

// compression: kZlib, or empty for raw bytes. Throws StoreError naming `what` when the
// stored bytes are not `size` bytes once inflated.
std::vector<unsigned char> decompressArtifact(const std::vector<unsigned char>& stored, const std::string& compression,
                                              std::size_t size, const std::string& what);

}  // namespace clusterdesk::store
