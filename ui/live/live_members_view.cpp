#include "live_members_view.h"

#include "live_history.h"

#include "../plots/cluster_palette.h"

#include <QHeaderView>

#include <algorithm>
#include <numeric>
#include <optional>
#include <vector>

namespace clusterdesk::ui {

LiveMembersView::LiveMembersView(const LiveHistory& history, QWidget* parent)
    : QTableWidget(0, 3, parent)
    , m_history(history)
{
    setObjectName("liveMembers");
    setHorizontalHeaderLabels({tr("Asset"), tr("Cluster"), tr("Last moved")});
    horizontalHeader()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    horizontalHeader()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    horizontalHeader()->setStretchLastSection(true);
    setMinimumWidth(320);
    verticalHeader()->setVisible(false);
    setEditTriggers(QAbstractItemView::NoEditTriggers);
    setSelectionBehavior(QAbstractItemView::SelectRows);
    setToolTip(tr("Assets of the newest update by cluster; those that changed cluster in the last %1 updates are "
                  "highlighted").arg(kRecentUpdates));
}

void LiveMembersView::draw()
{
    const std::vector<std::string>& assets = m_history.assets();
    const std::vector<int>& clusterOf = m_history.clusterOf();
    const int newest = m_history.empty() ? 0 : m_history.points().back().update;
    std::vector<std::size_t> order(assets.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    // Recent movers first, newest move first; then everyone by cluster.
    std::vector<std::optional<LiveHistory::Move>> moves(assets.size());
    std::vector<int> movedAt(assets.size(), 0);
    for (std::size_t i = 0; i < assets.size(); ++i) {
        moves[i] = m_history.lastMove(assets[i]);
        if (moves[i] && newest - moves[i]->update < kRecentUpdates) movedAt[i] = moves[i]->update;
    }
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        if (movedAt[a] != movedAt[b]) return movedAt[a] > movedAt[b];
        return clusterOf[a] != clusterOf[b] ? clusterOf[a] < clusterOf[b] : assets[a] < assets[b];
    });
    setUpdatesEnabled(false);
    setRowCount(static_cast<int>(assets.size()));
    m_highlighted = 0;
    QFont bold = font();
    bold.setBold(true);
    for (int row = 0; row < static_cast<int>(order.size()); ++row) {
        const std::size_t i = order[static_cast<std::size_t>(row)];
        const std::optional<LiveHistory::Move>& move = moves[i];
        const bool recent = movedAt[i] > 0;
        QString moved = move ? tr("update %1, from %2").arg(move->update).arg(move->from) : QString();
        const QString cells[] = {QString::fromStdString(assets[i]), QString::number(clusterOf[i]), moved};
        for (int column = 0; column < 3; ++column) {
            QTableWidgetItem* cell = item(row, column);
            if (!cell) {
                cell = new QTableWidgetItem;
                setItem(row, column, cell);
            }
            cell->setText(cells[column]);
            cell->setFont(recent ? bold : font());
            cell->setBackground(recent ? QBrush(QColor(255, 236, 150)) : QBrush());
        }
        item(row, 1)->setForeground(clusterColor(clusterOf[i]).darker(130));
        m_highlighted += recent;
    }
    setUpdatesEnabled(true);
}

}  // namespace clusterdesk::ui
