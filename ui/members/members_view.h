// The Members tab: which asset is in which cluster, sortable by any column and
// filtered by a substring of the name or a cluster number ("7"), both worked out off
// the UI thread by the model; Export writes every member as CSV with the assets' names.
#pragma once

#include "member_table_model.h"

#include <QWidget>

class QLabel;
class QLineEdit;
class QPushButton;
class QTableView;

namespace clusterdesk::ui {

class MembersView : public QWidget {
    Q_OBJECT
public:
    explicit MembersView(QWidget* parent = nullptr);

    // Of the run shown (null: none yet); name says which run it is.
    void setMembership(std::shared_ptr<const report::Membership> membership, const QString& name);

    MemberTableModel& model() { return *m_model; }
    QTableView& table() { return *m_table; }

signals:
    void exportRequested();

private:
    MemberTableModel* m_model = nullptr;
    QTableView* m_table = nullptr;
    QLineEdit* m_filter = nullptr;
    QLabel* m_caption = nullptr;
    QLabel* m_arranging = nullptr;  // shown while a sort or filter is worked out
    QPushButton* m_export = nullptr;
};

}  // namespace clusterdesk::ui
