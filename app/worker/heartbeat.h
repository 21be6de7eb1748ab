// Liveness of a pool rank for the launcher's watchdog (engine/exec/pool_launcher.h).
// ProgressCommunicator wraps the rank's communicator and counts the collectives it has
// completed; Heartbeat prints heartbeatLine(rank, progress, waiting) about once a
// second from a thread of its own. A rank whose process froze goes silent; a rank stuck
// in its own work keeps beating, but its progress stops outside any collective while
// the other ranks wait inside one for it.
#pragma once

#include "engine/cluster/communicator.h"

#include <atomic>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

namespace clusterdesk::worker {

class ProgressCommunicator final : public Communicator {
public:
    explicit ProgressCommunicator(Communicator& inner) : m_inner(&inner) {}

    // From here on the collectives go to `inner` (the same ranks, e.g. NCCL joined over
    // the MPI communicator), still counted. Called by every rank at the same point.
    void route(Communicator& inner) { m_inner = &inner; }

    int rank() const override { return m_inner->rank(); }
    int size() const override { return m_inner->size(); }
    void allreduceSum(std::span<std::int64_t> values) override { counted([&] { m_inner->allreduceSum(values); }); }
    void allreduceSum(std::span<double> values) override { counted([&] { m_inner->allreduceSum(values); }); }
    void allreduceMax(std::span<double> values) override { counted([&] { m_inner->allreduceMax(values); }); }
    std::vector<std::byte> allgather(std::span<const std::byte> mine) override
    {
        std::vector<std::byte> out;
        counted([&] { out = m_inner->allgather(mine); });
        return out;
    }

    std::uint64_t completed() const { return m_completed.load(); }
    bool waiting() const { return m_waiting.load(); }
    // Called on the rank's own thread after each completed collective (the worker's test hook).
    std::function<void(std::uint64_t completed)> afterCollective;

private:
    template <class Call>
    void counted(Call call)
    {
        m_waiting = true;
        call();
        m_waiting = false;
        const std::uint64_t done = ++m_completed;
        if (afterCollective) afterCollective(done);
    }

    Communicator* m_inner;
    std::atomic<std::uint64_t> m_completed{0};
    std::atomic<bool> m_waiting{false};
};

class Heartbeat {
public:
    // emit must be safe to call from another thread.
    Heartbeat(const ProgressCommunicator& progress, std::function<void(const std::string&)> emit);
    ~Heartbeat();  // stops the thread and says the rank has finished
    Heartbeat(const Heartbeat&) = delete;
    Heartbeat& operator=(const Heartbeat&) = delete;

private:
    const ProgressCommunicator& m_progress;
    std::function<void(const std::string&)> m_emit;
    std::mutex m_mutex;
    std::condition_variable m_cv;
    bool m_stop = false;
    std::thread m_thread;
};

}  // namespace clusterdesk::worker
