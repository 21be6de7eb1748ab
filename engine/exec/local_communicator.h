// In-process communicator: N ranks are N threads of one process sharing a LocalGroup.
#pragma once

#include "../cluster/communicator.h"

#include <memory>

namespace clusterdesk {

struct LocalGroupState;

// The shared meeting point of N local ranks. If one rank fails it calls abort(), and
// every rank waiting in (or later entering) a collective throws instead of hanging.
class LocalGroup {
public:
    explicit LocalGroup(int size);
    ~LocalGroup();

    std::unique_ptr<Communicator> member(int rank);
    void abort();

private:
    std::shared_ptr<LocalGroupState> m_state;
};

}  // namespace clusterdesk
