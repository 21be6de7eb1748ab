#include "sha256.h"

#include "sha256_context.h"

namespace clusterdesk {

Sha256::Sha256() : m_context(std::make_unique<Context>()) {}

Sha256::~Sha256() = default;

Sha256& Sha256::update(const void* data, std::size_t size)
{
    if (size > 0) m_context->update(static_cast<const unsigned char*>(data), size);
    return *this;
}

std::string Sha256::hex()
{
    const std::array<unsigned char, 32> digest = m_context->finish();
    static constexpr char hexDigits[] = "0123456789abcdef";
    std::string out(2 * digest.size(), '0');
    for (std::size_t i = 0; i < digest.size(); ++i) {
        out[2 * i] = hexDigits[digest[i] >> 4];
        out[2 * i + 1] = hexDigits[digest[i] & 0xF];
    }
    return out;
}

std::string sha256Hex(const void* data, std::size_t size)
{
    return Sha256().update(data, size).hex();
}

}  // namespace clusterdesk
