// The live membership: every asset of the newest update with its stable cluster and
// when it last changed cluster. Assets that moved in the last few updates come first,
// highlighted, with the cluster they left; the others follow by cluster.
#pragma once

#include <QTableWidget>

namespace clusterdesk::ui {

class LiveHistory;

class LiveMembersView : public QTableWidget {
    Q_OBJECT
public:
    // Updates back that still count as recent: a mover stays highlighted this long.
    static constexpr int kRecentUpdates = 3;

    explicit LiveMembersView(const LiveHistory& history, QWidget* parent = nullptr);
    void draw();
    // Rows highlighted as recent movers.
    int highlightedRows() const { return m_highlighted; }

private:
    const LiveHistory& m_history;
    int m_highlighted = 0;
};

}  // namespace clusterdesk::ui
