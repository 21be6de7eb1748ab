#include "scaling_curve.h"

#include "engine/whatif/job_profile.h"
#include "engine/whatif/placement.h"

namespace clusterdesk::gui {

std::string scalingDevice(const std::vector<std::string>& topologies, const HardwareCatalog& catalog)
{
    const whatif::LocalMachine machine = whatif::describeLocalMachine();
    for (const std::string& spelling : topologies) {
        try {
            const whatif::Placement where = whatif::placeTopology(spelling, catalog, machine);
            if (!where.measurable && where.onGpus()) return where.device.id;
        } catch (const std::exception&) {
            // The comparison itself reports a bad spelling; the curve just skips it.
        }
    }
    const DeviceSpec* first = nullptr;
    for (const DeviceSpec& d : catalog.devices) {
        if (!d.isGpu()) continue;
        if (d.id == "h200") return d.id;
        if (!first) first = &d;
    }
    return first ? first->id : std::string();
}

std::vector<ui::ScalingPoint> scalingCurve(const KMeansParams& params, std::int64_t rows, std::int64_t cols,
                                           const std::string& deviceId, const HardwareCatalog& catalog,
                                           const whatif::ModelParameters& model)
{
    const DeviceSpec& device = catalog.device(deviceId);
    const whatif::JobProfile job = whatif::plannedProfile(params, rows, cols);
    const whatif::LocalMachine machine = whatif::describeLocalMachine();
    std::vector<std::pair<int, std::string>> spellings;  // GPUs, topology
    const std::string base = "model:" + deviceId;
    for (int n = 1; n <= device.perNode; n *= 2) spellings.emplace_back(n, n == 1 ? base : base + "x" + std::to_string(n));
    const int full = device.perNode;
    for (int nodes = 2; nodes <= 8; ++nodes)
        spellings.emplace_back(full * nodes, base + "x" + std::to_string(full) + ":nodes=" + std::to_string(nodes));
    std::vector<ui::ScalingPoint> points;
    for (const auto& [gpus, spelling] : spellings) {
        const whatif::Prediction p = whatif::predict(job, whatif::placeTopology(spelling, catalog, machine), model);
        ui::ScalingPoint point;
        point.gpus = gpus;
        point.topology = QString::fromStdString(spelling);
        point.msPerIteration = p.msPerIteration;
        point.assignMs = p.perIteration.assignMs;
        point.reduceMs = p.perIteration.reduceMs;
        points.push_back(point);
    }
    return points;
}

}  // namespace clusterdesk::gui
