// Node-pool editor: where a pool run's MPI ranks go. Either N ranks on this machine
// (pool:N) or a table of hosts (name, slots, GPUs) written as an OpenMPI hostfile
// (pool:HOSTFILE, one rank per slot), plus the launcher (mpirun), its extra arguments
// and the worker program the ranks start, and whether each rank clusters on a GPU of its
// node (pool:...:cuda, the ranks joined by NCCL over MPI) or on its CPU. Every field is kept in QSettings ("pool/...")
// as soon as it changes. "Test connection" asks (testConnectionRequested) for a trivial
// job on the pool; showProbeResult() lists what each rank answered.
#pragma once

#include "engine/exec/pool_launcher.h"

#include <QString>
#include <QStringList>
#include <QWidget>

class QCheckBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QRadioButton;
class QSpinBox;
class QTableWidget;

namespace clusterdesk::ui {

// What one rank of the pool said about itself.
struct RankProbe {
    int rank = 0;
    QString host, backend, device;
};

class PoolEditor : public QWidget {
    Q_OBJECT
public:
    explicit PoolEditor(QWidget* parent = nullptr);

    // Where the hostfile is written (default: the application's data folder).
    void setHostfilePath(const QString& path) { m_hostfilePath = path; }

    // For a run about to start: "pool:N", or writes the hosts to the hostfile and
    // returns "pool:HOSTFILE"; ending in ":cuda" when the ranks use GPUs. Empty, with the
    // reason in error, when the table has a bad row or the file cannot be written.
    QString writeTopology(QString& error);
    // The hostfile text for the table (OpenMPI: "name slots=N", GPUs as a comment).
    QString hostfileText(QString& error) const;
    // Launcher, its extra arguments (split like a shell would, never run by one) and
    // the worker program.
    PoolOptions options() const;

    // Fills the fields (what the settings hold, or what a test sets).
    void setLocalRanks(int ranks);
    void setHosts(const QList<QStringList>& rows);  // {name, slots, gpus} per row
    void setUseHosts(bool hosts);
    void setGpuRanks(bool gpus);
    bool gpuRanks() const;
    void setLauncher(const QString& launcher, const QString& extraArgs);
    void setWorker(const QString& path);

public slots:
    // The probe's outcome: one entry per rank, or why it failed.
    void showProbeResult(const QList<clusterdesk::ui::RankProbe>& ranks, const QString& error);

signals:
    void testConnectionRequested();
    // The ranks were moved onto GPUs or off them.
    void gpuRanksChanged(bool gpus);

private:
    void load();
    void save() const;
    void updateEnabled();
    void addHostRow(const QString& name, const QString& slotCount, const QString& gpuCount);

    QRadioButton* m_local = nullptr;
    QRadioButton* m_hosts = nullptr;
    QSpinBox* m_ranks = nullptr;
    QTableWidget* m_table = nullptr;
    QPushButton* m_addHost = nullptr;
    QPushButton* m_removeHost = nullptr;
    QCheckBox* m_gpuRanks = nullptr;
    QLineEdit* m_launcher = nullptr;
    QLineEdit* m_extraArgs = nullptr;
    QLineEdit* m_worker = nullptr;
    QPushButton* m_test = nullptr;
    QLabel* m_probe = nullptr;
    QString m_hostfilePath;
    bool m_loading = false;
};

}  // namespace clusterdesk::ui

Q_DECLARE_METATYPE(clusterdesk::ui::RankProbe)
