#include "lloyd_run.h"

#include "engine/core/error.h"
#include "engine/data/load.h"
#include "engine/exec/run_summary.h"
#include "engine/telemetry/power_sampler.h"
#include "kernels/backend_registry.h"

#include <ostream>

namespace clusterdesk::worker {

void runLloyd(const LloydRunOptions& options, std::ostream& out)
{
    LoadOptions matrix;
    matrix.layout = Layout::Matrix;
    const Dataset data = loadDataset(options.data, matrix);
    const Dataset init = loadDataset(options.init, matrix);
    if (init.cols != data.cols)
        throw UsageError(options.init + ": initial centroids have " + std::to_string(init.cols) + " columns, the data " +
                         std::to_string(data.cols));

    KMeansParams params;
    params.k = static_cast<int>(init.rows);
    params.init = InitMethod::Given;
    params.initialCentroids = init.values;
    params.maxIterations = options.iterations;
    params.tolerance = 0;  // a fixed amount of work, comparable with a peer's
    params.mode = options.mode;
    params.precision = options.precision;
    const std::string spec = !options.topology.empty() ? options.topology
                             : kernels::cudaAvailability().deviceCount > 0 ? "cuda:0"
                                                                           : "host";
    const Topology topology = parseTopology(spec);
    validate(params, data, topology.shardCount());

    PowerSampler sampler;
    sampler.start();
    const RunReport report = runClustering(data, params, topology, 0);
    sampler.stop();
    // No dataset hash: hashing gigabytes would cost more than the run it describes.
    out << runSummaryJson({data, params, topology, report, "", 0, sampler.summary()}) << '\n';
}

}  // namespace clusterdesk::worker
