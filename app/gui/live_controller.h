// Runs the window's live sessions: the Live feed panel's Start connects a FeedClient
// (its socket on its own thread) and starts the clustering thread, which waits for
// closed bars, re-clusters through LiveClusterer (every update recorded in the run
// store, like clusterdesk-cli live) and posts each update to the UI thread. The window
// redraws the Live tab at most every kRedrawMs, so a flood of updates never floods the
// event loop; the feed's counters are polled twice a second for the panel.
#pragma once

#include "app/live/feed_client.h"
#include "engine/stream/live_options.h"
#include "ui/live/live_history.h"
#include "ui/panels/live_feed_panel.h"

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

#include <atomic>
#include <memory>
#include <mutex>
#include <thread>

namespace clusterdesk::stream {
class LiveClusterer;
class TickInbox;
struct LiveUpdate;
}
namespace clusterdesk::ui {
class LiveView;
class MainWindow;
}

namespace clusterdesk::gui {

class LiveController : public QObject {
    Q_OBJECT
public:
    static constexpr int kRedrawMs = 200;

    // storePath: where updates are recorded; empty: not recorded.
    LiveController(ui::MainWindow& window, QString storePath, QObject* parent = nullptr);
    ~LiveController() override;  // stops a session in progress

    ui::LiveView& view() { return *m_view; }
    bool running() const { return m_thread.joinable(); }
    // What the session's feed client has seen so far; empty counts when none runs.
    live::FeedStats feedStats() const { return m_feed ? m_feed->stats() : live::FeedStats(); }

public slots:
    void start(const clusterdesk::ui::LiveFeedRequest& request);
    void stop();

signals:
    void updated(int update);  // after the history took it (the redraw may follow later)
    void stopped(const QString& error);

private:
    void onUpdate(std::shared_ptr<const stream::LiveUpdate> update);
    void onFailed(const QString& error);
    void pollFeed();
    live::FeedStats showFeed();
    void clusterLoop();

    ui::MainWindow& m_window;
    QString m_storePath;
    ui::LiveView* m_view = nullptr;  // a tab of the window
    std::unique_ptr<stream::TickInbox> m_inbox;
    std::unique_ptr<live::FeedClient> m_feed;
    stream::LiveOptions m_options;
    std::mutex m_clustererMutex;
    stream::LiveClusterer* m_clusterer = nullptr;  // on m_thread while it runs
    std::thread m_thread;
    std::atomic<bool> m_stop{false};
    QTimer m_poll;
    QTimer m_redraw;
    QElapsedTimer m_clock;
    double m_ingestRate = 0;
};

}  // namespace clusterdesk::gui
