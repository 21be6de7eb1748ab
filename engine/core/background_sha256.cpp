#include "background_sha256.h"

namespace clusterdesk {

BackgroundSha256::BackgroundSha256() : m_thread([this] { hashRanges(); }) {}

BackgroundSha256::~BackgroundSha256()
{
    {
        const std::lock_guard lock(m_mutex);
        m_closed = true;
        m_ranges.clear();
    }
    m_changed.notify_all();
    if (m_thread.joinable()) m_thread.join();
}

void BackgroundSha256::feed(const void* data, std::size_t size)
{
    if (size == 0) return;
    {
        const std::lock_guard lock(m_mutex);
        m_ranges.push_back({static_cast<const unsigned char*>(data), size});
    }
    m_changed.notify_all();
}

std::string BackgroundSha256::hex()
{
    {
        const std::lock_guard lock(m_mutex);
        m_closed = true;
    }
    m_changed.notify_all();
    m_thread.join();
    if (m_error) std::rethrow_exception(m_error);
    return m_sha.hex();
}

void BackgroundSha256::hashRanges()
{
    try {
        while (true) {
            Range range;
            {
                std::unique_lock lock(m_mutex);
                m_changed.wait(lock, [this] { return m_closed || !m_ranges.empty(); });
                if (m_ranges.empty()) return;  // closed, and nothing left
                range = m_ranges.front();
                m_ranges.pop_front();
            }
            m_sha.update(range.data, range.size);
        }
    } catch (...) {
        m_error = std::current_exception();
    }
}

}  // namespace clusterdesk
