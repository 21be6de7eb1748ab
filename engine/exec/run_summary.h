// A finished run as the CLI prints it and tools read it: one JSON object, or a few
// lines of text for a terminal.
#pragma once

#include "../telemetry/power_summary.h"
#include "run_clustering.h"

#include <optional>
#include <string>

namespace clusterdesk {

struct RunSummaryInput {
    const Dataset& data;
    const KMeansParams& params;
    const Topology& topology;
    const RunReport& report;
    std::string datasetHash;
    double peakRssMiB = 0;   // of the whole process, 0 when unknown
    std::optional<PowerSummary> power;  // energy while the run executed, when it was sampled
    std::string initCentroidsFile;      // the file the initial centroids came from (absolute), if any
};

std::string runSummaryJson(const RunSummaryInput& in);
std::string runSummaryText(const RunSummaryInput& in);

}  // namespace clusterdesk
