#include "local_communicator.h"

#include "../core/error.h"
#include "kernels/kernel_types.h"

#include <algorithm>
#include <condition_variable>
#include <mutex>
#include <string>

namespace clusterdesk {

// Each collective is two barrier phases: after the first every rank's contribution
// is in its slot and each rank reads all slots (in rank order); after the second
// nobody reads any more, so the next collective may overwrite the slots.
struct LocalGroupState {
    explicit LocalGroupState(int n) : size(n), slots(static_cast<std::size_t>(n)) {}

    const int size;
    std::vector<std::vector<std::byte>> slots;
    std::mutex mutex;
    std::condition_variable cv;
    int arrived = 0;
    std::uint64_t generation = 0;
    bool aborted = false;

    void barrier()
    {
        std::unique_lock lock(mutex);
        if (aborted) throw DeviceError("local communicator: another shard failed");
        const std::uint64_t mine = generation;
        if (++arrived == size) {
            arrived = 0;
            ++generation;
            cv.notify_all();
            return;
        }
        cv.wait(lock, [&] { return generation != mine || aborted; });
        if (generation == mine) throw DeviceError("local communicator: another shard failed");
    }

    void abort()
    {
        std::lock_guard lock(mutex);
        aborted = true;
        cv.notify_all();
    }
};

namespace {

class LocalCommunicator final : public Communicator {
public:
    LocalCommunicator(std::shared_ptr<LocalGroupState> state, int rank) : m_state(std::move(state)), m_rank(rank) {}

    int rank() const override { return m_rank; }
    int size() const override { return m_state->size; }

    void allreduceSum(std::span<std::int64_t> values) override
    {
        reduce(values, kernels::wrappingAdd);
    }
    void allreduceSum(std::span<double> values) override
    {
        reduce(values, [](double a, double b) { return a + b; });
    }
    void allreduceMax(std::span<double> values) override
    {
        reduce(values, [](double a, double b) { return std::max(a, b); });
    }

    std::vector<std::byte> allgather(std::span<const std::byte> mine) override
    {
        publish(mine);
        std::vector<std::byte> out;
        for (const auto& slot : m_state->slots) out.insert(out.end(), slot.begin(), slot.end());
        m_state->barrier();
        return out;
    }

private:
    void publish(std::span<const std::byte> mine)
    {
        m_state->slots[static_cast<std::size_t>(m_rank)].assign(mine.begin(), mine.end());
        m_state->barrier();
    }

    template <class T, class Op>
    void reduce(std::span<T> values, Op op)
    {
        publish(std::as_bytes(values));
        for (std::size_t i = 0; i < values.size(); ++i) {
            T acc = slotValue<T>(0, i);
            for (int r = 1; r < m_state->size; ++r) acc = op(acc, slotValue<T>(r, i));
            values[i] = acc;
        }
        m_state->barrier();
    }

    template <class T>
    T slotValue(int rank, std::size_t i) const
    {
        const auto& slot = m_state->slots[static_cast<std::size_t>(rank)];
        if (slot.size() < (i + 1) * sizeof(T)) throw DeviceError("local communicator: ranks reduced different lengths");
        T value;
        std::memcpy(&value, slot.data() + i * sizeof(T), sizeof(T));
        return value;
    }

    std::shared_ptr<LocalGroupState> m_state;
    int m_rank;
};

}  // namespace

LocalGroup::LocalGroup(int size) : m_state(std::make_shared<LocalGroupState>(size))
{
    if (size < 1) throw UsageError("a local group needs at least one rank (got " + std::to_string(size) + ")");
}

LocalGroup::~LocalGroup() = default;

std::unique_ptr<Communicator> LocalGroup::member(int rank)
{
    return std::make_unique<LocalCommunicator>(m_state, rank);
}

void LocalGroup::abort()
{
    m_state->abort();
}

}  // namespace clusterdesk
