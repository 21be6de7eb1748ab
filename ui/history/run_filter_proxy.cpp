#include "run_filter_proxy.h"

#include "run_table_model.h"

namespace clusterdesk::ui {

RunFilterProxy::RunFilterProxy(QObject* parent)
    : QSortFilterProxyModel(parent)
{
    setSortRole(RunTableModel::kSortRole);
}

void RunFilterProxy::setText(const QString& text)
{
    m_text = text.trimmed();
    invalidateFilter();
}

void RunFilterProxy::setStatus(const QString& status)
{
    m_status = status;
    invalidateFilter();
}

bool RunFilterProxy::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const
{
    const QAbstractItemModel* model = sourceModel();
    if (!m_status.isEmpty() && !model->index(sourceRow, RunTableModel::Status, sourceParent).data().toString().startsWith(m_status))
        return false;
    if (m_text.isEmpty()) return true;
    if (model->index(sourceRow, 0, sourceParent).data(RunTableModel::kRunIdRole).toString().contains(m_text, Qt::CaseInsensitive))
        return true;
    for (int c = 0; c < model->columnCount(sourceParent); ++c)
        if (model->index(sourceRow, c, sourceParent).data().toString().contains(m_text, Qt::CaseInsensitive)) return true;
    return false;
}

}  // namespace clusterdesk::ui
