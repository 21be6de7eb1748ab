#include "sha256.h"

#include "error.h"

#include <openssl/evp.h>

namespace clusterdesk {

struct Sha256::Context {
    std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> ctx{EVP_MD_CTX_new(), &EVP_MD_CTX_free};
};

Sha256::Sha256() : m_context(std::make_unique<Context>())
{
    if (!m_context->ctx || EVP_DigestInit_ex(m_context->ctx.get(), EVP_sha256(), nullptr) != 1)
        throw Error("SHA-256 failed to start (OpenSSL EVP)");
}

Sha256::~Sha256() = default;

Sha256& Sha256::update(const void* data, std::size_t size)
{
    if (size > 0 && EVP_DigestUpdate(m_context->ctx.get(), data, size) != 1) throw Error("SHA-256 failed (OpenSSL EVP)");
    return *this;
}

std::string Sha256::hex()
{
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    if (EVP_DigestFinal_ex(m_context->ctx.get(), digest, &length) != 1) throw Error("SHA-256 failed to finish (OpenSSL EVP)");
    static constexpr char hexDigits[] = "0123456789abcdef";
    std::string out(2 * length, '0');
    for (unsigned int i = 0; i < length; ++i) {
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
