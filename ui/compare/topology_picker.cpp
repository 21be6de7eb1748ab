#include "topology_picker.h"

#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QVBoxLayout>

namespace clusterdesk::ui {
namespace {

// Everything this machine can run without extra set-up (pool:N needs mpirun and the
// Topology panel's pool settings; it fails with the reason where those are missing).
const QStringList kMeasured = {"host@1", "host", "shards:2", "shards:4", "pool:2", "pool:4"};
// A first comparison that answers the usual question, one thread against the machine
// against sharding, within a few seconds on a small dataset.
const QStringList kCheckedFirst = {"host@1", "host", "shards:2"};

}  // namespace

TopologyPicker::TopologyPicker(QWidget* parent)
    : QWidget(parent)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_list = new QListWidget(this);
    m_list->setObjectName("compareTopologies");
    m_extra = new QLineEdit(this);
    m_extra->setObjectName("compareExtraTopologies");
    m_extra->setPlaceholderText(tr("more, comma-separated: model:h200x8:nodes=4"));
    m_extra->setToolTip(tr("Any topology spellings, comma-separated: host@THREADS, shards:N, pool:N, cuda:N, "
                           "model:DEVICE[xN][:nodes=M][:net=LINK]"));
    layout->addWidget(new QLabel(tr("Topologies"), this));
    layout->addWidget(m_list, 1);
    layout->addWidget(m_extra);
    addChoices(tr("Measured here"), kMeasured, kCheckedFirst);
}

void TopologyPicker::addChoices(const QString& heading, const QStringList& spellings, const QStringList& checked)
{
    auto* title = new QListWidgetItem(heading, m_list);
    title->setFlags(Qt::NoItemFlags);
    QFont bold = title->font();
    bold.setBold(true);
    title->setFont(bold);
    for (const QString& s : spellings) {
        auto* item = new QListWidgetItem(s, m_list);
        item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable);
        item->setCheckState(checked.contains(s) ? Qt::Checked : Qt::Unchecked);
        item->setData(Qt::UserRole, s);  // headings have none
    }
}

void TopologyPicker::setModeledTopologies(const QStringList& spellings)
{
    // Keeps the measured choices (and what the user checked), replaces the modeled ones.
    const QStringList checked = topologies();
    m_list->clear();
    addChoices(tr("Measured here"), kMeasured, checked);
    addChoices(tr("Modeled (catalog)"), spellings, checked);
}

QStringList TopologyPicker::topologies() const
{
    QStringList out;
    for (int i = 0; i < m_list->count(); ++i) {
        const QListWidgetItem* item = m_list->item(i);
        if (item->checkState() == Qt::Checked) out << item->data(Qt::UserRole).toString();
    }
    for (const QString& s : m_extra->text().split(',', Qt::SkipEmptyParts))
        if (!s.trimmed().isEmpty() && !out.contains(s.trimmed())) out << s.trimmed();
    return out;
}

void TopologyPicker::select(const QStringList& spellings)
{
    QStringList rest = spellings;
    for (int i = 0; i < m_list->count(); ++i) {
        QListWidgetItem* item = m_list->item(i);
        const QString s = item->data(Qt::UserRole).toString();
        if (s.isEmpty()) continue;
        item->setCheckState(spellings.contains(s) ? Qt::Checked : Qt::Unchecked);
        rest.removeAll(s);
    }
    m_extra->setText(rest.join(','));
}

}  // namespace clusterdesk::ui
