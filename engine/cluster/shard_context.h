// What one rank of a sharded run works with: its backend, its resident rows, the
// communicator that joins it to the other ranks, and the global shape.
#pragma once

#include "communicator.h"
#include "kernels/backend.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>

namespace clusterdesk {

struct IterationStats;

struct ShardContext {
    kernels::Backend& backend;
    kernels::ResidentShard& shard;
    Communicator& comm;
    std::int64_t totalRows = 0;
    std::int64_t cols = 0;
    std::string source;  // the data's name, for errors about its values
};

// How a run reports and is stopped. Only rank 0 calls onIteration; the cancel flag
// is read by rank 0 and agreed on by all ranks in the next all-reduce.
struct RunControl {
    std::function<void(const IterationStats&)> onIteration;
    const std::atomic<bool>* cancel = nullptr;
};

}  // namespace clusterdesk
