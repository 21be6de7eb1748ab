// Sorting and filtering of the History table: a substring (case-insensitive) of any
// column, a status, or both. Sorts by RunTableModel::kSortRole, so numbers sort as numbers.
#pragma once

#include <QSortFilterProxyModel>

namespace clusterdesk::ui {

class RunFilterProxy : public QSortFilterProxyModel {
    Q_OBJECT
public:
    explicit RunFilterProxy(QObject* parent = nullptr);

    void setText(const QString& text);
    // "ok", "failed", ... as the Status column starts; empty for any.
    void setStatus(const QString& status);

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;

private:
    QString m_text;
    QString m_status;
};

}  // namespace clusterdesk::ui
