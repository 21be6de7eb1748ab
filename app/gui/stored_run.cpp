#include "stored_run.h"

#include "engine/cluster/cluster_codec.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <string>
#include <type_traits>

namespace clusterdesk::gui {

namespace {

// The run's metrics JSON; a damaged record's reads as none, the rest of the run still shows.
nlohmann::json metricsOf(const store::RunInfo& info)
{
    nlohmann::json metrics = nlohmann::json::parse(info.metricsJson, nullptr, /*allow_exceptions=*/false);
    return metrics.is_object() ? metrics : nlohmann::json::object();
}

template <class T>
T valueOr(const nlohmann::json& object, const char* key, T otherwise)
{
    const auto it = object.find(key);
    if (it == object.end()) return otherwise;
    if constexpr (std::is_same_v<T, bool>)
        return it->is_boolean() ? it->template get<bool>() : otherwise;
    else if constexpr (std::is_same_v<T, std::string>)
        return it->is_string() ? it->template get<std::string>() : otherwise;
    else
        return it->is_number() ? it->template get<T>() : otherwise;
}

}  // namespace

ui::RunOutcome outcomeOf(const store::RunRecord& record)
{
    const store::RunInfo& info = record.info;
    const nlohmann::json metrics = metricsOf(info);
    ui::RunOutcome outcome;
    outcome.cancelled = info.status == store::RunStatus::Cancelled;
    outcome.converged = valueOr(metrics, "converged", false);
    outcome.k = record.k > 0 ? record.k : valueOr(metrics, "k", 0);
    outcome.iterations = valueOr(metrics, "iterations", static_cast<int>(record.iterations.size()));
    outcome.inertia = valueOr(metrics, "inertia", 0.0);
    outcome.seconds = valueOr(metrics, "seconds_total", 0.0);
    if (const auto sizes = metrics.find("sizes"); sizes != metrics.end() && sizes->is_array())
        for (const nlohmann::json& size : *sizes)
            if (size.is_number()) outcome.sizes.push_back(size.get<std::int64_t>());
    outcome.backend = QString::fromStdString(info.backend);
    if (info.energyJ) {
        outcome.power.energyJ = *info.energyJ;
        outcome.power.energySource = info.energySource;
    }
    if (const auto devices = metrics.find("power_devices"); devices != metrics.end() && devices->is_array()) {
        for (const nlohmann::json& d : *devices) {
            if (!d.is_object()) continue;
            outcome.power.devices.push_back({valueOr<std::string>(d, "label", ""), valueOr<std::string>(d, "source", ""),
                                             valueOr<std::string>(d, "kind", "") == "measured" ? PowerKind::Measured : PowerKind::Estimated,
                                             valueOr(d, "joules", 0.0)});
        }
    }
    // AdaptGrow's tests, in the metrics since they were kept; older runs have none.
    if (const auto growth = metrics.find("growth"); growth != metrics.end()) {
        try {
            outcome.growth = codec::growthFromJson(*growth);
        } catch (const std::exception&) {
            outcome.growth = {};  // unreadable: shown as not known, the rest of the run still is
        }
    }
    if (info.status == store::RunStatus::Failed)
        outcome.error = QObject::tr("Run %1 failed: %2").arg(QString::fromStdString(info.id).left(8), QString::fromStdString(info.failure));
    return outcome;
}

ui::PowerBatch powerOf(const store::RunRecord& record)
{
    ui::PowerBatch batch;
    std::vector<std::string> devices;
    for (const store::TelemetrySample& t : record.telemetry) {
        auto it = std::find(devices.begin(), devices.end(), t.device);
        if (it == devices.end()) {
            devices.push_back(t.device);
            batch.devices << QString("%1 (%2)").arg(QString::fromStdString(t.device), QString::fromStdString(t.kind));
            it = devices.end() - 1;
        }
        batch.samples.push_back({t.seconds, static_cast<int>(it - devices.begin()), t.watts,
                                 t.kind == "measured" ? PowerKind::Measured : PowerKind::Estimated});
    }
    return batch;
}

void replayRun(ui::RunSeries& run, const store::RunRecord& record, const std::optional<ui::ClusterProjection>& projection)
{
    const int maxIterations = std::max<int>(static_cast<int>(record.iterations.size()), 1);
    run.beginRun(record.dataset.rows, maxIterations);
    for (const IterationStats& stats : record.iterations) run.addIteration(stats);
    run.addPower(powerOf(record));
    if (projection) run.setProjection(*projection);
    run.finish(outcomeOf(record));
}

}  // namespace clusterdesk::gui
