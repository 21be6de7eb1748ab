#include "members_view.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSizePolicy>
#include <QTableView>
#include <QVBoxLayout>

namespace clusterdesk::ui {

MembersView::MembersView(QWidget* parent)
    : QWidget(parent)
{
    setObjectName("membersView");
    m_model = new MemberTableModel(this);

    m_caption = new QLabel(tr("No clustering yet: run one, or select a run in History."), this);
    m_caption->setObjectName("membersCaption");
    m_filter = new QLineEdit(this);
    m_filter->setObjectName("membersFilter");
    m_filter->setPlaceholderText(tr("Filter: part of an asset's name, or a cluster number"));
    m_filter->setClearButtonEnabled(true);
    connect(m_filter, &QLineEdit::textChanged, m_model, &MemberTableModel::setFilterText);
    m_arranging = new QLabel(tr("Sorting and filtering..."), this);
    m_arranging->setObjectName("membersArranging");
    // Kept in the layout while hidden, so the filter box does not change width as you type.
    QSizePolicy keepsItsPlace = m_arranging->sizePolicy();
    keepsItsPlace.setRetainSizeWhenHidden(true);
    m_arranging->setSizePolicy(keepsItsPlace);
    m_arranging->setVisible(false);
    connect(m_model, &MemberTableModel::arrangingChanged, m_arranging, &QLabel::setVisible);
    m_export = new QPushButton(tr("Export CSV..."), this);
    m_export->setObjectName("exportMembers");
    m_export->setToolTip(tr("Every asset with its cluster, as CSV (id,cluster,...) with the assets' names"));
    m_export->setEnabled(false);
    connect(m_export, &QPushButton::clicked, this, &MembersView::exportRequested);

    m_table = new QTableView(this);
    m_table->setObjectName("membersTable");
    m_table->setModel(m_model);
    // A membership comes sorted by cluster, then nearest the centroid first, as the
    // header says; a click on a header asks the model for another order.
    m_table->horizontalHeader()->setSortIndicator(MemberTableModel::Cluster, Qt::AscendingOrder);
    m_table->setSortingEnabled(true);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->verticalHeader()->setVisible(false);

    auto* bar = new QHBoxLayout;
    bar->addWidget(m_filter, 1);
    bar->addWidget(m_arranging);
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
    m_caption->setText(membership ? tr("%1: %2 rows in %3 clusters (rows that tie in a sort stay by cluster, then nearest the centroid first)").arg(name).arg(rows).arg(clusters)
                                  : tr("No clustering yet: run one, or select a run in History."));
    m_model->setMembership(std::move(membership));
    m_table->resizeColumnsToContents();
    m_export->setEnabled(rows > 0);
}

}  // namespace clusterdesk::ui
