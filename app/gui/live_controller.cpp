#include "live_controller.h"

#include "app/live/feed_client.h"
#include "engine/core/error.h"
#include "engine/exec/topology.h"
#include "engine/store/run_store.h"
#include "engine/stream/live_clusterer.h"
#include "ui/live/live_view.h"
#include "ui/main_window.h"
#include "ui/panels/data_panel.h"
#include "ui/panels/engine_panel.h"
#include "ui/panels/topology_panel.h"

#include <QStatusBar>

namespace clusterdesk::gui {
namespace {

ui::LiveFeedStatus statusOf(const live::FeedStats& s)
{
    ui::LiveFeedStatus out;
    out.state = live::describe(s.state);
    out.messagesPerSecond = s.messagesPerSecond;
    out.messages = s.messages;
    out.ticks = s.ticks;
    out.gaps = s.gaps;
    out.missing = s.missing;
    out.reconnects = s.reconnects;
    out.bad = s.badTotal();
    out.badByReason = s.badByReason();
    out.lastProblem = s.lastProblem;
    return out;
}

}  // namespace

LiveController::LiveController(ui::MainWindow& window, QString storePath, QObject* parent)
    : QObject(parent)
    , m_window(window)
    , m_storePath(std::move(storePath))
{
    m_view = new ui::LiveView;
    m_window.addTab(m_view, tr("Live"));
    ui::LiveFeedPanel& panel = m_window.dataPanel().liveFeed();
    connect(&panel, &ui::LiveFeedPanel::startRequested, this, &LiveController::start);
    connect(&panel, &ui::LiveFeedPanel::stopRequested, this, &LiveController::stop);
    m_poll.setInterval(500);
    connect(&m_poll, &QTimer::timeout, this, &LiveController::pollFeed);
    m_redraw.setSingleShot(true);
    m_redraw.setInterval(kRedrawMs);
    connect(&m_redraw, &QTimer::timeout, m_view, &ui::LiveView::refresh);
}

LiveController::~LiveController()
{
    stop();
}

void LiveController::start(const ui::LiveFeedRequest& request)
{
    if (running()) return;
    try {
        const QUrl url(request.url);
        if (request.url.isEmpty() || !url.isValid() ||
            (url.scheme() != "ws" && url.scheme() != "wss" && url.scheme() != "tcp"))
            throw UsageError("Live feed: '" + request.url.toStdString() +
                             "' is not a feed URL (ws://, wss:// or tcp://HOST:PORT; clusterdesk-feed prints it)");
        QString problem;
        const QString topology = m_window.topologyPanel().writeTopology(&problem);
        if (topology.isEmpty()) throw UsageError("Live feed: " + problem.toStdString());

        stream::LiveOptions options;
        options.source = request.url.toStdString();
        options.barSeconds = request.barSeconds;
        options.windowBars = request.windowBars;
        options.updateEveryBars = request.updateEveryBars;
        options.params = m_window.enginePanel().params();
        options.symbols = request.symbols;
        options.topology = parseTopology(topology.toStdString());
        // A live window is small: one thread unless the panel asks for more, so an
        // update never waits for the cores the feed's socket and the window use.
        options.threads = m_window.topologyPanel().threads() > 0 ? m_window.topologyPanel().threads() : 1;
        options.pool = m_window.topologyPanel().poolOptions();
        m_options = options;
        stream::LiveClusterer check(options);  // refuses bad options here, before anything starts

        live::FeedClientOptions feed;
        feed.url = url;
        feed.symbols = request.symbols;
        feed.token = live::readFeedToken({});
        m_inbox = std::make_unique<stream::TickInbox>(options.source, options.barSeconds);
        m_feed = std::make_unique<live::FeedClient>(feed, *m_inbox);
    } catch (const std::exception& e) {
        m_window.showError(QString::fromStdString(e.what()));
        return;
    }
    m_view->history().clear();
    m_view->refresh();
    m_clock.start();
    m_stop = false;
    m_feed->start();
    m_thread = std::thread([this] { clusterLoop(); });
    m_poll.start();
    m_window.dataPanel().liveFeed().setRunning(true);
    m_window.showTab(tr("Live"));
    m_window.statusBar()->showMessage(tr("Live on %1").arg(request.url));
}

// The store and the clusterer that records into it belong to this thread (a RunStore
// is used by one thread); stop() reaches the clusterer only to cancel, under the mutex.
void LiveController::clusterLoop()
{
    try {
        std::unique_ptr<store::RunStore> store;
        if (!m_storePath.isEmpty()) store = std::make_unique<store::RunStore>(m_storePath.toStdString());
        stream::LiveOptions options = m_options;
        options.store = store.get();
        stream::LiveClusterer clusterer(options);
        {
            std::lock_guard lock(m_clustererMutex);
            m_clusterer = &clusterer;
        }
        struct Forget {
            LiveController& c;
            ~Forget()
            {
                std::lock_guard lock(c.m_clustererMutex);
                c.m_clusterer = nullptr;
            }
        } forget{*this};
        bool saidWaiting = false;
        while (!m_stop) {
            if (!m_inbox->waitForClosed(std::chrono::milliseconds(50))) continue;
            const std::vector<stream::ReceivedBar> bars = m_inbox->takeClosed();
            auto update = clusterer.add(bars, m_inbox->symbols(), m_inbox->sectors());
            if (!update) {
                // Too few assets for the run: the status bar says so, once (as the CLI).
                if (const stream::LiveWait wait = clusterer.waitingFor();
                    wait.kind == stream::LiveWait::Kind::TooFewAssets && !saidWaiting) {
                    saidWaiting = true;
                    const QString text = tr("Live: waiting: %1").arg(QString::fromStdString(wait.text));
                    QMetaObject::invokeMethod(this, [this, text] { m_window.statusBar()->showMessage(text); }, Qt::QueuedConnection);
                }
                continue;
            }
            auto shared = std::make_shared<const stream::LiveUpdate>(std::move(*update));
            QMetaObject::invokeMethod(this, [this, shared] { onUpdate(shared); }, Qt::QueuedConnection);
        }
    } catch (const Cancelled&) {
        // stop() asked.
    } catch (const std::exception& e) {
        const QString error = QString::fromStdString(e.what());
        QMetaObject::invokeMethod(this, [this, error] { onFailed(error); }, Qt::QueuedConnection);
    }
}

void LiveController::onUpdate(std::shared_ptr<const stream::LiveUpdate> update)
{
    // Posted before stop() joined the session's thread: the session has ended for the
    // window (its status says so), and a screenshot of N updates holds N.
    if (!running()) return;
    m_view->history().add(*update, static_cast<double>(m_clock.elapsed()) / 1000.0, m_ingestRate);
    if (!m_redraw.isActive()) m_redraw.start();
    emit updated(update->index);
}

void LiveController::onFailed(const QString& error)
{
    stop();
    m_window.showError(tr("Live session stopped: %1").arg(error));
    emit stopped(error);
}

void LiveController::pollFeed()
{
    const live::FeedStats stats = showFeed();
    if (stats.state == live::FeedStats::State::Refused) onFailed(tr("the feed refused this client: %1").arg(stats.lastProblem));
}

live::FeedStats LiveController::showFeed()
{
    const live::FeedStats stats = m_feed->stats();
    m_ingestRate = stats.messagesPerSecond;
    m_window.dataPanel().liveFeed().showStatus(statusOf(stats));
    return stats;
}

void LiveController::stop()
{
    if (!running()) return;
    m_stop = true;
    {
        std::lock_guard lock(m_clustererMutex);
        if (m_clusterer) m_clusterer->cancel();
    }
    m_thread.join();
    m_poll.stop();
    m_feed->stop();
    showFeed();
    m_feed.reset();
    m_inbox.reset();
    m_redraw.stop();
    m_view->refresh();
    m_window.dataPanel().liveFeed().setRunning(false);
    m_window.statusBar()->showMessage(tr("Live session stopped"), 10000);
    emit stopped({});
}

}  // namespace clusterdesk::gui
