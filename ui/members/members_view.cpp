#include "members_view.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

namespace clusterdesk::ui {
namespace {

// A filter that is a whole number names a cluster; anything else is a substring of the name.
class MemberFilter : public QSortFilterProxyModel {
public:
    using QSortFilterProxyModel::QSortFilterProxyModel;

    void setText(const QString& text)
    {
        m_text = text.trimmed();
        bool isNumber = false;
        m_cluster = m_text.toInt(&isNumber);
        m_byCluster = isNumber;
        invalidateFilter();
    }

protected:
    bool filterAcceptsRow(int row, const QModelIndex& parent) const override
    {
        if (m_text.isEmpty()) return true;
        const QAbstractItemModel* source = sourceModel();
        if (m_byCluster) return source->index(row, MemberTableModel::Cluster, parent).data().toInt() == m_cluster;
        return source->index(row, MemberTableModel::Name, parent).data().toString().contains(m_text, Qt::CaseInsensitive);
    }

private:
    QString m_text;
    bool m_byCluster = false;
    int m_cluster = 0;
};

}  // namespace

MembersView::MembersView(QWidget* parent)
    : QWidget(parent)
{
    setObjectName("membersView");
    m_model = new MemberTableModel(this);
    auto* filter = new MemberFilter(this);
    m_proxy = filter;
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(MemberTableModel::kSortRole);

    m_caption = new QLabel(tr("No clustering yet: run one, or select a run in History."), this);
    m_caption->setObjectName("membersCaption");
    m_filter = new QLineEdit(this);
    m_filter->setObjectName("membersFilter");
    m_filter->setPlaceholderText(tr("Filter: part of an asset's name, or a cluster number"));
    m_filter->setClearButtonEnabled(true);
    connect(m_filter, &QLineEdit::textChanged, this, [filter](const QString& text) { filter->setText(text); });
    m_export = new QPushButton(tr("Export CSV..."), this);
    m_export->setObjectName("exportMembers");
    m_export->setToolTip(tr("Every asset with its cluster, as CSV (id,cluster,...) with the assets' names"));
    m_export->setEnabled(false);
    connect(m_export, &QPushButton::clicked, this, &MembersView::exportRequested);

    m_table = new QTableView(this);
    m_table->setObjectName("membersTable");
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->horizontalHeader()->setSortIndicator(MemberTableModel::Cluster, Qt::AscendingOrder);
    // A membership comes sorted by cluster, then nearest the centroid first, as the
    // header says: the proxy keeps that order and sorts only when a header is clicked.
    // Sorting a million rows through QVariant held the UI thread for 0.4 s after every run.
    m_proxy->sort(-1);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->verticalHeader()->setVisible(false);

    auto* bar = new QHBoxLayout;
    bar->addWidget(m_filter, 1);
    bar->addWidget(m_export);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_caption);
    layout->addLayout(bar);
    layout->addWidget(m_table, 1);
}

void MembersView::setMembership(std::shared_ptr<const report::Membership> membership, const QString& name)
{
    const std::size_t rows = membership ? membership->members.size() : 0;
    const std::size_t clusters = membership ? membership->clusters.size() : 0;
    m_caption->setText(membership ? tr("%1: %2 rows in %3 clusters (sorted by cluster, then nearest the centroid first)").arg(name).arg(rows).arg(clusters)
                                  : tr("No clustering yet: run one, or select a run in History."));
    m_model->setMembership(std::move(membership));
    m_table->resizeColumnsToContents();
    m_export->setEnabled(rows > 0);
}

}  // namespace clusterdesk::ui
