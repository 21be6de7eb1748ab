// The runs the window shows: the live run and any others beside it (a comparison of
// topologies, stored runs, the updates of a live session), in the order they were
// added. The graphs read named series from it: Evolution, Latency and Power draw every
// member, Clusters the selected one. UI thread only.
#pragma once

#include "run_series.h"

#include <QObject>
#include <QString>

#include <memory>
#include <vector>

namespace clusterdesk::ui {

class RunSet : public QObject {
    Q_OBJECT
public:
    explicit RunSet(QObject* parent = nullptr);
    ~RunSet() override;

    // A new empty member; an id already held is an error in the caller (asserted).
    RunSeries& add(const QString& id, const QString& name);
    // Removes the member with this id (its graphs go at the next redraw); false when
    // there is none.
    bool remove(const QString& id);
    RunSeries* find(const QString& id) const;

    int size() const { return static_cast<int>(m_runs.size()); }
    const RunSeries& at(int i) const { return *m_runs.at(static_cast<std::size_t>(i)); }

    // The member shown where only one run fits (Clusters): the one selected last, else
    // the first added; null when the set is empty.
    const RunSeries* selected() const;
    void select(const QString& id);

signals:
    void changed();      // a member changed, or one was added, removed or selected
    void runFinished();  // a member finished

private:
    std::vector<std::unique_ptr<RunSeries>> m_runs;
    QString m_selected;
};

}  // namespace clusterdesk::ui
