// Topology panel: where a run executes. Host threads (by default every core but one,
// so the window stays responsive while the run uses the rest), host shards, or the
// local GPUs with their names and memory, each with a checkbox (disabled, with the reason,
// when there are none), or a node pool of MPI ranks (PoolEditor).
#pragma once

#include "engine/exec/pool_launcher.h"

#include <QStringList>
#include <QWidget>

class QButtonGroup;
class QGroupBox;
class QLabel;
class QListWidget;
class QRadioButton;
class QSpinBox;

namespace clusterdesk::ui {

class PoolEditor;

class TopologyPanel : public QWidget {
    Q_OBJECT
public:
    explicit TopologyPanel(QWidget* parent = nullptr);

    // The local GPUs ("GPU 0 NVIDIA H200, 140 GiB"); none: reason says why.
    void setGpus(const QStringList& gpus, const QString& reason);

    // For a run about to start, as parseTopology reads it: "host", "shards:N",
    // "cuda:0,1,..." (the checked GPUs), "pool:N" or "pool:HOSTFILE" (the hostfile is
    // written now). Empty, with the reason in *error, when the choice cannot run (no GPU
    // checked, a bad pool host row, a hostfile that cannot be written).
    QString writeTopology(QString* error = nullptr);
    // Launcher, arguments and worker for a pool topology.
    PoolOptions poolOptions() const;
    PoolEditor& poolEditor() { return *m_poolEditor; }
    // Host threads for the run (0 = every core).
    int threads() const;
    // Whether the chosen topology clusters on GPUs (the local ones, or pool ranks on
    // theirs): only there does the precision of the distance GEMM apply.
    bool onGpus() const;

    // Every core but one (at least one): the run's default.
    static int defaultThreads();

signals:
    void onGpusChanged(bool onGpus);

private:
    void updateEnabled();

    QRadioButton* m_onHost = nullptr;
    QRadioButton* m_onGpus = nullptr;
    QRadioButton* m_onPool = nullptr;
    QButtonGroup* m_where = nullptr;  // host, GPUs or pool: one of them
    PoolEditor* m_poolEditor = nullptr;
    bool m_wantGpus = false;  // the saved choice, applied when detection finds GPUs
    QSpinBox* m_threads = nullptr;
    QSpinBox* m_shards = nullptr;
    QGroupBox* m_gpuBox = nullptr;
    QListWidget* m_gpuList = nullptr;
    QLabel* m_gpuReason = nullptr;
};

}  // namespace clusterdesk::ui
