#include "comparison.h"

#include "run_session.h"

#include "engine/cluster/metrics.h"
#include "engine/core/error.h"
#include "engine/telemetry/power_sampler.h"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace clusterdesk::session {
namespace {

using whatif::Observation;
using whatif::Placement;

// A measured run's labels and centroids, to tell whether the answer changed.
struct Answer {
    std::vector<std::int32_t> labels;
    std::vector<float> centroids;
};

// Parallel units for speedup per unit: cores computing on a CPU, devices on GPUs.
double unitsOf(const Placement& where)
{
    if (where.onGpus()) return where.deviceCount;
    return where.coresPerShard * where.shards;
}

whatif::PhaseTimes measuredPhases(const Observation& o)
{
    whatif::PhaseTimes phases;
    phases.assignMs = o.assignMs;
    phases.updateMs = o.updateMs;
    phases.reduceMs = o.reduceMs;
    const std::pair<double, const char*> all[] = {{o.assignMs, "assign"}, {o.updateMs, "update"}, {o.reduceMs, "reduce"}};
    phases.bottleneck = std::max_element(std::begin(all), std::end(all))->second;
    return phases;
}

// Runs one job through the run path; fills the outcome's measured fields.
struct MeasuredRun {
    TopologyOutcome outcome;
    std::optional<Observation> observation;
    Answer answer;
};

MeasuredRun measure(const ComparisonRequest& request, const KMeansParams& params, const Placement& where,
                    const ComparisonControl& control)
{
    MeasuredRun run;
    TopologyOutcome& out = run.outcome;
    out.topology = where.spelling;
    out.measured = true;
    RunRequest req;
    req.data = request.data;
    req.params = params;
    req.topology = where.topology;
    req.threads = where.threads;
    req.pool = request.pool;
    req.store = request.store;
    RunControl runControl;
    runControl.cancel = control.cancel;
    if (control.onIteration) runControl.onIteration = [&](const IterationStats& s) { control.onIteration(where.spelling, s); };
    try {
        RunSession session(std::move(req));
        PowerSampler power;
        RunResult result = session.run(runControl, power);
        out.runId = result.runId;
        const RunReport& report = result.report;
        if (report.result.cancelled) {
            out.status = "cancelled";
            return run;
        }
        const whatif::JobProfile job =
            whatif::measuredProfile(session.params(), request.data->rows, request.data->cols, report.result.history, result.runId);
        run.observation = whatif::observe(result.runId, job, where, report.result.history, report.secondsTotal);
        out.phases = measuredPhases(*run.observation);
        out.msPerIteration = out.phases.total();
        out.iterations = report.result.iterations;
        out.totalS = report.secondsTotal;
        if (result.power && !result.power->energySource.empty()) {
            out.energyJ = result.power->energyJ;
            out.energySource = result.power->energySource;
        }
        run.answer = {report.result.labels, report.result.centroids};
    } catch (const Cancelled&) {
        out.status = "cancelled";
    } catch (const Error& e) {
        out.status = "failed";
        out.failure = e.what();
    }
    return run;
}

TopologyOutcome modeledOutcome(const whatif::JobProfile& job, const Placement& where, const whatif::ModelParameters& params)
{
    TopologyOutcome out;
    out.topology = where.spelling;
    const whatif::Prediction p = whatif::predict(job, where, params);
    out.msPerIteration = p.msPerIteration;
    out.phases = p.perIteration;
    out.iterations = p.iterations;
    out.totalS = p.totalS;
    out.energyJ = p.energyJ;
    out.energySource = "modeled";
    out.costUsd = p.costUsd;
    out.fitsInMemory = p.fitsInMemory;
    out.memoryNeededGiB = p.memoryNeededGiB;
    out.devices = where.deviceCount;
    if (out.energyJ > 0) out.pointsPerJoule = static_cast<double>(job.rows) * out.iterations / out.energyJ;
    return out;
}

// Speedup against the first topology that has a time. Efficiency is parallel
// efficiency: against the first timed topology on the same device (this machine's CPU,
// an H200, ...), per device or core added; across devices it would be a ratio of two
// machines, not of scaling. placements[i] is where spellings[i] runs.
void scoreScaling(std::vector<TopologyOutcome>& outcomes, const std::vector<std::string>& spellings, const std::vector<Placement>& placements)
{
    const auto placementOf = [&](const TopologyOutcome& o) -> const Placement& {
        return placements[static_cast<std::size_t>(std::find(spellings.begin(), spellings.end(), o.topology) - spellings.begin())];
    };
    const auto timed = [](const TopologyOutcome& o) { return o.msPerIteration > 0; };
    const auto base = std::find_if(outcomes.begin(), outcomes.end(), timed);
    for (TopologyOutcome& o : outcomes) {
        if (!timed(o)) continue;
        o.speedup = base->msPerIteration / o.msPerIteration;
        const Placement& where = placementOf(o);
        const auto reference = std::find_if(outcomes.begin(), outcomes.end(), [&](const TopologyOutcome& r) {
            return timed(r) && placementOf(r).device.id == where.device.id;
        });
        o.efficiency = (reference->msPerIteration / o.msPerIteration) / (unitsOf(where) / unitsOf(placementOf(*reference)));
    }
}

}  // namespace

std::vector<TopologyOutcome> predictShape(const whatif::JobProfile& job, const std::vector<std::string>& topologies,
                                          const HardwareCatalog& catalog)
{
    const whatif::LocalMachine machine = whatif::describeLocalMachine();
    std::vector<TopologyOutcome> outcomes;
    std::vector<Placement> placements;
    for (const std::string& spelling : topologies) {
        placements.push_back(whatif::placeTopology(spelling, catalog, machine));
        if (placements.back().measurable) throw UsageError("topology '" + spelling + "' runs here: a job given by its shape alone has no data to run, only model:... topologies");
        outcomes.push_back(modeledOutcome(job, placements.back(), {}));
    }
    scoreScaling(outcomes, topologies, placements);
    return outcomes;
}

ComparisonResult runComparison(const ComparisonRequest& request, const ComparisonControl& control)
{
    if (!request.data) throw UsageError("a comparison needs data");
    if (request.topologies.empty()) throw UsageError("a comparison needs at least one topology");
    const whatif::LocalMachine machine = whatif::describeLocalMachine();
    std::vector<Placement> placements;
    for (const std::string& spelling : request.topologies) {
        if (std::count(request.topologies.begin(), request.topologies.end(), spelling) > 1)
            throw UsageError("topology '" + spelling + "' is listed twice: each topology is compared once");
        placements.push_back(whatif::placeTopology(spelling, request.catalog, machine));
    }
    const bool exact = request.params.mode == kernels::Mode::Exact;
    const auto cancelled = [&] { return control.cancel && control.cancel->load(); };

    ComparisonResult result;
    std::vector<MeasuredRun> measured;
    std::vector<std::string> recordedRuns;
    // Fast mode: the exact answer every measured run is scored against.
    std::optional<Answer> reference;
    const bool anyMeasured = std::any_of(placements.begin(), placements.end(), [](const Placement& p) { return p.measurable; });
    if (!exact && anyMeasured) {
        KMeansParams exactParams = request.params;
        exactParams.mode = kernels::Mode::Exact;
        Placement host = whatif::placeTopology("host", request.catalog, machine);
        MeasuredRun ref = measure(request, exactParams, host, control);
        if (!ref.outcome.runId.empty()) recordedRuns.push_back(ref.outcome.runId);
        if (ref.outcome.status == "cancelled") result.cancelled = true;
        else if (ref.outcome.status != "ok") throw DeviceError("the exact reference run on the host failed: " + ref.outcome.failure);
        result.referenceRunId = ref.outcome.runId;
        reference = std::move(ref.answer);
    }
    for (const Placement& where : placements) {
        if (!where.measurable || result.cancelled) continue;
        MeasuredRun run = measure(request, request.params, where, control);
        if (!run.outcome.runId.empty()) recordedRuns.push_back(run.outcome.runId);
        if (run.outcome.status == "cancelled" || cancelled()) result.cancelled = true;
        if (run.outcome.status == "ok") {
            if (reference) {
                run.outcome.ari = adjustedRandIndex(reference->labels, run.answer.labels);
            } else if (!measured.empty() && measured.front().observation) {
                const Answer& first = measured.front().answer;
                run.outcome.identical = first.labels == run.answer.labels && first.centroids == run.answer.centroids;
            } else {
                run.outcome.identical = true;  // the first run is the answer the others are held to
            }
        }
        if (control.onMeasured) control.onMeasured(run.outcome);
        measured.push_back(std::move(run));
    }

    std::vector<Observation> observations;
    for (const MeasuredRun& run : measured)
        if (run.observation) observations.push_back(*run.observation);
    result.model = whatif::calibrate(observations);
    const whatif::JobProfile planned =
        whatif::plannedProfile(request.params, request.data->rows, request.data->cols);

    // Leave-one-out: each measured topology predicted by the model fitted without it, on
    // the trajectory another run measured.
    std::size_t m = 0;
    for (const Placement& where : placements) {
        TopologyOutcome out;
        if (where.measurable) {
            if (m >= measured.size()) continue;  // not run: cancelled before it
            MeasuredRun& run = measured[m++];
            out = run.outcome;
            if (run.observation) {
                std::vector<Observation> others;
                for (const Observation& o : observations)
                    if (o.where.spelling != where.spelling) others.push_back(o);
                if (!others.empty()) {
                    const whatif::ModelParameters without = whatif::calibrate(others);
                    const whatif::Prediction loo = whatif::predict(others.front().job, where, without);
                    out.predictedMsPerIteration = loo.msPerIteration;
                    out.predictedPhases = loo.perIteration;
                }
                const whatif::Prediction own = whatif::predict(run.observation->job, where, result.model);
                out.memoryNeededGiB = own.memoryNeededGiB;
                out.fitsInMemory = own.fitsInMemory;
                out.costUsd = where.device.usdPerHour * std::min(1.0, unitsOf(where) / std::max(where.device.cores, 1)) * out.totalS / 3600;
                if (out.energySource.empty()) {
                    out.energyJ = own.watts * out.totalS;
                    out.energySource = "modeled";
                }
            }
        } else {
            if (result.cancelled) continue;
            out = modeledOutcome(observations.empty() ? planned : observations.front().job, where, result.model);
        }
        out.devices = where.onGpus() || !where.measurable ? where.deviceCount : where.shards;
        if (out.energyJ > 0) out.pointsPerJoule = static_cast<double>(request.data->rows) * out.iterations / out.energyJ;
        result.topologies.push_back(std::move(out));
    }
    scoreScaling(result.topologies, request.topologies, placements);
    for (const TopologyOutcome& o : result.topologies)
        if (control.onTopology) control.onTopology(o);

    if (request.store) {
        try {
            result.comparisonId = request.store->recordComparison(comparisonJson(request, result), recordedRuns);
        } catch (const Error& e) {
            result.recordProblem = std::string("the comparison was not recorded: ") + e.what();
        }
    }
    return result;
}

std::string outcomeJson(const TopologyOutcome& o)
{
    using nlohmann::json;
    json t = {{"topology", o.topology},
              {"measured", o.measured},
              {"status", o.status},
              {"ms_per_iteration", o.msPerIteration},
              {"phases_ms", {{"assign", o.phases.assignMs}, {"update", o.phases.updateMs}, {"reduce", o.phases.reduceMs}, {"transfer", o.phases.transferMs}}},
              {"bottleneck", o.phases.bottleneck},
              {"iterations", o.iterations},
              {"total_s", o.totalS},
              {"energy_j", o.energyJ},
              {"energy_source", o.energySource},
              {"cost_usd", o.costUsd},
              {"points_per_joule", o.pointsPerJoule},
              {"fits_in_memory", o.fitsInMemory},
              {"memory_needed_gib", o.memoryNeededGiB},
              {"devices", o.devices},
              {"speedup", o.speedup},
              {"efficiency", o.efficiency > 0 ? json(o.efficiency) : json(nullptr)}};
    if (!o.failure.empty()) t["failure"] = o.failure;
    if (!o.runId.empty()) t["run_id"] = o.runId;
    if (o.predictedMsPerIteration) {
        t["predicted_ms_per_iteration"] = *o.predictedMsPerIteration;
        const whatif::PhaseTimes& p = o.predictedPhases;
        t["predicted_phases_ms"] = {{"assign", p.assignMs}, {"update", p.updateMs}, {"reduce", p.reduceMs}, {"transfer", p.transferMs}};
    }
    if (o.identical) t["identical"] = *o.identical;
    if (o.ari) t["ari"] = *o.ari;
    return t.dump();
}

std::string comparisonJson(const ComparisonRequest& request, const ComparisonResult& result)
{
    using nlohmann::json;
    const KMeansParams& p = request.params;
    json job = {{"source", request.data->source},
                {"dataset_sha256", request.data->contentHash()},
                {"rows", request.data->rows},
                {"cols", request.data->cols},
                {"algorithm", toString(p.algorithm)},
                {"mode", p.mode == kernels::Mode::Exact ? "exact" : "fast"},
                {"seed", p.seed},
                {"max_iter", p.maxIterations}};
    if (p.algorithm == Algorithm::KMeans) job["k"] = p.k;
    else job["kmax"] = p.kMax;
    json topologies = json::array();
    for (const TopologyOutcome& o : result.topologies) topologies.push_back(json::parse(outcomeJson(o)));
    json doc = {{"job", job},
                {"topologies", topologies},
                {"model", json::parse(whatif::parametersJson(result.model))},
                {"catalog", request.catalog.where},
                {"catalog_sha256", request.catalog.sha256},
                {"cancelled", result.cancelled}};
    if (!result.referenceRunId.empty()) doc["reference_run"] = result.referenceRunId;
    return doc.dump(2);
}

}  // namespace clusterdesk::session
