// The digest behind Sha256, one of two implementations chosen by CMake: OpenSSL's EVP
// (hardware-accelerated) where OpenSSL is found, a plain FIPS 180-4 loop where it is
// not (the GPU machine). Both give the same digests; tests/engine/data/test_dataset
// checks them against hashlib's.
#pragma once

#include "sha256.h"

#include <array>
#include <cstddef>

namespace clusterdesk {

struct Sha256::Context {
    Context();  // throws Error when the digest cannot start
    ~Context();
    void update(const unsigned char* data, std::size_t size);
    std::array<unsigned char, 32> finish();

    struct State;
    std::unique_ptr<State> state;
};

}  // namespace clusterdesk
