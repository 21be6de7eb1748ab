// Which topologies a comparison runs on: a checkable list of those this machine runs
// (host@1, host, shards:N, pool:N) and of catalog hardware the model predicts
// (model:ID, model:IDxN), plus a free-text field for any other spelling, comma-
// separated as clusterdesk-cli whatif --topologies takes them (e.g.
// "model:h200x8:nodes=4,host@4"). The glue checks the spellings.
#pragma once

#include <QWidget>

class QLineEdit;
class QListWidget;

namespace clusterdesk::ui {

class TopologyPicker : public QWidget {
    Q_OBJECT
public:
    explicit TopologyPicker(QWidget* parent = nullptr);

    // The modeled choices (built from the catalog's devices by the glue).
    void setModeledTopologies(const QStringList& spellings);
    // Checked ones in list order, then those typed in the field (comma-separated).
    QStringList topologies() const;
    // Checks exactly these; spellings not in the list go to the field.
    void select(const QStringList& spellings);

    QListWidget& list() { return *m_list; }
    QLineEdit& extra() { return *m_extra; }

private:
    void addChoices(const QString& heading, const QStringList& spellings, const QStringList& checked);

    QListWidget* m_list = nullptr;
    QLineEdit* m_extra = nullptr;
};

}  // namespace clusterdesk::ui
