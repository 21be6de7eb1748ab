#include "sha256_context.h"

#include "error.h"

#include <openssl/evp.h>

namespace clusterdesk {

struct Sha256::Context::State {
    std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> ctx{EVP_MD_CTX_new(), &EVP_MD_CTX_free};
};

Sha256::Context::Context() : state(std::make_unique<State>())
{
    if (!state->ctx || EVP_DigestInit_ex(state->ctx.get(), EVP_sha256(), nullptr) != 1)
        throw Error("SHA-256 failed to start (OpenSSL EVP)");
}

Sha256::Context::~Context() = default;

void Sha256::Context::update(const unsigned char* data, std::size_t size)
{
    if (EVP_DigestUpdate(state->ctx.get(), data, size) != 1) throw Error("SHA-256 failed (OpenSSL EVP)");
}

std::array<unsigned char, 32> Sha256::Context::finish()
{
    std::array<unsigned char, 32> digest{};
    unsigned int length = 0;
    if (EVP_DigestFinal_ex(state->ctx.get(), digest.data(), &length) != 1 || length != digest.size())
        throw Error("SHA-256 failed to finish (OpenSSL EVP)");
    return digest;
}

}  // namespace clusterdesk
