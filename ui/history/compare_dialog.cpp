#include "compare_dialog.h"

#include "compare_fields.h"

#include "../plots/evolution_plot.h"
#include "../plots/latency_plot.h"
#include "../plots/power_plot.h"

#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>

namespace clusterdesk::ui {
namespace {

// The tint of a differing row: visible on light and dark themes' base colours.
const QColor kDiffers(255, 214, 102, 110);

}  // namespace

CompareDialog::CompareDialog(QWidget* parent)
    : QDialog(parent)
{
    setWindowTitle(tr("Compare runs"));
    setObjectName("compareDialog");
    auto* layout = new QVBoxLayout(this);
    m_ari = new QLabel(this);
    m_ari->setObjectName("compareAri");
    QFont font = m_ari->font();
    font.setBold(true);
    m_ari->setFont(font);
    m_ari->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_table = new QTableWidget(this);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    auto* legend = new QLabel(tr("Highlighted rows differ between the two runs."), this);
    legend->setObjectName("compareLegend");
    auto* plots = new QHBoxLayout;
    m_evolution = new EvolutionPlot(this);
    m_latency = new LatencyPlot(this);
    m_power = new PowerPlot(this);
    for (QWidget* plot : {static_cast<QWidget*>(m_evolution), static_cast<QWidget*>(m_latency), static_cast<QWidget*>(m_power)}) {
        plot->setMinimumSize(420, 280);
        plots->addWidget(plot, 1);
    }
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(m_ari);
    layout->addWidget(m_table, 1);
    layout->addWidget(legend);
    layout->addLayout(plots, 1);
    layout->addWidget(buttons);
    resize(1400, 950);  // three graphs side by side, their titles whole
}

QString CompareDialog::ariText() const
{
    return m_ari->text();
}

bool CompareDialog::highlighted(int row) const
{
    const QTableWidgetItem* item = m_table->item(row, 0);
    return item && item->background().color() == kDiffers;
}

void CompareDialog::showRuns(const store::RunInfo& a, const store::RunInfo& b, std::optional<double> ari, const QString& why)
{
    m_ari->setText(ari ? tr("ARI between the labels: %1").arg(*ari, 0, 'f', 4) : tr("No ARI: %1").arg(why));
    const std::vector<CompareRow> rows = compareRows(a, b);
    m_table->clear();
    m_table->setColumnCount(2);
    m_table->setRowCount(static_cast<int>(rows.size()));
    m_table->setHorizontalHeaderLabels({tr("run %1").arg(QString::fromStdString(a.id).left(8)),
                                        tr("run %1").arg(QString::fromStdString(b.id).left(8))});
    for (int i = 0; i < static_cast<int>(rows.size()); ++i) {
        const CompareRow& row = rows[static_cast<std::size_t>(i)];
        m_table->setVerticalHeaderItem(i, new QTableWidgetItem(row.section + ": " + row.name));
        for (int side = 0; side < 2; ++side) {
            auto* item = new QTableWidgetItem(side == 0 ? row.a : row.b);
            item->setToolTip(item->text());
            if (row.differs()) {  // what differs stands out
                QFont bold = item->font();
                bold.setBold(true);
                item->setFont(bold);
                item->setBackground(kDiffers);
            }
            m_table->setItem(i, side, item);
        }
    }
    m_evolution->refresh(m_runs);
    m_latency->refresh(m_runs);
    m_power->refresh(m_runs);
}

}  // namespace clusterdesk::ui
