// --selftest: runs every kernel on a reference backend (host, one thread) and on each
// candidate (host with all threads, every CUDA device) over the same generated data,
// and prints a PASS/FAIL line per kernel. Exact-mode kernels must match bit for bit;
// fast-mode ones within stated tolerances. Then the collective checks
// (collective_checks.h): NCCL and GPU-sharded runs.
#pragma once

#include <iosfwd>

namespace clusterdesk::worker {

// Returns the number of failed checks.
int runSelftest(std::ostream& out);

}  // namespace clusterdesk::worker
