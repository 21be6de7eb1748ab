#include "compare_dialog.h"

#include "ui/units.h"

#include "../plots/evolution_plot.h"

#include <QHeaderView>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>

#include <vector>

namespace clusterdesk::ui {
namespace {

QString text(const std::string& s)
{
    return QString::fromStdString(s);
}

// A JSON value as a person reads it: numbers without trailing noise, objects compact.
QString jsonText(const QJsonValue& v)
{
    if (v.isUndefined() || v.isNull()) return {};
    if (v.isDouble()) return QString::number(v.toDouble(), 'g', 8);
    if (v.isBool()) return v.toBool() ? "true" : "false";
    if (v.isString()) return v.toString();
    const QJsonDocument doc = v.isArray() ? QJsonDocument(v.toArray()) : QJsonDocument(v.toObject());
    return QString::fromUtf8(doc.toJson(QJsonDocument::Compact));
}

QJsonObject parse(const std::string& json)
{
    return QJsonDocument::fromJson(QByteArray::fromStdString(json)).object();
}

}  // namespace

CompareDialog::CompareDialog(QWidget* parent)
    : QDialog(parent)
{
    setWindowTitle(tr("Compare runs"));
    setObjectName("compareDialog");
    auto* layout = new QVBoxLayout(this);
    m_ari = new QLabel(this);
    m_ari->setObjectName("compareAri");
    QFont font = m_ari->font();
    font.setBold(true);
    m_ari->setFont(font);
    m_ari->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_table = new QTableWidget(this);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    m_evolution = new EvolutionPlot(this);
    m_evolution->setMinimumHeight(260);
    layout->addWidget(m_ari);
    layout->addWidget(m_table, 1);
    layout->addWidget(m_evolution, 1);
    resize(720, 820);
}

QString CompareDialog::ariText() const
{
    return m_ari->text();
}

void CompareDialog::showRuns(const store::RunInfo& a, const store::RunInfo& b, std::optional<double> ari, const QString& why)
{
    m_ari->setText(ari ? tr("ARI between the labels: %1").arg(*ari, 0, 'f', 4) : tr("No ARI: %1").arg(why));

    // One row per field: its title and the two runs' values.
    struct Row {
        QString title, a, b;
    };
    std::vector<Row> rows;
    auto add = [&](const QString& title, const auto& field) { rows.push_back({title, field(a), field(b)}); };
    add(tr("Run"), [](const store::RunInfo& r) { return text(r.id); });
    add(tr("Status"), [](const store::RunInfo& r) { return text(store::toString(r.status)); });
    add(tr("Dataset"), [](const store::RunInfo& r) { return text(r.dataSource.location); });
    add(tr("Dataset hash"), [](const store::RunInfo& r) { return text(r.datasetHash).left(16); });
    add(tr("Algorithm"), [](const store::RunInfo& r) { return text(r.algorithm); });
    add(tr("Mode"), [](const store::RunInfo& r) { return text(r.mode); });
    add(tr("Precision"), [](const store::RunInfo& r) { return text(r.precision); });
    add(tr("Seed"), [](const store::RunInfo& r) { return text(r.seed); });
    add(tr("Topology"), [](const store::RunInfo& r) { return text(r.topology); });
    add(tr("Threads"), [](const store::RunInfo& r) { return QString::number(r.threads); });
    add(tr("Backend"), [](const store::RunInfo& r) { return text(r.backend); });
    add(tr("Energy"), [](const store::RunInfo& r) { return r.energyJ ? formatJoules(*r.energyJ) : QString(); });
    add(tr("Host"), [](const store::RunInfo& r) { return text(r.host); });
    add(tr("Engine"), [](const store::RunInfo& r) { return text(r.engineVersion + " " + r.gitCommit); });
    // Every parameter and metric either run has, in a stable order.
    auto addKeys = [&](const QJsonObject& x, const QJsonObject& y) {
        QStringList keys = x.keys() + y.keys();
        keys.removeDuplicates();
        keys.sort();
        for (const QString& key : keys) rows.push_back({key, jsonText(x.value(key)), jsonText(y.value(key))});
    };
    addKeys(parse(a.paramsJson), parse(b.paramsJson));
    addKeys(parse(a.metricsJson), parse(b.metricsJson));

    m_table->clear();
    m_table->setColumnCount(2);
    m_table->setRowCount(static_cast<int>(rows.size()));
    m_table->setHorizontalHeaderLabels({tr("run %1").arg(text(a.id).left(8)), tr("run %1").arg(text(b.id).left(8))});
    for (int i = 0; i < static_cast<int>(rows.size()); ++i) {
        const Row& row = rows[static_cast<std::size_t>(i)];
        m_table->setVerticalHeaderItem(i, new QTableWidgetItem(row.title));
        auto* ia = new QTableWidgetItem(row.a);
        auto* ib = new QTableWidgetItem(row.b);
        if (row.a != row.b) {  // what differs stands out
            QFont bold = ia->font();
            bold.setBold(true);
            ia->setFont(bold);
            ib->setFont(bold);
        }
        m_table->setItem(i, 0, ia);
        m_table->setItem(i, 1, ib);
    }
    m_evolution->refresh(m_runs);
}

}  // namespace clusterdesk::ui
