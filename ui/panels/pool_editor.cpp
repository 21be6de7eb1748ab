#include "pool_editor.h"

#include <QCheckBox>
#include <QDir>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QProcess>
#include <QPushButton>
#include <QRadioButton>
#include <QRegularExpression>
#include <QSaveFile>
#include <QSettings>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTableWidget>
#include <QVBoxLayout>

namespace clusterdesk::ui {
namespace {

enum Column { kHost, kSlots, kGpus };

QString cell(const QTableWidget* table, int row, int column)
{
    const QTableWidgetItem* item = table->item(row, column);
    return item ? item->text().trimmed() : QString();
}

// A whole number >= min in a table cell; empty reads as `fallback`.
bool readCount(const QString& text, int min, int fallback, int& value)
{
    if (text.isEmpty()) {
        value = fallback;
        return true;
    }
    bool ok = false;
    value = text.toInt(&ok);
    return ok && value >= min;
}

}  // namespace

PoolEditor::PoolEditor(QWidget* parent)
    : QWidget(parent)
    , m_hostfilePath(QDir(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation)).filePath("pool.hostfile"))
{
    setObjectName("poolEditor");
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);

    m_local = new QRadioButton(tr("Ranks on this machine"), this);
    m_local->setObjectName("poolLocal");
    m_local->setChecked(true);
    m_ranks = new QSpinBox(this);
    m_ranks->setObjectName("poolRanks");
    m_ranks->setRange(1, 256);
    m_ranks->setValue(2);
    m_ranks->setPrefix(tr("Local ranks: "));
    auto* localRow = new QHBoxLayout;
    localRow->addWidget(m_local);
    localRow->addWidget(m_ranks, 1);
    layout->addLayout(localRow);

    m_hosts = new QRadioButton(tr("Hosts (one rank per slot)"), this);
    m_hosts->setObjectName("poolHosts");
    layout->addWidget(m_hosts);
    m_table = new QTableWidget(0, 3, this);
    m_table->setObjectName("poolHostTable");
    m_table->setHorizontalHeaderLabels({tr("Host"), tr("Slots"), tr("GPUs")});
    m_table->horizontalHeader()->setSectionResizeMode(kHost, QHeaderView::Stretch);
    m_table->verticalHeader()->setVisible(false);
    m_table->setMaximumHeight(110);
    m_table->setToolTip(tr("Each host runs as many ranks as it has slots. GPUs per host are recorded in the "
                           "hostfile for reference; with \"Ranks use GPUs\" each rank takes one of its node's GPUs "
                           "in turn."));
    layout->addWidget(m_table);
    auto* tableButtons = new QHBoxLayout;
    m_addHost = new QPushButton(tr("Add host"), this);
    m_addHost->setObjectName("poolAddHost");
    m_removeHost = new QPushButton(tr("Remove"), this);
    m_removeHost->setObjectName("poolRemoveHost");
    tableButtons->addWidget(m_addHost);
    tableButtons->addWidget(m_removeHost);
    tableButtons->addStretch(1);
    layout->addLayout(tableButtons);

    m_gpuRanks = new QCheckBox(tr("Ranks use GPUs (NCCL between them)"), this);
    m_gpuRanks->setObjectName("poolGpuRanks");
    m_gpuRanks->setToolTip(tr("Each rank clusters on a GPU of its node (its rank on the node modulo the node's GPUs) "
                              "and the ranks exchange sums over NCCL, bootstrapped through MPI; a rank without a "
                              "GPU fails the run with its reason. Unticked, ranks use their CPU and MPI."));
    layout->addWidget(m_gpuRanks);

    auto* form = new QFormLayout;
    m_launcher = new QLineEdit("mpirun", this);
    m_launcher->setObjectName("poolLauncher");
    m_launcher->setToolTip(tr("The MPI launcher: a name searched on PATH, or a full path"));
    m_extraArgs = new QLineEdit(this);
    m_extraArgs->setObjectName("poolExtraArgs");
    m_extraArgs->setPlaceholderText("--mca btl self,vader,tcp");
    m_extraArgs->setToolTip(tr("Extra launcher arguments, split like a shell would (quotes group words); "
                               "passed as a list, never run through a shell"));
    m_worker = new QLineEdit(this);
    m_worker->setObjectName("poolWorker");
    m_worker->setPlaceholderText(tr("clusterdesk-worker beside this program"));
    m_worker->setToolTip(tr("The worker program every rank starts (the same path on every host)"));
    form->addRow(tr("Launcher"), m_launcher);
    form->addRow(tr("Extra arguments"), m_extraArgs);
    form->addRow(tr("Worker"), m_worker);
    layout->addLayout(form);

    m_test = new QPushButton(tr("Test connection"), this);
    m_test->setObjectName("poolTest");
    m_test->setToolTip(tr("Starts every rank of the pool once and lists the host, backend and device each reports"));
    m_probe = new QLabel(this);
    m_probe->setObjectName("poolProbe");
    m_probe->setWordWrap(true);
    m_probe->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_test);
    layout->addWidget(m_probe);

    load();
    auto saveNow = [this] {
        if (!m_loading) save();
    };
    connect(m_local, &QRadioButton::toggled, this, [this, saveNow] {
        updateEnabled();
        saveNow();
    });
    connect(m_ranks, &QSpinBox::valueChanged, this, saveNow);
    connect(m_gpuRanks, &QCheckBox::toggled, this, saveNow);
    connect(m_gpuRanks, &QCheckBox::toggled, this, &PoolEditor::gpuRanksChanged);
    connect(m_table, &QTableWidget::itemChanged, this, saveNow);
    connect(m_launcher, &QLineEdit::editingFinished, this, saveNow);
    connect(m_extraArgs, &QLineEdit::editingFinished, this, saveNow);
    connect(m_worker, &QLineEdit::editingFinished, this, saveNow);
    connect(m_addHost, &QPushButton::clicked, this, [this, saveNow] {
        addHostRow("localhost", "1", "0");
        m_table->editItem(m_table->item(m_table->rowCount() - 1, kHost));
        saveNow();
    });
    connect(m_removeHost, &QPushButton::clicked, this, [this, saveNow] {
        const int row = m_table->currentRow();
        m_table->removeRow(row >= 0 ? row : m_table->rowCount() - 1);
        saveNow();
    });
    connect(m_test, &QPushButton::clicked, this, [this] {
        m_test->setEnabled(false);
        m_probe->setText(tr("Testing the pool..."));
        emit testConnectionRequested();
    });
    updateEnabled();
}

void PoolEditor::addHostRow(const QString& name, const QString& slotCount, const QString& gpuCount)
{
    const int row = m_table->rowCount();
    m_table->insertRow(row);
    m_table->setItem(row, kHost, new QTableWidgetItem(name));
    m_table->setItem(row, kSlots, new QTableWidgetItem(slotCount));
    m_table->setItem(row, kGpus, new QTableWidgetItem(gpuCount));
}

void PoolEditor::updateEnabled()
{
    const bool hosts = m_hosts->isChecked();
    m_ranks->setEnabled(!hosts);
    m_table->setEnabled(hosts);
    m_addHost->setEnabled(hosts);
    m_removeHost->setEnabled(hosts);
}

void PoolEditor::load()
{
    m_loading = true;
    QSettings settings;
    settings.beginGroup("pool");
    m_ranks->setValue(settings.value("localRanks", 2).toInt());
    m_launcher->setText(settings.value("launcher", "mpirun").toString());
    m_extraArgs->setText(settings.value("extraArgs").toString());
    m_worker->setText(settings.value("worker").toString());
    m_gpuRanks->setChecked(settings.value("gpuRanks", false).toBool());
    const int rows = settings.beginReadArray("hosts");
    for (int i = 0; i < rows; ++i) {
        settings.setArrayIndex(i);
        addHostRow(settings.value("name").toString(), settings.value("slots").toString(), settings.value("gpus").toString());
    }
    settings.endArray();
    (settings.value("useHosts", false).toBool() ? m_hosts : m_local)->setChecked(true);
    m_loading = false;
}

void PoolEditor::save() const
{
    QSettings settings;
    settings.beginGroup("pool");
    settings.setValue("useHosts", m_hosts->isChecked());
    settings.setValue("localRanks", m_ranks->value());
    settings.setValue("launcher", m_launcher->text());
    settings.setValue("extraArgs", m_extraArgs->text());
    settings.setValue("worker", m_worker->text());
    settings.setValue("gpuRanks", m_gpuRanks->isChecked());
    settings.beginWriteArray("hosts", m_table->rowCount());
    for (int row = 0; row < m_table->rowCount(); ++row) {
        settings.setArrayIndex(row);
        settings.setValue("name", cell(m_table, row, kHost));
        settings.setValue("slots", cell(m_table, row, kSlots));
        settings.setValue("gpus", cell(m_table, row, kGpus));
    }
    settings.endArray();
}

void PoolEditor::setLocalRanks(int ranks)
{
    m_ranks->setValue(ranks);
}

void PoolEditor::setHosts(const QList<QStringList>& rows)
{
    m_table->setRowCount(0);
    for (const QStringList& r : rows) addHostRow(r.value(kHost), r.value(kSlots), r.value(kGpus));
    save();
}

void PoolEditor::setUseHosts(bool hosts)
{
    (hosts ? m_hosts : m_local)->setChecked(true);
}

void PoolEditor::setGpuRanks(bool gpus)
{
    m_gpuRanks->setChecked(gpus);
    save();
}

bool PoolEditor::gpuRanks() const
{
    return m_gpuRanks->isChecked();
}

void PoolEditor::setLauncher(const QString& launcher, const QString& extraArgs)
{
    m_launcher->setText(launcher);
    m_extraArgs->setText(extraArgs);
    save();
}

void PoolEditor::setWorker(const QString& path)
{
    m_worker->setText(path);
    save();
}

QString PoolEditor::hostfileText(QString& error) const
{
    // Host names as OpenMPI reads them: letters, digits, dots, dashes, underscores, colons.
    static const QRegularExpression hostName("^[A-Za-z0-9._:\\-\\[\\]]+$");
    QString text = "# Written by ClusterDesk's pool editor: one rank per slot.\n";
    int total = 0;
    for (int row = 0; row < m_table->rowCount(); ++row) {
        const QString name = cell(m_table, row, kHost);
        int slotCount = 0, gpuCount = 0;
        if (!hostName.match(name).hasMatch()) {
            error = tr("Pool host row %1: '%2' is not a host name").arg(row + 1).arg(name);
            return {};
        }
        if (!readCount(cell(m_table, row, kSlots), 1, 1, slotCount)) {
            error = tr("Pool host row %1 (%2): slots must be a whole number of at least 1, not '%3'")
                        .arg(row + 1)
                        .arg(name, cell(m_table, row, kSlots));
            return {};
        }
        if (!readCount(cell(m_table, row, kGpus), 0, 0, gpuCount)) {
            error = tr("Pool host row %1 (%2): GPUs must be a whole number of at least 0, not '%3'")
                        .arg(row + 1)
                        .arg(name, cell(m_table, row, kGpus));
            return {};
        }
        text += QString("%1 slots=%2  # gpus=%3\n").arg(name).arg(slotCount).arg(gpuCount);
        total += slotCount;
    }
    if (total == 0) {
        error = tr("The pool has no hosts: add at least one, or run ranks on this machine");
        return {};
    }
    return text;
}

QString PoolEditor::writeTopology(QString& error)
{
    error.clear();
    const QString backend = m_gpuRanks->isChecked() ? ":cuda" : "";
    if (!m_hosts->isChecked()) return QString("pool:%1").arg(m_ranks->value()) + backend;
    const QString text = hostfileText(error);
    if (text.isEmpty()) return {};
    QDir().mkpath(QFileInfo(m_hostfilePath).absolutePath());
    QSaveFile file(m_hostfilePath);
    if (!file.open(QIODevice::WriteOnly) || file.write(text.toUtf8()) < 0 || !file.commit()) {
        error = tr("Cannot write the pool's hostfile %1: %2").arg(m_hostfilePath, file.errorString());
        return {};
    }
    return "pool:" + QFileInfo(m_hostfilePath).absoluteFilePath() + backend;
}

PoolOptions PoolEditor::options() const
{
    PoolOptions options;
    const QString launcher = m_launcher->text().trimmed();
    if (!launcher.isEmpty()) options.launcher = launcher.toStdString();
    for (const QString& arg : QProcess::splitCommand(m_extraArgs->text())) options.extraArgs.push_back(arg.toStdString());
    options.workerPath = m_worker->text().trimmed().toStdString();
    return options;
}

void PoolEditor::showProbeResult(const QList<RankProbe>& ranks, const QString& error)
{
    m_test->setEnabled(true);
    if (!error.isEmpty()) {
        m_probe->setText(tr("Test failed: %1").arg(error));
        return;
    }
    QStringList lines{ranks.size() == 1 ? tr("1 rank answered:") : tr("%1 ranks answered:").arg(ranks.size())};
    for (const RankProbe& r : ranks)
        lines << tr("rank %1: %2, %3, %4").arg(r.rank).arg(r.host, r.backend, r.device);
    m_probe->setText(lines.join('\n'));
}

}  // namespace clusterdesk::ui
