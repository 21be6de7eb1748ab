// --lloyd: a k-means run from given initial centroids for a fixed number of iterations
// on one topology, its power sampled, printed as the CLI's run summary (one JSON
// object). It is what a benchmark against another k-means runs where there is no run
// store, as on a GPU machine's Qt-free build (tests/bench/gpu_lloyd_torch.py).
#pragma once

#include "kernels/kernel_types.h"

#include <iosfwd>
#include <string>

namespace clusterdesk::worker {

struct LloydRunOptions {
    std::string data;      // a matrix file: .npy or delimited text
    std::string init;      // the initial centroids, k rows of the data's width, same formats
    std::string topology;  // empty: cuda:0 when a GPU is there, else host
    int iterations = 10;   // every one runs: the tolerance is 0
    kernels::Mode mode = kernels::Mode::Fast;
    kernels::Precision precision = kernels::Precision::FP32;
};

// Throws the engine's errors (DataError naming the file, UsageError) for the caller to print.
void runLloyd(const LloydRunOptions& options, std::ostream& out);

}  // namespace clusterdesk::worker
