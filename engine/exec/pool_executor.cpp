#include "executor.h"

#include "local_executor.h"

namespace clusterdesk {
namespace {

// MPI ranks through mpirun (pool_launcher.h).
class PoolExecutor : public Executor {
public:
    PoolExecutor(Topology topology, PoolOptions options)
        : m_topology(std::move(topology)), m_options(std::move(options))
    {
    }

    RunReport execute(const Dataset& data, const KMeansParams& params, int threads, const RunControl& control) override
    {
        return runPool(data, params, m_topology, threads, control, m_options);
    }

private:
    Topology m_topology;
    PoolOptions m_options;
};

}  // namespace

std::unique_ptr<Executor> makeExecutor(const Topology& topology, const PoolOptions& pool)
{
    if (topology.isPool()) return std::make_unique<PoolExecutor>(topology, pool);
    return std::make_unique<LocalExecutor>(topology);
}

}  // namespace clusterdesk
