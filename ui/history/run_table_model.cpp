#include "run_table_model.h"

#include "ui/units.h"

#include "engine/data/source_spec.h"
#include "engine/exec/topology.h"

#include <QBrush>
#include <QColor>
#include <QDateTime>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>

#include <limits>

namespace clusterdesk::ui {
namespace {

double secondsBetween(const std::string& started, const std::string& ended)
{
    const QDateTime a = QDateTime::fromString(QString::fromStdString(started), Qt::ISODateWithMs);
    const QDateTime b = QDateTime::fromString(QString::fromStdString(ended), Qt::ISODateWithMs);
    return a.isValid() && b.isValid() ? a.msecsTo(b) / 1000.0 : -1;
}

QString shortText(const std::string& text, int length)
{
    return QString::fromStdString(text).left(length);
}

// A file by its name (the full path is in the tooltip), a demo by its spec.
QString datasetLabel(const store::RunInfo& run)
{
    const QString source = QString::fromStdString(run.dataSource.location);
    return isGenerated(run.dataSource) ? source : QFileInfo(source).fileName();
}

QColor statusColor(store::RunStatus status)
{
    switch (status) {
    case store::RunStatus::Ok: return QColor(0x2e, 0x7d, 0x32);
    case store::RunStatus::Failed: return QColor(0xc6, 0x28, 0x28);
    case store::RunStatus::Cancelled: return QColor(0xef, 0x6c, 0x00);
    case store::RunStatus::Running: return QColor(0x15, 0x65, 0xc0);
    }
    return {};
}

}  // namespace

RunTableModel::RunTableModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

void RunTableModel::setRuns(std::vector<store::RunInfo> runs)
{
    beginResetModel();
    m_runs = std::move(runs);
    m_measures.clear();
    for (const store::RunInfo& run : m_runs) {
        Measures m;
        const QJsonObject metrics = QJsonDocument::fromJson(QByteArray::fromStdString(run.metricsJson)).object();
        auto take = [&](const char* key, double& value, bool& has) {
            if (metrics.value(key).isDouble()) {
                value = metrics.value(key).toDouble();
                has = true;
            }
        };
        take("k", m.k, m.hasK);
        take("inertia", m.inertia, m.hasInertia);
        take("ari", m.ari, m.hasAri);
        take("seconds_total", m.seconds, m.hasSeconds);
        if (!m.hasSeconds && !run.endedAt.empty()) {
            m.seconds = secondsBetween(run.startedAt, run.endedAt);
            m.hasSeconds = m.seconds >= 0;
        }
        m_measures.push_back(m);
    }
    endResetModel();
}

int RunTableModel::rowOf(const QString& runId) const
{
    const std::string id = runId.toStdString();
    for (std::size_t i = 0; i < m_runs.size(); ++i)
        if (m_runs[i].id == id) return static_cast<int>(i);
    return -1;
}

int RunTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_runs.size());
}

int RunTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant RunTableModel::display(const store::RunInfo& run, const Measures& m, int column) const
{
    switch (column) {
    case Status: return QString::fromStdString(store::toString(run.status)) + (run.deleted ? tr(" (deleted)") : QString());
    case Dataset: return datasetLabel(run);
    case Algorithm: return QString::fromStdString(run.algorithm);
    case K: return m.hasK ? QVariant(static_cast<int>(m.k)) : QVariant();
    case Mode: return QString::fromStdString(run.mode);
    case Topology: return QString::fromStdString(spelledWithThreads(run.topology, run.threads));
    case Duration: return m.hasSeconds ? QVariant(formatSeconds(m.seconds)) : QVariant();
    case Energy: return run.energyJ ? QVariant(formatJoules(*run.energyJ)) : QVariant();
    case Inertia: return m.hasInertia ? QVariant(QString::number(m.inertia, 'g', 6)) : QVariant();
    case Ari: return m.hasAri ? QVariant(QString::number(m.ari, 'f', 4)) : QVariant();
    case Started: return QString::fromStdString(run.startedAt).replace('T', ' ').left(19);
    case Run: return shortText(run.id, 8);
    }
    return {};
}

QVariant RunTableModel::sortKey(const store::RunInfo& run, const Measures& m, int column) const
{
    constexpr double missing = -std::numeric_limits<double>::infinity();
    switch (column) {
    case K: return m.hasK ? m.k : missing;
    case Duration: return m.hasSeconds ? m.seconds : missing;
    case Energy: return run.energyJ ? *run.energyJ : missing;
    case Inertia: return m.hasInertia ? m.inertia : missing;
    case Ari: return m.hasAri ? m.ari : missing;
    case Started: return QString::fromStdString(run.startedAt);  // ISO 8601 sorts as text
    default: return display(run, m, column);
    }
}

QVariant RunTableModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount()) return {};
    const store::RunInfo& run = m_runs[static_cast<std::size_t>(index.row())];
    const Measures& m = m_measures[static_cast<std::size_t>(index.row())];
    switch (role) {
    case Qt::DisplayRole: return display(run, m, index.column());
    case kSortRole: return sortKey(run, m, index.column());
    case kRunIdRole: return QString::fromStdString(run.id);
    case Qt::ForegroundRole:
        return index.column() == Status ? QVariant(QBrush(statusColor(run.status))) : QVariant();
    case Qt::TextAlignmentRole:
        return index.column() >= K && index.column() <= Ari && index.column() != Mode && index.column() != Topology
                   ? QVariant(int(Qt::AlignRight | Qt::AlignVCenter))
                   : QVariant();
    case Qt::ToolTipRole:
        if (index.column() == Dataset) return QString::fromStdString(run.dataSource.location + "\n" + run.datasetHash);
        if (index.column() == Status && !run.failure.empty()) return QString::fromStdString(run.failure);
        if (index.column() == Run) return QString::fromStdString(run.id);
        return {};
    }
    return {};
}

QVariant RunTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    static const char* const titles[ColumnCount] = {"Status", "Dataset",  "Algorithm", "k",   "Mode",    "Topology",
                                                    "Time", "Energy", "Inertia",   "ARI", "Started", "Run"};
    return section >= 0 && section < ColumnCount ? tr(titles[section]) : QVariant();
}

}  // namespace clusterdesk::ui
