#include "sha256.h"

#include "engine/core/error.h"

#include <openssl/evp.h>

#include <memory>

namespace clusterdesk::store {

std::string sha256Hex(const void* data, std::size_t size)
{
    std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> ctx(EVP_MD_CTX_new(), &EVP_MD_CTX_free);
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    if (!ctx || EVP_DigestInit_ex(ctx.get(), EVP_sha256(), nullptr) != 1 ||
        (size > 0 && EVP_DigestUpdate(ctx.get(), data, size) != 1) || EVP_DigestFinal_ex(ctx.get(), digest, &length) != 1)
        throw Error("SHA-256 failed (OpenSSL EVP)");
    static constexpr char hex[] = "0123456789abcdef";
    std::string out(2 * length, '0');
    for (unsigned int i = 0; i < length; ++i) {
        out[2 * i] = hex[digest[i] >> 4];
        out[2 * i + 1] = hex[digest[i] & 0xF];
    }
    return out;
}

}  // namespace clusterdesk::store
