// SHA-256 as lowercase hex, for artifacts and the run hash chain (OpenSSL EVP).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace clusterdesk::store {

std::string sha256Hex(const void* data, std::size_t size);
inline std::string sha256Hex(std::string_view text) { return sha256Hex(text.data(), text.size()); }

}  // namespace clusterdesk::store
