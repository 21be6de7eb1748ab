#include "lineage_view.h"

#include <QHeaderView>

namespace clusterdesk::ui {
namespace {

QString shortId(const std::string& id)
{
    return QString::fromStdString(id).left(8);
}

QTreeWidgetItem* addGroup(QTreeWidgetItem* parent, const QString& title)
{
    auto* group = new QTreeWidgetItem(parent, {title});
    QFont font = group->font(0);
    font.setBold(true);
    group->setFont(0, font);
    return group;
}

void addRun(QTreeWidgetItem* group, const std::string& id, const QString& how)
{
    auto* item = new QTreeWidgetItem(group, {QObject::tr("run %1").arg(shortId(id)), how, shortId(id)});
    item->setData(0, LineageView::kRunIdRole, QString::fromStdString(id));
    item->setToolTip(0, QString::fromStdString(id));
}

}  // namespace

LineageView::LineageView(QWidget* parent)
    : QTreeWidget(parent)
{
    setColumnCount(3);
    setHeaderLabels({tr("Node"), tr("Relation"), tr("Hash / id")});
    header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    connect(this, &QTreeWidget::itemDoubleClicked, this, [this](QTreeWidgetItem* item) {
        const QString id = item->data(0, kRunIdRole).toString();
        if (!id.isEmpty()) emit runActivated(id);
    });
    showNothing(tr("Select a run to see where it came from."));
}

void LineageView::showNothing(const QString& why)
{
    clear();
    addTopLevelItem(new QTreeWidgetItem({why}));
}

void LineageView::showRun(const store::RunInfo& run, const std::vector<store::LineageEdge>& edges)
{
    clear();
    auto* root = new QTreeWidgetItem({tr("run %1").arg(shortId(run.id)), QString::fromStdString(store::toString(run.status)),
                                      shortId(run.id)});
    root->setData(0, kRunIdRole, QString::fromStdString(run.id));
    root->setToolTip(0, QString::fromStdString(run.id));
    addTopLevelItem(root);

    auto* dataset = new QTreeWidgetItem(root, {tr("dataset %1").arg(QString::fromStdString(run.dataSource.location)), tr("input"),
                                               QString::fromStdString(run.datasetHash).left(12)});
    dataset->setToolTip(0, QString::fromStdString(run.datasetHash));

    QTreeWidgetItem* from = nullptr;
    QTreeWidgetItem* derived = nullptr;
    QTreeWidgetItem* compared = nullptr;
    QTreeWidgetItem* reports = nullptr;
    for (const store::LineageEdge& e : edges) {
        const QString relation = QString::fromStdString(e.relation);
        const bool into = e.dstKind == "run" && e.dst == run.id;
        if (e.relation == "input") continue;  // the dataset node above
        if (e.relation == "compared_with") {
            if (!compared) compared = addGroup(root, tr("Compared with"));
            addRun(compared, into ? e.src : e.dst, relation);
        } else if (e.dstKind == "report") {
            if (!reports) reports = addGroup(root, tr("Reports"));
            new QTreeWidgetItem(reports, {QString::fromStdString(e.dst), relation, QString()});
        } else if (into && e.srcKind == "run") {
            if (!from) from = addGroup(root, tr("Derives from"));
            addRun(from, e.src, relation);
        } else if (e.srcKind == "run" && e.src == run.id) {
            if (!derived) derived = addGroup(root, tr("Derived runs"));
            addRun(derived, e.dst, relation);
        }
    }
    expandAll();
}

}  // namespace clusterdesk::ui
