// Runs clustering jobs through session::RunSession on the thread it is moved to and
// reports through signals (queued to the window's thread): every iteration, power
// samples while the run executes, the projection for the Clusters graph, and the
// outcome. Cancelling is an atomic flag the engine reads every iteration, so
// requestCancel() never waits. The run store is opened on that thread (a RunStore
// belongs to one thread) and kept open between runs, so writing 1M labels never
// holds up the window.
#pragma once

#include "engine/cluster/params.h"
#include "engine/data/dataset.h"
#include "engine/exec/pool_launcher.h"
#include "engine/report/membership.h"
#include "engine/store/run_store.h"
#include "ui/run_model.h"

#include <QObject>
#include <QString>

#include <atomic>
#include <memory>

namespace clusterdesk {
class PowerSampler;
}

namespace clusterdesk::gui {

struct RunJob {
    std::shared_ptr<const Dataset> data;
    KMeansParams params;
    QString topology = "host";
    int threads = 0;  // host threads (0 = every core)
    PoolOptions pool;  // launcher, its arguments and the worker, for pool topologies
    QString storePath;  // the run store it is recorded in (empty: not recorded)
    std::vector<store::LineageEdge> parents;  // e.g. the run this one re-runs
};

class RunController : public QObject {
    Q_OBJECT
public:
    explicit RunController(QObject* parent = nullptr);
    ~RunController() override;

    // Any thread. Stops the current run after the iteration in progress.
    void requestCancel();
    // UI thread, before queuing run(): a fresh run starts uncancelled.
    void resetCancel();
    // The iteration the run had completed when cancel was requested (-1: never).
    int iterationAtCancel() const { return m_iterationAtCancel.load(); }

public slots:
    void run(const clusterdesk::gui::RunJob& job);

signals:
    void iterationDone(const clusterdesk::IterationStats& stats);
    void powerSampled(const clusterdesk::ui::PowerBatch& batch);
    void projected(const clusterdesk::ui::ClusterProjection& projection);
    // Every row's cluster and distance to its centroid, for the Members tab.
    void membersReady(std::shared_ptr<const clusterdesk::report::Membership> members);
    void finished(const clusterdesk::ui::RunOutcome& outcome);
    // The run is in the store (emitted before finished), or could not be recorded.
    void recorded(const QString& runId);
    void recordFailed(const QString& message);

private:
    void emitNewPower(bool all);
    // The store at path, opened once; null (and recordFailed emitted) when it cannot be.
    store::RunStore* storeAt(const QString& path);

    std::atomic<bool> m_cancel{false};
    std::atomic<int> m_lastIteration{0};
    std::atomic<int> m_iterationAtCancel{-1};
    std::unique_ptr<PowerSampler> m_power;  // created on the run thread, which owns it
    std::size_t m_powerSent = 0;
    QStringList m_powerDevices;
    std::unique_ptr<store::RunStore> m_store;  // on the run thread
};

}  // namespace clusterdesk::gui

Q_DECLARE_METATYPE(clusterdesk::gui::RunJob)
