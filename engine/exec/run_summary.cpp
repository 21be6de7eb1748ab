#include "run_summary.h"

#include "../cluster/metrics.h"
#include "clusterdesk/version.h"
#include "engine/core/printable.h"
#include "engine/core/units.h"
#include "../cluster/cluster_codec.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <numeric>

namespace clusterdesk {
namespace {

struct PhaseTotals {
    double assign = 0;
    double update = 0;
    double reduce = 0;
    double total() const { return assign + update + reduce; }
};

PhaseTotals phaseTotals(const ClusterResult& result)
{
    PhaseTotals t;
    for (const IterationStats& s : result.history) {
        t.assign += s.assignMs;
        t.update += s.updateMs;
        t.reduce += s.reduceMs;
    }
    return t;
}

double msPerIteration(const ClusterResult& result)
{
    return result.history.empty() ? 0.0 : phaseTotals(result).total() / static_cast<double>(result.history.size());
}

// Rows visited per joule: a measure of the work bought with the energy that compares
// runs of different sizes. 0 when no energy was recorded.
double pointsPerJoule(const RunSummaryInput& in)
{
    if (!in.power || !(in.power->energyJ > 0)) return 0;
    return static_cast<double>(in.data.rows) * in.report.result.iterations / in.power->energyJ;
}

}  // namespace

std::string runSummaryJson(const RunSummaryInput& in)
{
    const ClusterResult& r = in.report.result;
    const PhaseTotals phases = phaseTotals(r);
    nlohmann::json j;
    j["engine_version"] = CLUSTERDESK_VERSION;
    j["git_commit"] = CLUSTERDESK_GIT_COMMIT;
    j["algorithm"] = toString(in.params.algorithm);
    j["init"] = toString(in.params.init);
    j["seed"] = in.params.seed;
    j["k"] = r.k;
    j["iterations"] = r.iterations;
    j["inertia"] = r.inertia;
    j["converged"] = r.converged;
    j["cancelled"] = r.cancelled;
    j["mode"] = kernels::toString(in.params.mode);
    // What the GEMMs computed in: the host backend always uses FP32.
    j["precision"] = in.report.backend == "host" ? "fp32" : kernels::toString(in.params.precision);
    j["backend"] = in.report.backend;
    j["topology"] = toString(in.topology);
    j["shards"] = in.topology.shardCount();
    j["devices"] = in.report.devices;
    if (!in.report.communicator.empty()) j["communicator"] = in.report.communicator;
    j["seconds_total"] = in.report.secondsTotal;
    j["ms_per_iteration"] = msPerIteration(r);
    j["phases_ms"] = {{"init", r.initMs}, {"assign", phases.assign}, {"update", phases.update}, {"reduce", phases.reduce}};
    j["sizes"] = r.sizes;
    if (!in.initCentroidsFile.empty()) j["init_centroids_file"] = in.initCentroidsFile;
    j["empty_clusters"] = std::count(r.sizes.begin(), r.sizes.end(), 0);
    j["dataset"] = {{"rows", in.data.rows},
                    {"cols", in.data.cols},
                    {"hash", in.datasetHash},
                    {"source", in.data.source},
                    {"layout", toString(in.data.layout)}};
    if (in.data.hasTruth() && r.labels.size() == in.data.truth.size())
        j["ari"] = adjustedRandIndex(in.data.truth, r.labels);
    if (in.peakRssMiB > 0) j["peak_rss_mib"] = in.peakRssMiB;
    if (in.power && !in.power->devices.empty()) {
        j["energy_j"] = in.power->energyJ;
        j["energy_source"] = in.power->energySource;
        j["points_per_joule"] = pointsPerJoule(in);
        nlohmann::json devices = nlohmann::json::array();
        for (const DeviceEnergy& d : in.power->devices)
            devices.push_back({{"label", d.device}, {"kind", toString(d.kind)}, {"source", d.source}, {"joules", d.joules}});
        j["power_devices"] = std::move(devices);
    }
    nlohmann::json history = nlohmann::json::array();
    for (const IterationStats& s : r.history) {
        nlohmann::json h = {{"iteration", s.iteration}, {"round", s.round}, {"k", s.k}, {"inertia", s.inertia},
                            {"assign_ms", s.assignMs}, {"update_ms", s.updateMs}, {"reduce_ms", s.reduceMs},
                            {"rows_searched", s.rowsSearched}};
        if (!s.event.empty()) h["event"] = s.event;
        if (!s.ranks.empty()) h["ranks"] = codec::toJson(s.ranks);
        history.push_back(std::move(h));
    }
    j["history"] = std::move(history);
    if (r.growth.stop != GrowthStop::NotGrown) {
        j["growth"] = codec::toJson(r.growth);
        j["growth"]["summary"] = describeGrowthStop(r.growth);
    }
    return j.dump(2);
}

std::string runSummaryText(const RunSummaryInput& in)
{
    const ClusterResult& r = in.report.result;
    const PhaseTotals phases = phaseTotals(r);
    char buffer[1024];
    std::string text;
    std::snprintf(buffer, sizeof buffer, "dataset   %s  (%lld rows x %lld cols, %s, sha256 %.12s)\n", printable(in.data.source).c_str(),
                  static_cast<long long>(in.data.rows), static_cast<long long>(in.data.cols), toString(in.data.layout).c_str(),
                  in.datasetHash.c_str());
    text += buffer;
    for (const std::string& note : in.data.notes) text += "          " + printable(note) + "\n";  // notes name files
    std::snprintf(buffer, sizeof buffer, "run       %s, %s mode, topology %s on %s\n", toString(in.params.algorithm).c_str(),
                  kernels::toString(in.params.mode).c_str(), printable(toString(in.topology)).c_str(),
                  in.report.devices.empty() ? "?" : in.report.devices.front().c_str());
    text += buffer;
    if (!in.report.communicator.empty()) text += "          shards joined by " + in.report.communicator + "\n";
    std::snprintf(buffer, sizeof buffer, "result    k=%d  inertia=%.8g  iterations=%d  %s\n", r.k, r.inertia, r.iterations,
                  r.cancelled ? "cancelled" : (r.converged ? "converged" : "stopped at max iterations"));
    text += buffer;
    // Reseeding fills an empty cluster from the farthest row; one that stays empty means
    // the rows ran out of distinct points (constant data, duplicates) before k did.
    if (const auto empty = std::count(r.sizes.begin(), r.sizes.end(), 0); empty > 0 && !r.cancelled) {
        std::snprintf(buffer, sizeof buffer, "warning   %lld of the %d clusters %s no rows: the data has fewer distinct rows than k\n",
                      static_cast<long long>(empty), r.k, empty == 1 ? "holds" : "hold");
        text += buffer;
    }
    if (in.data.hasTruth() && r.labels.size() == in.data.truth.size()) {
        std::snprintf(buffer, sizeof buffer, "quality   ARI vs ground truth %.4f, NMI %.4f\n",
                      adjustedRandIndex(in.data.truth, r.labels), normalizedMutualInformation(in.data.truth, r.labels));
        text += buffer;
    }
    if (const std::string growth = describeGrowthStop(r.growth); !growth.empty()) text += "growth    " + growth + "\n";
    // In the unit a reader wants, as the window shows it: a small run read "0.000 s total".
    // What no phase counts (AdaptGrow's split tests and noise model, a pool's launch) is
    // named too, so the parts add up to the total.
    const double phasedMs = r.initMs + phases.assign + phases.update + phases.reduce;
    std::snprintf(buffer, sizeof buffer,
                  "time      %s total, %.2f ms/iteration (init %.1f, assign %.1f, update %.1f, reduce %.1f, other %.1f ms in all)\n",
                  formatSeconds(in.report.secondsTotal).c_str(), msPerIteration(r), r.initMs, phases.assign, phases.update,
                  phases.reduce, std::max(0.0, in.report.secondsTotal * 1e3 - phasedMs));
    text += buffer;
    if (in.power && !in.power->devices.empty()) {
        std::string devices;
        for (const DeviceEnergy& d : in.power->devices) devices += (devices.empty() ? "" : ", ") + d.device;
        std::snprintf(buffer, sizeof buffer, "energy    %s (%s) on %s, %.4g point-iterations/J\n", formatJoules(in.power->energyJ).c_str(),
                      in.power->energySource.c_str(), devices.c_str(), pointsPerJoule(in));
        text += buffer;
    }
    return text;
}

}  // namespace clusterdesk
