// Two runs side by side: parameters, topology, metrics, and the ARI between their
// labels (1 = the same partition). Non-modal, so the History table stays usable.
#pragma once

#include "engine/store/run_store.h"

#include <QDialog>

#include <optional>

class QLabel;
class QTableWidget;

namespace clusterdesk::ui {

class CompareDialog : public QDialog {
    Q_OBJECT
public:
    explicit CompareDialog(QWidget* parent = nullptr);

    // ari: between the two runs' labels; when there is none, why says why.
    void showRuns(const store::RunInfo& a, const store::RunInfo& b, std::optional<double> ari, const QString& why);

    // "ARI between the labels: 0.9876", or why there is none.
    QString ariText() const;
    QTableWidget& table() { return *m_table; }

private:
    QTableWidget* m_table = nullptr;
    QLabel* m_ari = nullptr;
};

}  // namespace clusterdesk::ui
