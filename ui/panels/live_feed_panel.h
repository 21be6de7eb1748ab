// The Data panel's Live feed: where to connect (URL, symbols), how to window the ticks
// (bar interval, window, update interval), Start and Stop, and the feed's state as the
// client sees it: connection, message rate, ticks, gaps, reconnects, bad messages.
// It only asks (signals); app/gui's LiveController runs the session.
#pragma once

#include "../live/live_history.h"

#include <QGroupBox>

#include <cstdint>
#include <string>
#include <vector>

class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;

namespace clusterdesk::ui {

struct LiveFeedRequest {
    QString url;
    std::vector<std::string> symbols;  // empty: every symbol
    std::int64_t barSeconds = 1;
    std::int64_t windowBars = 60;
    std::int64_t updateEveryBars = 5;
};

class LiveFeedPanel : public QGroupBox {
    Q_OBJECT
public:
    explicit LiveFeedPanel(QWidget* parent = nullptr);

    LiveFeedRequest request() const;
    void setUrl(const QString& url);
    QPushButton& startButton() { return *m_start; }
    QPushButton& stopButton() { return *m_stop; }
    QLabel& stateLabel() { return *m_state; }

public slots:
    void setRunning(bool running);
    void showStatus(const clusterdesk::ui::LiveFeedStatus& status);

signals:
    void startRequested(const clusterdesk::ui::LiveFeedRequest& request);
    void stopRequested();

private:
    QLineEdit* m_url = nullptr;
    QLineEdit* m_symbols = nullptr;
    QSpinBox* m_bar = nullptr;
    QSpinBox* m_window = nullptr;
    QSpinBox* m_every = nullptr;
    QPushButton* m_start = nullptr;
    QPushButton* m_stop = nullptr;
    QLabel* m_state = nullptr;
    QLabel* m_counts = nullptr;
};

}  // namespace clusterdesk::ui
