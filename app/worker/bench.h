// --bench: times each kernel on every available backend (or one) and prints effective
// GFLOP/s and GB/s, next to the host's measured SGEMM rate and, for a GPU the hardware
// catalog knows, the share of its datasheet peak.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>

namespace clusterdesk::worker {

struct BenchShape {
    std::int64_t rows = 1000000;
    std::int64_t cols = 32;
    int k = 64;
    int repeats = 5;
    std::string backend;  // empty: every backend
};

void runBench(const BenchShape& shape, std::ostream& out);

// Aggregate SGEMM rate of the host, all threads at once, in GFLOP/s.
double hostSgemmGflops();

}  // namespace clusterdesk::worker
