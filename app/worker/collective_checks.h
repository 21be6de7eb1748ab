// --selftest, beyond single kernels: the NCCL communicator (one rank per GPU, threads
// of this process) against sums known in advance, and whole exact-mode runs sharded
// over GPUs (several shards on one device, and every device) against the host run,
// bit for bit. Prints PASS/FAIL per check, or SKIP with the reason (no GPU, no NCCL).
#pragma once

#include <iosfwd>

namespace clusterdesk::worker {

// Returns the number of failed checks.
int runCollectiveChecks(std::ostream& out);

}  // namespace clusterdesk::worker
