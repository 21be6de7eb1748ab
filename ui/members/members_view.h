// The Members tab: which asset is in which cluster, sortable by any column and
// filtered by a substring of the name or a cluster number ("7"); Export writes what
// the table holds as CSV with the assets' names.
#pragma once

#include "member_table_model.h"

#include <QWidget>

class QLabel;
class QLineEdit;
class QPushButton;
class QSortFilterProxyModel;
class QTableView;

namespace clusterdesk::ui {

class MembersView : public QWidget {
    Q_OBJECT
public:
    explicit MembersView(QWidget* parent = nullptr);

    // Of the run shown (null: none yet); name says which run it is.
    void setMembership(std::shared_ptr<const report::Membership> membership, const QString& name);

    MemberTableModel& model() { return *m_model; }
    QSortFilterProxyModel& proxy() { return *m_proxy; }
    QTableView& table() { return *m_table; }

signals:
    void exportRequested();

private:
    MemberTableModel* m_model = nullptr;
    QSortFilterProxyModel* m_proxy = nullptr;
    QTableView* m_table = nullptr;
    QLineEdit* m_filter = nullptr;
    QLabel* m_caption = nullptr;
    QPushButton* m_export = nullptr;
};

}  // namespace clusterdesk::ui
