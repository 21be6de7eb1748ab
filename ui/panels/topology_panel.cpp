#include "topology_panel.h"

#include "pool_editor.h"
#include "scrolling_layout.h"

#include <QButtonGroup>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QListWidget>
#include <QRadioButton>
#include <QSettings>
#include <QSpinBox>
#include <QThread>
#include <QVBoxLayout>

#include <algorithm>

namespace clusterdesk::ui {

int TopologyPanel::defaultThreads()
{
    return std::max(1, QThread::idealThreadCount() - 1);
}

TopologyPanel::TopologyPanel(QWidget* parent)
    : QWidget(parent)
{
    setObjectName("topologyPanel");
    // The pool editor makes the panel tall: it scrolls rather than crowd the dock.
    QVBoxLayout* layout = scrollingLayout(this);

    auto* hostBox = new QGroupBox(tr("Host"), this);
    auto* hostForm = new QFormLayout(hostBox);
    m_onHost = new QRadioButton(tr("Run on the host CPU"), hostBox);
    m_onHost->setObjectName("runOnHost");
    m_onHost->setChecked(true);
    m_threads = new QSpinBox(hostBox);
    m_threads->setObjectName("threads");
    m_threads->setRange(1, 1024);
    m_threads->setValue(defaultThreads());
    m_threads->setToolTip(tr("Host threads for the run. The default leaves one of the %1 cores to the window, "
                             "so it stays responsive during a run.")
                              .arg(QThread::idealThreadCount()));
    m_shards = new QSpinBox(hostBox);
    m_shards->setObjectName("shards");
    m_shards->setRange(1, 64);
    m_shards->setToolTip(tr("Split the rows into this many shards, each in its own thread, joined by one all-reduce "
                            "per iteration (as GPUs or nodes would be). 1 = a single shard."));
    hostForm->addRow(m_onHost);
    hostForm->addRow(tr("Threads (of %1 cores)").arg(QThread::idealThreadCount()), m_threads);
    hostForm->addRow(tr("Shards"), m_shards);
    layout->addWidget(hostBox);

    m_gpuBox = new QGroupBox(tr("Local GPUs"), this);
    auto* gpuLayout = new QVBoxLayout(m_gpuBox);
    m_onGpus = new QRadioButton(tr("Run on the local GPUs (one shard each)"), m_gpuBox);
    m_onGpus->setObjectName("runOnGpus");
    m_gpuList = new QListWidget(m_gpuBox);
    m_gpuList->setObjectName("gpuList");
    m_gpuList->setMaximumHeight(80);
    m_gpuReason = new QLabel(m_gpuBox);
    m_gpuReason->setObjectName("gpuReason");
    m_gpuReason->setWordWrap(true);
    gpuLayout->addWidget(m_onGpus);
    gpuLayout->addWidget(m_gpuList);
    gpuLayout->addWidget(m_gpuReason);
    layout->addWidget(m_gpuBox);

    auto* poolBox = new QGroupBox(tr("Node pool (MPI)"), this);
    auto* poolLayout = new QVBoxLayout(poolBox);
    m_onPool = new QRadioButton(tr("Run on a pool of MPI ranks (one shard each)"), poolBox);
    m_onPool->setObjectName("runOnPool");
    m_poolEditor = new PoolEditor(poolBox);
    poolLayout->addWidget(m_onPool);
    poolLayout->addWidget(m_poolEditor);
    layout->addWidget(poolBox);
    layout->addStretch(1);

    // The three choices sit in different boxes, so they are made exclusive explicitly.
    m_where = new QButtonGroup(this);
    m_where->addButton(m_onHost);
    m_where->addButton(m_onGpus);
    m_where->addButton(m_onPool);
    // The choice is kept between sessions; GPUs are chosen again once detection finds them.
    const QString where = QSettings().value("topology/where").toString();
    if (where == "pool") m_onPool->setChecked(true);
    m_wantGpus = where == "gpus";
    connect(m_where, &QButtonGroup::buttonToggled, this, [this](QAbstractButton* button, bool checked) {
        updateEnabled();
        if (checked)
            QSettings().setValue("topology/where", button == m_onPool ? "pool" : button == m_onGpus ? "gpus" : "host");
    });
    connect(m_poolEditor, &PoolEditor::gpuRanksChanged, this, [this] { emit onGpusChanged(onGpus()); });
    setGpus({}, tr("not detected yet"));
}

void TopologyPanel::setGpus(const QStringList& gpus, const QString& reason)
{
    m_gpuList->clear();
    m_gpuList->addItems(gpus);
    for (int i = 0; i < m_gpuList->count(); ++i) {
        QListWidgetItem* item = m_gpuList->item(i);
        item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
        item->setCheckState(Qt::Checked);
    }
    const bool any = !gpus.isEmpty();
    m_gpuReason->setText(any ? QString() : tr("No GPU usable: %1").arg(reason));
    m_gpuReason->setVisible(!any);
    m_onGpus->setEnabled(any);
    m_gpuList->setEnabled(any);
    if (!any && m_onGpus->isChecked()) m_onHost->setChecked(true);
    if (any && m_wantGpus) m_onGpus->setChecked(true);
    updateEnabled();
}

void TopologyPanel::updateEnabled()
{
    m_threads->setEnabled(!m_onGpus->isChecked());  // host and pool runs divide them among shards/ranks
    m_shards->setEnabled(m_onHost->isChecked());
    m_poolEditor->setEnabled(m_onPool->isChecked());
    emit onGpusChanged(onGpus());
}

bool TopologyPanel::onGpus() const
{
    return m_onGpus->isChecked() || (m_onPool->isChecked() && m_poolEditor->gpuRanks());
}

QString TopologyPanel::writeTopology(QString* error)
{
    QString problem;
    if (error) error->clear();
    if (m_onPool->isChecked()) {
        const QString spec = m_poolEditor->writeTopology(problem);
        if (error) *error = problem;
        return spec;
    }
    if (m_onGpus->isChecked() && m_gpuList->count() > 0) {
        QStringList ids;
        for (int i = 0; i < m_gpuList->count(); ++i)
            if (m_gpuList->item(i)->checkState() == Qt::Checked) ids << QString::number(i);
        if (ids.isEmpty() && error) *error = tr("Check at least one GPU, or run on the host");
        return ids.isEmpty() ? QString() : "cuda:" + ids.join(',');
    }
    return m_shards->value() == 1 ? QStringLiteral("host") : QString("shards:%1").arg(m_shards->value());
}

PoolOptions TopologyPanel::poolOptions() const
{
    return m_poolEditor->options();
}

int TopologyPanel::threads() const
{
    return m_threads->value();
}

}  // namespace clusterdesk::ui
