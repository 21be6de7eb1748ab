// Command-line options of `clusterdesk-cli run`, parsed into the engine's own structs.
#pragma once

#include "engine/cluster/params.h"
#include "engine/data/load.h"

#include <optional>
#include <string>
#include <vector>

namespace clusterdesk::cli {

struct RunOptions {
    std::string dataPath;                // --data
    std::string demoSpec;                // --demo
    LoadOptions load;                    // --layout, --window
    KMeansParams params;
    std::string initCentroidsPath;       // --init-centroids
    bool kGiven = false;                 // --k was given (checked against the centroid file)
    bool kMaxGiven = false;              // --kmax was given (else capped at the row count)
    bool k0Given = false;                // --k0 was given (else capped at kmax)
    std::string topology = "host";       // --topology
    int threads = 0;                     // --threads (0 = every core)
    std::string jsonPath;                // --json PATH or -
    std::string labelsPath;              // --labels-out
    std::string centroidsPath;           // --centroids-out
    bool verbose = false;                // --verbose: one line per iteration on stderr
};

// Throws UsageError with the offending option.
RunOptions parseRunOptions(const std::vector<std::string>& args);

std::string usageText();

}  // namespace clusterdesk::cli
