// The History tab: every recorded run in a sortable, filterable table (RunTableModel
// behind a RunFilterProxy), the Lineage view of the selected run, and the actions on
// runs: refresh, re-run, delete (after a confirmation) and compare two. It reads
// nothing itself: it asks through signals and shows what the glue gives it.
#pragma once

#include "engine/store/run_store.h"

#include <QWidget>

#include <vector>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QTableView;

namespace clusterdesk::ui {

class LineageView;
class RunFilterProxy;
class RunTableModel;

class HistoryView : public QWidget {
    Q_OBJECT
public:
    explicit HistoryView(QWidget* parent = nullptr);

    // Replaces the table's rows, keeping the selection where the run is still listed.
    void setRuns(std::vector<store::RunInfo> runs);
    // Selects the run's row (and so asks to show it); false when it is not listed.
    bool selectRun(const QString& runId);
    // Ids of the selected runs, in table order.
    QStringList selectedRunIds() const;
    // A line under the table: what was loaded, or why something could not be.
    void setDetail(const QString& text);
    QString detail() const;

    RunTableModel& model() { return *m_model; }
    RunFilterProxy& proxy() { return *m_proxy; }
    // Whether deleted runs are listed too ("Deleted" ticked).
    bool showsDeleted() const;
    QTableView& table() { return *m_table; }
    LineageView& lineage() { return *m_lineage; }
    QPushButton& rerunButton() { return *m_rerun; }
    QPushButton& deleteButton() { return *m_delete; }
    QPushButton& compareButton() { return *m_compare; }
    QPushButton& reportButton() { return *m_report; }
    QPushButton& refreshButton() { return *m_refresh; }

signals:
    void refreshRequested();
    void runSelected(const QString& runId);
    void rerunRequested(const QString& runId);
    void deleteRequested(const QString& runId);  // after the user confirmed
    void compareRequested(const QString& first, const QString& second);
    void reportRequested(const QStringList& runIds);

private:
    void updateActions();
    void selectionChanged();
    void confirmDelete();

    RunTableModel* m_model = nullptr;
    RunFilterProxy* m_proxy = nullptr;
    QTableView* m_table = nullptr;
    LineageView* m_lineage = nullptr;
    QLineEdit* m_filter = nullptr;
    QComboBox* m_status = nullptr;
    QCheckBox* m_showDeleted = nullptr;
    QLabel* m_detail = nullptr;
    QPushButton* m_refresh = nullptr;
    QPushButton* m_rerun = nullptr;
    QPushButton* m_delete = nullptr;
    QPushButton* m_compare = nullptr;
    QPushButton* m_report = nullptr;
    bool m_resetting = false;  // setRuns restores the selection: not a new choice
};

}  // namespace clusterdesk::ui
