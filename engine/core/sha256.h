// SHA-256 as lowercase hex: dataset content hashes, stored artifacts and
// the run store's hash chain all name their bytes this way.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

namespace clusterdesk {

// Incremental, for content that is not one buffer (a dataset's shape, then its values).
class Sha256 {
public:
    Sha256();  // throws Error when the digest cannot start
    ~Sha256();
    Sha256(const Sha256&) = delete;
    Sha256& operator=(const Sha256&) = delete;

    Sha256& update(const void* data, std::size_t size);
    std::string hex();  // finishes the digest; call once

private:
    struct Context;
    std::unique_ptr<Context> m_context;
};

std::string sha256Hex(const void* data, std::size_t size);
inline std::string sha256Hex(std::string_view text) { return sha256Hex(text.data(), text.size()); }

}  // namespace clusterdesk
