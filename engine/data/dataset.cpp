#include "dataset.h"

#include "engine/core/error.h"

#include <openssl/evp.h>

#include <array>
#include <cstring>
#include <memory>

namespace clusterdesk {

std::string toString(Layout layout)
{
    switch (layout) {
        case Layout::Matrix: return "matrix";
        case Layout::Prices: return "prices";
        case Layout::Ticks: return "ticks";
    }
    return "unknown";
}

std::string Dataset::contentHash() const
{
    // Shape as two little-endian int64 then the raw float bytes: the same numbers hash
    // the same whichever file format they came from. (All supported hosts are
    // little-endian, so the in-memory float bytes are the little-endian encoding.)
    std::array<unsigned char, 16> shape{};
    for (int b = 0; b < 8; ++b) {
        shape[b] = static_cast<unsigned char>(static_cast<std::uint64_t>(rows) >> (8 * b));
        shape[8 + b] = static_cast<unsigned char>(static_cast<std::uint64_t>(cols) >> (8 * b));
    }
    std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> ctx(EVP_MD_CTX_new(), &EVP_MD_CTX_free);
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    if (!ctx || EVP_DigestInit_ex(ctx.get(), EVP_sha256(), nullptr) != 1 ||
        EVP_DigestUpdate(ctx.get(), shape.data(), shape.size()) != 1 ||
        (!values.empty() && EVP_DigestUpdate(ctx.get(), values.data(), values.size() * sizeof(float)) != 1) ||
        EVP_DigestFinal_ex(ctx.get(), digest, &length) != 1) {
        throw Error("SHA-256 of the dataset failed (OpenSSL EVP)");
    }
    static constexpr char hex[] = "0123456789abcdef";
    std::string out(2 * length, '0');
    for (unsigned int i = 0; i < length; ++i) {
        out[2 * i] = hex[digest[i] >> 4];
        out[2 * i + 1] = hex[digest[i] & 0xF];
    }
    return out;
}

}  // namespace clusterdesk
