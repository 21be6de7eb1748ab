#include "stored_run.h"

#include "engine/cluster/cluster_codec.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>

namespace clusterdesk::gui {

ui::RunOutcome outcomeOf(const store::RunRecord& record)
{
    const store::RunInfo& info = record.info;
    const QJsonObject metrics = QJsonDocument::fromJson(QByteArray::fromStdString(info.metricsJson)).object();
    ui::RunOutcome outcome;
    outcome.cancelled = info.status == store::RunStatus::Cancelled;
    outcome.converged = metrics.value("converged").toBool();
    outcome.k = record.k > 0 ? record.k : metrics.value("k").toInt();
    outcome.iterations = metrics.value("iterations").toInt(static_cast<int>(record.iterations.size()));
    outcome.inertia = metrics.value("inertia").toDouble();
    outcome.seconds = metrics.value("seconds_total").toDouble();
    for (const QJsonValue& size : metrics.value("sizes").toArray()) outcome.sizes.push_back(static_cast<std::int64_t>(size.toDouble()));
    outcome.backend = QString::fromStdString(info.backend);
    if (info.energyJ) {
        outcome.power.energyJ = *info.energyJ;
        outcome.power.energySource = info.energySource;
    }
    for (const QJsonValue& v : metrics.value("power_devices").toArray()) {
        const QJsonObject d = v.toObject();
        outcome.power.devices.push_back({d.value("label").toString().toStdString(), d.value("source").toString().toStdString(),
                                         d.value("kind").toString() == "measured" ? PowerKind::Measured : PowerKind::Estimated,
                                         d.value("joules").toDouble()});
    }
    // AdaptGrow's tests, in the metrics since they were kept; older runs have none.
    if (metrics.contains("growth")) {
        try {
            outcome.growth = codec::growthFromJson(nlohmann::json::parse(info.metricsJson).at("growth"));
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
