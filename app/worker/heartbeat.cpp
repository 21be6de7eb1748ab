#include "heartbeat.h"

#include "engine/exec/pool_job.h"

#include <chrono>

namespace clusterdesk::worker {

Heartbeat::Heartbeat(const ProgressCommunicator& progress, std::function<void(const std::string&)> emit)
    : m_progress(progress), m_emit(std::move(emit))
{
    m_thread = std::thread([this] {
        std::unique_lock lock(m_mutex);
        do {
            m_emit(heartbeatLine(m_progress.rank(), m_progress.completed(), m_progress.waiting()));
        } while (!m_cv.wait_for(lock, std::chrono::seconds(1), [this] { return m_stop; }));
    });
}

Heartbeat::~Heartbeat()
{
    {
        std::lock_guard lock(m_mutex);
        m_stop = true;
    }
    m_cv.notify_all();
    m_thread.join();
    // Whatever ended the run here, this rank goes quiet now without having hung.
    m_emit(heartbeatLine(m_progress.rank(), m_progress.completed(), false, true));
}

}  // namespace clusterdesk::worker
