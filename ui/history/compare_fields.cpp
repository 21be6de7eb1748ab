#include "compare_fields.h"

#include "engine/cluster/cluster_codec.h"
#include "ui/units.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <functional>

namespace clusterdesk::ui {
namespace {

QJsonObject parse(const std::string& json)
{
    return QJsonDocument::fromJson(QByteArray::fromStdString(json)).object();
}

// The parameters that shaped the run, as every view of a record shows them
// (codec::paramsThatApplied: no k for AdaptGrow, no k-means|| settings for k-means++).
QJsonObject appliedParams(const std::string& json)
{
    const nlohmann::json params = nlohmann::json::parse(json, nullptr, /*allow_exceptions=*/false);
    return params.is_object() ? parse(codec::paramsThatApplied(params).dump()) : QJsonObject();
}

// A run as the fields read it: its record, the parameters that applied and its metrics.
struct Side {
    const store::RunInfo& info;
    QJsonObject params, metrics;
};

QString number(double value)
{
    return QString::number(value, 'g', 6);
}

QString algorithmName(const QString& code)
{
    if (code == QLatin1String("kmeans")) return QStringLiteral("k-means");
    if (code == QLatin1String("adaptgrow")) return QStringLiteral("AdaptGrow");
    return code;
}

}  // namespace

std::vector<CompareRow> compareRows(const store::RunInfo& runA, const store::RunInfo& runB)
{
    const Side a{runA, appliedParams(runA.paramsJson), parse(runA.metricsJson)};
    const Side b{runB, appliedParams(runB.paramsJson), parse(runB.metricsJson)};
    std::vector<CompareRow> rows;
    QString section;
    // A row when `applies` holds for either run; each side formatted by `value`.
    auto add = [&](const QString& name, const std::function<QString(const Side&)>& value,
                   const std::function<bool(const Side&)>& applies = {}) {
        if (applies && !applies(a) && !applies(b)) return;
        rows.push_back({section, name, !applies || applies(a) ? value(a) : QString(), !applies || applies(b) ? value(b) : QString()});
    };
    auto param = [](const char* key) { return [key](const Side& s) { return s.params.value(key).toVariant().toString(); }; };
    // A parameter's row, where it applied to either run.
    auto addParam = [&](const QString& name, const char* key, const std::function<QString(const Side&)>& value = {}) {
        add(name, value ? value : param(key), [key](const Side& s) { return s.params.contains(key); });
    };
    auto metric = [](const char* key, const std::function<QString(double)>& format) {
        return [key, format](const Side& s) { return s.metrics.contains(key) ? format(s.metrics.value(key).toDouble()) : QString(); };
    };
    auto seconds = [](double s) { return formatSeconds(s); };
    auto millis = [](double ms) { return formatSeconds(ms / 1000.0); };

    section = QObject::tr("Run");
    add(QObject::tr("Run"), [](const Side& s) { return QString::fromStdString(s.info.id).left(8); });
    add(QObject::tr("Status"), [](const Side& s) {
        const QString status = QString::fromStdString(store::toString(s.info.status));
        return s.info.failure.empty() ? status : status + ": " + QString::fromStdString(s.info.failure);
    });
    add(QObject::tr("Started (UTC)"), [](const Side& s) { return QString::fromStdString(s.info.startedAt).replace('T', ' ').left(19); });
    add(QObject::tr("Dataset"), [](const Side& s) { return QString::fromStdString(s.info.dataSource.location); });
    add(QObject::tr("Dataset hash"), [](const Side& s) { return QString::fromStdString(s.info.datasetHash).left(16); });
    add(QObject::tr("Topology"), [](const Side& s) { return QString::fromStdString(s.info.topology); });
    add(QObject::tr("Threads"), [](const Side& s) { return QString::number(s.info.threads); });
    add(QObject::tr("Backend"), [](const Side& s) { return QString::fromStdString(s.info.backend); });
    add(QObject::tr("Host"), [](const Side& s) { return QString::fromStdString(s.info.host); });
    add(QObject::tr("Engine"), [](const Side& s) {
        return QString::fromStdString(s.info.engineVersion + " (" + s.info.gitCommit.substr(0, 8) + ")");
    });

    section = QObject::tr("Parameters");
    add(QObject::tr("Algorithm"), [](const Side& s) { return algorithmName(s.params.value("algorithm").toString()); });
    add(QObject::tr("Mode"), param("mode"));
    add(QObject::tr("Precision"), param("precision"));
    add(QObject::tr("Seed"), param("seed"));
    addParam(QObject::tr("Clusters (k)"), "k");
    addParam(QObject::tr("Initialisations"), "n_init");
    addParam(QObject::tr("Start with k0"), "k0");
    addParam(QObject::tr("At most kmax"), "kmax");
    addParam(QObject::tr("Merge pairs"), "merge",
             [](const Side& s) { return s.params.value("merge").toBool() ? QObject::tr("yes") : QObject::tr("no"); });
    addParam(QObject::tr("Split iterations"), "split_iterations");
    addParam(QObject::tr("Rounds at most"), "max_rounds");
    add(QObject::tr("Initialisation"), param("init"));
    addParam(QObject::tr("k-means|| rounds"), "parallel_rounds");
    addParam(QObject::tr("k-means|| oversampling"), "oversampling");
    add(QObject::tr("Iterations at most"), param("max_iterations"));
    add(QObject::tr("Tolerance"), [](const Side& s) { return number(s.params.value("tolerance").toDouble()); });

    section = QObject::tr("Result");
    add(QObject::tr("Clusters found"), metric("k", [](double v) { return QString::number(static_cast<int>(v)); }));
    add(QObject::tr("Iterations"), metric("iterations", [](double v) { return QString::number(static_cast<int>(v)); }));
    add(QObject::tr("Converged"), [](const Side& s) {
        return s.metrics.contains("converged") ? (s.metrics.value("converged").toBool() ? QObject::tr("yes") : QObject::tr("no")) : QString();
    });
    add(QObject::tr("Inertia"), metric("inertia", number));
    add(QObject::tr("ARI vs truth"), metric("ari", [](double v) { return QString::number(v, 'f', 4); }),
        [](const Side& s) { return s.metrics.contains("ari"); });

    section = QObject::tr("Time and energy");
    add(QObject::tr("Wall time"), metric("seconds_total", seconds));
    add(QObject::tr("Per iteration"), metric("ms_per_iteration", millis));
    for (const auto& [key, name] : {std::pair{"init", QObject::tr("Initialisation time")}, std::pair{"assign", QObject::tr("Assign (in all)")},
                                    std::pair{"update", QObject::tr("Update (in all)")}, std::pair{"reduce", QObject::tr("All-reduce (in all)")}}) {
        add(name, [key](const Side& s) {
            const QJsonObject phases = s.metrics.value("phases_ms").toObject();
            return phases.contains(key) ? formatSeconds(phases.value(key).toDouble() / 1000.0) : QString();
        });
    }
    add(QObject::tr("Energy"), [](const Side& s) {
        return s.info.energyJ ? formatJoules(*s.info.energyJ) + " (" + QString::fromStdString(s.info.energySource) + ")" : QString();
    });
    add(QObject::tr("Points per joule"), metric("points_per_joule", number), [](const Side& s) { return s.metrics.contains("points_per_joule"); });
    add(QObject::tr("Peak memory"), metric("peak_rss_mib", [](double v) { return QString::number(v, 'f', 1) + " MiB"; }),
        [](const Side& s) { return s.metrics.contains("peak_rss_mib"); });
    // One row per power source either run drew on, named by its label.
    QStringList devices;
    auto deviceEnergy = [](const Side& s, const QString& label) {
        for (const QJsonValue& device : s.metrics.value("power_devices").toArray())
            if (device.toObject().value("label").toString() == label)
                return formatJoules(device.toObject().value("joules").toDouble()) + " (" + device.toObject().value("source").toString() + ")";
        return QString();
    };
    for (const Side* s : {&a, &b})
        for (const QJsonValue& device : s->metrics.value("power_devices").toArray())
            if (!devices.contains(device.toObject().value("label").toString())) devices << device.toObject().value("label").toString();
    for (const QString& label : devices)
        add(QObject::tr("Energy: %1").arg(label), [&](const Side& s) { return deviceEnergy(s, label); });
    return rows;
}

}  // namespace clusterdesk::ui
