// SHA-256 of bytes handed over in order, computed on a thread of its own while the
// caller goes on: a loader hashes what it has read while it reads the rest.
#pragma once

#include "sha256.h"

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <exception>
#include <mutex>
#include <string>
#include <thread>

namespace clusterdesk {

class BackgroundSha256 {
public:
    BackgroundSha256();
    ~BackgroundSha256();  // stops the thread; what it had left is dropped
    BackgroundSha256(const BackgroundSha256&) = delete;
    BackgroundSha256& operator=(const BackgroundSha256&) = delete;

    // Hashes [data, data + size) after everything fed before. The bytes are read later,
    // on the thread: they must stay where they are, unchanged, until hex() returns.
    void feed(const void* data, std::size_t size);
    // Waits for every byte fed, finishes the digest and rethrows what the thread threw.
    std::string hex();

private:
    struct Range {
        const unsigned char* data;
        std::size_t size;
    };

    void hashRanges();

    Sha256 m_sha;
    std::mutex m_mutex;
    std::condition_variable m_changed;
    std::deque<Range> m_ranges;  // fed, not hashed yet
    bool m_closed = false;       // hex() or the destructor: no more ranges
    std::exception_ptr m_error;
    std::thread m_thread;        // last: started once the members above exist
};

}  // namespace clusterdesk
