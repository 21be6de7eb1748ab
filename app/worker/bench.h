// --bench: times each kernel on every available backend and prints effective GFLOP/s
// and GB/s, next to the host's measured SGEMM rate for scale.
#pragma once

#include <cstdint>
#include <iosfwd>

namespace clusterdesk::worker {

struct BenchShape {
    std::int64_t rows = 1000000;
    std::int64_t cols = 32;
    int k = 64;
    int repeats = 5;
};

void runBench(const BenchShape& shape, std::ostream& out);

// Aggregate SGEMM rate of the host, all threads at once, in GFLOP/s.
double hostSgemmGflops();

}  // namespace clusterdesk::worker
