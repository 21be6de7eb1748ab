#include "history_view.h"

#include "lineage_view.h"
#include "run_filter_proxy.h"
#include "run_table_model.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>

namespace clusterdesk::ui {

HistoryView::HistoryView(QWidget* parent)
    : QWidget(parent)
{
    m_model = new RunTableModel(this);
    m_proxy = new RunFilterProxy(this);
    m_proxy->setSourceModel(m_model);

    m_filter = new QLineEdit(this);
    m_filter->setPlaceholderText(tr("Filter: dataset, algorithm, topology, run id..."));
    m_filter->setClearButtonEnabled(true);
    m_status = new QComboBox(this);
    m_status->addItem(tr("Any status"), QString());
    for (const char* status : {"ok", "failed", "cancelled", "running"}) m_status->addItem(status, QString(status));
    m_showDeleted = new QCheckBox(tr("Deleted"), this);
    m_showDeleted->setObjectName("showDeleted");
    m_showDeleted->setToolTip(tr("Also list deleted runs (their records stay in the store's hash chain); they can be viewed and compared"));
    m_refresh = new QPushButton(tr("Refresh"), this);
    m_rerun = new QPushButton(tr("Re-run"), this);
    m_rerun->setToolTip(tr("Run the selected run again: same data, parameters, seed and topology"));
    m_delete = new QPushButton(tr("Delete..."), this);
    m_compare = new QPushButton(tr("Compare"), this);
    m_compare->setToolTip(tr("Select two runs (Ctrl+click) to compare them side by side"));
    m_report = new QPushButton(tr("Report..."), this);
    m_report->setToolTip(tr("Export a report of the selected runs (HTML or PDF) that an auditor can verify against this store"));

    auto* bar = new QHBoxLayout;
    bar->addWidget(m_filter, 1);
    bar->addWidget(m_status);
    bar->addWidget(m_showDeleted);
    bar->addWidget(m_refresh);
    bar->addWidget(m_rerun);
    bar->addWidget(m_compare);
    bar->addWidget(m_report);
    bar->addWidget(m_delete);

    m_table = new QTableView(this);
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(RunTableModel::Started, Qt::DescendingOrder);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setAlternatingRowColors(true);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setStretchLastSection(true);
    // Demo specs and paths are long: elided, whole in the tooltip, so the numbers stay in view.
    m_table->horizontalHeader()->setSectionResizeMode(RunTableModel::Dataset, QHeaderView::Interactive);
    m_table->setColumnWidth(RunTableModel::Dataset, 220);

    m_lineage = new LineageView(this);
    m_detail = new QLabel(this);
    m_detail->setWordWrap(true);
    m_detail->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto* lower = new QWidget(this);
    auto* lowerLayout = new QVBoxLayout(lower);
    lowerLayout->setContentsMargins(0, 0, 0, 0);
    lowerLayout->addWidget(new QLabel(tr("<b>Lineage</b>"), lower));
    lowerLayout->addWidget(m_lineage);
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_table);
    split->addWidget(lower);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addWidget(split, 1);
    layout->addWidget(m_detail);

    connect(m_filter, &QLineEdit::textChanged, m_proxy, &RunFilterProxy::setText);
    connect(m_showDeleted, &QCheckBox::toggled, this, &HistoryView::refreshRequested);
    connect(m_status, &QComboBox::currentIndexChanged, this, [this] { m_proxy->setStatus(m_status->currentData().toString()); });
    connect(m_refresh, &QPushButton::clicked, this, &HistoryView::refreshRequested);
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this, &HistoryView::selectionChanged);
    connect(m_rerun, &QPushButton::clicked, this, [this] {
        const QStringList ids = selectedRunIds();
        if (ids.size() == 1) emit rerunRequested(ids.front());
    });
    connect(m_delete, &QPushButton::clicked, this, &HistoryView::confirmDelete);
    connect(m_compare, &QPushButton::clicked, this, [this] {
        const QStringList ids = selectedRunIds();
        if (ids.size() == 2) emit compareRequested(ids[0], ids[1]);
    });
    connect(m_report, &QPushButton::clicked, this, [this] {
        const QStringList ids = selectedRunIds();
        if (!ids.isEmpty()) emit reportRequested(ids);
    });
    connect(m_lineage, &LineageView::runActivated, this, [this](const QString& id) {
        if (!selectRun(id)) setDetail(tr("Run %1 is not listed (deleted, or hidden by the filter).").arg(id.left(8)));
    });
    updateActions();
}

void HistoryView::setRuns(std::vector<store::RunInfo> runs)
{
    const QStringList selected = selectedRunIds();
    m_resetting = true;
    m_model->setRuns(std::move(runs));
    for (const QString& id : selected) {
        const int row = m_model->rowOf(id);
        if (row < 0) continue;
        const QModelIndex index = m_proxy->mapFromSource(m_model->index(row, 0));
        if (index.isValid())
            m_table->selectionModel()->select(index, QItemSelectionModel::Select | QItemSelectionModel::Rows);
    }
    m_resetting = false;
    updateActions();
}

bool HistoryView::selectRun(const QString& runId)
{
    const int row = m_model->rowOf(runId);
    const QModelIndex index = row < 0 ? QModelIndex() : m_proxy->mapFromSource(m_model->index(row, 0));
    if (!index.isValid()) return false;
    m_table->selectionModel()->select(index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_table->scrollTo(index);
    return true;
}

QStringList HistoryView::selectedRunIds() const
{
    QModelIndexList rows = m_table->selectionModel()->selectedRows();
    std::sort(rows.begin(), rows.end(), [](const QModelIndex& a, const QModelIndex& b) { return a.row() < b.row(); });
    QStringList ids;
    for (const QModelIndex& index : rows) ids << index.data(RunTableModel::kRunIdRole).toString();
    return ids;
}

void HistoryView::setDetail(const QString& text)
{
    m_detail->setText(text);
}

QString HistoryView::detail() const
{
    return m_detail->text();
}

void HistoryView::updateActions()
{
    const QStringList ids = selectedRunIds();
    m_rerun->setEnabled(ids.size() == 1);
    m_delete->setEnabled(ids.size() == 1);
    m_compare->setEnabled(ids.size() == 2);
    m_report->setEnabled(!ids.isEmpty());
    if (ids.isEmpty()) m_lineage->showNothing(tr("Select a run to see where it came from."));
}

void HistoryView::selectionChanged()
{
    updateActions();
    const QStringList ids = selectedRunIds();
    // A refresh that restores the selection is not a new choice: no reload.
    if (!m_resetting && ids.size() == 1) emit runSelected(ids.front());
}

void HistoryView::confirmDelete()
{
    const QStringList ids = selectedRunIds();
    if (ids.size() != 1) return;
    const QString id = ids.front();
    const auto answer = QMessageBox::question(
        this, tr("Delete run"),
        tr("Delete run %1?\n\nIt disappears from the history; its record stays in the store's hash chain, so the history "
           "remains verifiable.")
            .arg(id.left(8)),
        QMessageBox::Yes | QMessageBox::No, QMessageBox::No);
    if (answer == QMessageBox::Yes) emit deleteRequested(id);
}

bool HistoryView::showsDeleted() const
{
    return m_showDeleted->isChecked();
}

}  // namespace clusterdesk::ui
