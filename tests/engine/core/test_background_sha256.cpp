// SHA-256 on a thread of its own: the digest of the bytes fed, in the order fed,
// however they were cut, the same as Sha256 over them at once.
#include "engine/core/background_sha256.h"

#include "doctest_support.h"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

using namespace clusterdesk;

TEST_CASE("the digest of nothing and of a known text")
{
    CHECK(BackgroundSha256().hex() == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    BackgroundSha256 abc;
    abc.feed("a", 1);
    abc.feed("bc", 2);
    CHECK(abc.hex() == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST_CASE("bytes cut anywhere, fed while they are hashed, give the digest of the whole")
{
    std::mt19937_64 random(7);
    std::vector<unsigned char> bytes(3'000'000);
    for (unsigned char& b : bytes) b = static_cast<unsigned char>(random());
    BackgroundSha256 pieces;
    for (std::size_t at = 0; at < bytes.size();) {
        const std::size_t size = std::min<std::size_t>(bytes.size() - at, random() % 100'000);
        pieces.feed(bytes.data() + at, size);  // zero-length pieces too
        at += size;
    }
    CHECK(pieces.hex() == sha256Hex(bytes.data(), bytes.size()));
}

TEST_CASE("dropped with bytes still to hash, it stops before their owner frees them")
{
    // A loader that throws drops its hasher first; the sanitizer build (scripts/sanitize.sh)
    // fails this test if the thread reads the bytes after they are freed.
    auto bytes = std::make_unique<std::vector<unsigned char>>(std::size_t(64) << 20, 1);
    {
        BackgroundSha256 dropped;
        for (int i = 0; i < 64; ++i) dropped.feed(bytes->data() + (std::size_t(i) << 20), std::size_t(1) << 20);
    }
    bytes.reset();
    BackgroundSha256 next;  // and the next one starts as usual
    next.feed("abc", 3);
    CHECK(next.hex() == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}
