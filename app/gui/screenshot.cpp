#include "screenshot.h"

#include "compare_controller.h"
#include "history_controller.h"
#include "live_controller.h"
#include "workstation.h"

#include "engine/core/error.h"
#include "engine/core/output_file.h"
#include "engine/store/store_path.h"
#include "ui/compare/compare_view.h"
#include "ui/compare/topology_picker.h"
#include "ui/history/history_view.h"
#include "ui/history/run_filter_proxy.h"
#include "ui/history/run_table_model.h"
#include "ui/live/live_view.h"
#include "ui/panels/data_panel.h"
#include "ui/panels/engine_panel.h"
#include "ui/panels/live_feed_panel.h"
#include "ui/plots/plot_view.h"

#include <QBuffer>
#include <QCoreApplication>
#include <QDir>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFileInfo>
#include <QTableView>
#include <QTemporaryDir>
#include <QTabWidget>
#include <QTimer>

#include <cstdio>

namespace clusterdesk::gui {
namespace {

// Waits in a local event loop until `done` fires; false when `failed` fires first or
// after the timeout.
template <typename Done, typename Failed>
bool waitFor(Workstation* sender, Done done, Failed failed, int timeoutMs)
{
    QEventLoop loop;
    bool fired = false;
    QObject::connect(sender, done, &loop, [&] {
        fired = true;
        loop.quit();
    });
    QObject::connect(sender, failed, &loop, &QEventLoop::quit);
    QTimer::singleShot(timeoutMs, &loop, &QEventLoop::quit);
    loop.exec();
    return fired;
}

// A picture is an output like any other: checked against the store, written to a
// temporary file and renamed into place.
bool savePng(QWidget& shown, const QString& path, const std::vector<ProtectedFile>& keep)
{
    QByteArray png;
    QBuffer buffer(&png);
    try {
        checkOutputPath("--screenshot", path.toStdString(), keep);
        if (!buffer.open(QIODevice::WriteOnly) || !shown.grab().save(&buffer, "PNG"))
            throw OutputError("cannot write " + path.toStdString() + ": the window could not be encoded as PNG");
        writeFileReplacing(path.toStdString(), std::string_view(png.constData(), static_cast<std::size_t>(png.size())));
    } catch (const Error& e) {
        std::fprintf(stderr, "clusterdesk: %s\n", e.what());
        return false;
    }
    return true;
}

// The docked panel (Data, Engine, Topology) titled `name`; null when none is.
QDockWidget* panelNamed(ui::MainWindow& window, const QString& name)
{
    for (QDockWidget* dock : window.findChildren<QDockWidget*>())
        if (dock->windowTitle().compare(name, Qt::CaseInsensitive) == 0) return dock;
    return nullptr;
}

// Why `name` is no tab or panel to capture, with every one that is; empty when it is one.
QString whyNoSuchPicture(ui::MainWindow& window, const QString& name)
{
    if (panelNamed(window, name) || window.tabTitles().contains(name, Qt::CaseInsensitive)) return {};
    QStringList panels;
    for (QDockWidget* dock : window.findChildren<QDockWidget*>()) panels << dock->windowTitle();
    panels.sort();
    return QString("no tab or panel '%1' (tabs: %2; or all of them: all; panels: %3)")
        .arg(name, window.tabTitles().join(", "), panels.join(", "));
}

bool saveTab(ui::MainWindow& window, const QString& tab, const QString& path, const std::vector<ProtectedFile>& keep)
{
    // A docked panel alone, floated and tall enough to show all of it.
    QDockWidget* const panel = panelNamed(window, tab);
    if (panel) {
        panel->setFloating(true);
        panel->resize(440, 760);
        panel->show();
        panel->raise();
    } else if (!window.showTab(tab)) {
        std::fprintf(stderr, "clusterdesk: %s\n", qPrintable(whyNoSuchPicture(window, tab)));  // checked before the job; kept as a guard
        return false;
    }
    // The Compare tab holds its own choices: without the docked panels its table and
    // graphs get the window's width, as a quick look at a comparison would give them.
    QList<QDockWidget*> hidden;
    if (tab.compare("compare", Qt::CaseInsensitive) == 0)
        for (QDockWidget* dock : window.findChildren<QDockWidget*>())
            if (dock->isVisible()) hidden << dock;
    for (QDockWidget* dock : hidden) dock->hide();
    window.refreshAll();
    QCoreApplication::processEvents();
    // A plot lays itself out when it replots, which a window on screen does after its
    // resize; grab() paints what the plots hold now, so every plot of the tab (the Live
    // tab has three) replots first.
    QWidget* current = window.tabs().currentWidget();
    if (auto* plot = qobject_cast<QCustomPlot*>(current)) plot->replot();
    for (QCustomPlot* plot : current->findChildren<QCustomPlot*>()) plot->replot();
    QWidget* shown = panel ? static_cast<QWidget*>(panel) : &window;
    const bool saved = savePng(*shown, path, keep);
    for (QDockWidget* dock : hidden) dock->show();
    if (!saved) return false;
    std::printf("wrote %s\n", qPrintable(path));
    return true;
}

// The picture asked for: one tab or panel at the path, or with "all" every tab into the
// folder at the path. A process exit code.
int savePictures(ui::MainWindow& window, const ScreenshotRequest& request, const std::vector<ProtectedFile>& keep)
{
    if (request.tab.compare("all", Qt::CaseInsensitive) != 0) return saveTab(window, request.tab, request.path, keep) ? 0 : 2;
    if (!QDir().mkpath(request.path)) {
        std::fprintf(stderr, "clusterdesk: cannot create folder %s\n", qPrintable(request.path));
        return 2;
    }
    for (const QString& tab : window.tabTitles())
        if (!saveTab(window, tab, QDir(request.path).filePath(tab.toLower() + ".png"), keep)) return 2;
    return 0;
}

// The History tab with the run just recorded listed and selected, its lineage shown.
// Returns what went wrong, or an empty string.
QString showRecordedRun(HistoryController& history, int timeoutMs)
{
    QString problem;
    auto waitFor = [&](auto signal) {
        QEventLoop loop;
        bool fired = false;
        QObject::connect(&history, signal, &loop, [&] {
            fired = true;
            loop.quit();
        });
        QObject::connect(&history, &HistoryController::failed, &loop, [&](const QString& message) {
            problem = message;
            loop.quit();
        });
        QTimer::singleShot(timeoutMs, &loop, &QEventLoop::quit);
        loop.exec();
        if (!fired && problem.isEmpty()) problem = "the run store did not answer in time";
        return fired;
    };
    QMetaObject::invokeMethod(&history, &HistoryController::refresh, Qt::QueuedConnection);
    if (!waitFor(&HistoryController::refreshed)) return problem;
    ui::HistoryView& view = history.view();
    if (view.proxy().rowCount() == 0) return "the run was not recorded";
    QMetaObject::invokeMethod(&view, [&view] { view.table().selectRow(0); }, Qt::QueuedConnection);
    waitFor(&HistoryController::runShown);
    return problem;
}

// The Compare tab filled by a quick comparison of the demo: three topologies measured
// here and two modeled, so the picture shows both kinds of bar. Returns what went
// wrong, or an empty string.
QString fillComparison(CompareController& compare, int timeoutMs)
{
    const QStringList topologies = {"host@1", "host", "shards:2", "model:h200", "model:h200x8"};
    compare.view().picker().select(topologies);
    QEventLoop loop;
    QString problem = "the comparison did not finish in time";
    QObject::connect(&compare, &CompareController::finished, &loop, [&] {
        problem.clear();
        loop.quit();
    });
    QObject::connect(&compare, &CompareController::failed, &loop, [&](const QString& message) {
        problem = message;
        loop.quit();
    });
    QTimer::singleShot(timeoutMs, &loop, &QEventLoop::quit);
    compare.start(topologies);
    loop.exec();
    return problem;
}

}  // namespace

// A live session on the feed until it published `updates` updates; empty, or why not.
// A feed never reached, or reached and silent, fails after kSilentFeedMs: a screenshot
// runs in scripts, where a session that keeps retrying would hang them.
QString runLiveSession(Workstation& station, const QString& feed, int updates, int timeoutMs)
{
    constexpr int kSilentFeedMs = 15 * 1000;
    KMeansParams params;
    params.algorithm = Algorithm::KMeans;
    params.k = 10;
    station.window().enginePanel().setParams(params);
    ui::LiveFeedPanel& panel = station.window().dataPanel().liveFeed();
    panel.setUrl(feed);
    QString failure;
    int published = 0;
    // The connections end with this function: an update still queued when it returns
    // would otherwise write into its finished frame (the window crashed in grab()).
    QObject scope;
    QEventLoop loop;
    QObject::connect(&station.live(), &LiveController::stopped, &scope, [&](const QString& error) {
        if (failure.isEmpty()) failure = error;  // stop() below says "" after a failure
        if (!failure.isEmpty()) loop.quit();
    });
    QObject::connect(&station.live(), &LiveController::updated, &scope, [&](int update) {
        published = update;
        if (published >= updates) loop.quit();  // at once: the session stops at this update
    });
    panel.startButton().click();
    if (!station.live().running()) return "the live session did not start (is " + feed + " a feed URL?)";
    QTimer poll;
    QElapsedTimer clock;
    clock.start();
    QObject::connect(&poll, &QTimer::timeout, &loop, [&] {
        const live::FeedStats stats = station.live().feedStats();
        if (clock.elapsed() > kSilentFeedMs && stats.ticks == 0) {
            // One arg() call: the URL or the problem may hold a %2 of their own.
            const QString seconds = QString::number(kSilentFeedMs / 1000);
            failure = stats.connections == 0 ? QString("the feed %1 was never reached in %2 s (%3)").arg(feed, seconds, stats.lastProblem)
                                             : QString("the feed %1 was reached but sent no tick in %2 s").arg(feed, seconds);
        }
        if (!failure.isEmpty()) loop.quit();
    });
    poll.start(50);
    QTimer::singleShot(timeoutMs, &loop, &QEventLoop::quit);
    loop.exec();
    station.live().stop();
    if (!failure.isEmpty()) return failure;
    if (published < updates) return QString("fewer than %1 live updates in time").arg(updates);
    return {};
}

int writeScreenshots(const ScreenshotRequest& request)
{
    constexpr int kTimeoutMs = 10 * 60 * 1000;
    const bool all = request.tab.compare("all", Qt::CaseInsensitive) == 0;
    QTemporaryDir scratch;  // the store when none is given: a screenshot is not a run to keep
    const QString storePath = request.storePath.isEmpty() ? scratch.filePath("runs.sqlite") : request.storePath;
    // The path is checked before the job runs, so a bad one fails at once; the store's
    // files include the chain key, the user's even with a scratch store.
    const std::vector<ProtectedFile> keep = store::storeFiles(storePath.toStdString());
    if (!all) {
        try {
            if (!request.path.endsWith(".png", Qt::CaseInsensitive))
                throw UsageError("--screenshot " + request.path.toStdString() + ": the picture is a PNG, so the file must end in .png");
            checkOutputPath("--screenshot", request.path.toStdString(), keep);
        } catch (const Error& e) {
            std::fprintf(stderr, "clusterdesk: %s\n", e.what());
            return 2;
        }
    }
    Workstation station(storePath);
    ui::MainWindow& window = station.window();
    if (const QString why = all ? QString() : whyNoSuchPicture(window, request.tab); !why.isEmpty()) {
        std::fprintf(stderr, "clusterdesk: %s\n", qPrintable(why));
        return 2;
    }
    window.resize(1280, 800);
    window.show();
    if (!request.feed.isEmpty()) {
        if (const QString problem = runLiveSession(station, request.feed, request.liveUpdates, kTimeoutMs); !problem.isEmpty()) {
            std::fprintf(stderr, "clusterdesk: %s\n", qPrintable(problem));
            return 4;
        }
        return savePictures(window, request, keep);
    }
    QString failure;
    QObject::connect(&station, &Workstation::loadFailed, [&](const QString& message) { failure = message; });
    station.loadDemo(request.demo);
    if (!waitFor(&station, &Workstation::datasetReady, &Workstation::loadFailed, kTimeoutMs)) {
        std::fprintf(stderr, "clusterdesk: %s\n", qPrintable(failure.isEmpty() ? QString("the demo took too long") : failure));
        return 3;
    }
    ui::RunOutcome outcome;
    QObject::connect(&station, &Workstation::runFinished, [&](const ui::RunOutcome& o) { outcome = o; });
    station.startRun();
    if (!waitFor(&station, &Workstation::runFinished, &Workstation::loadFailed, kTimeoutMs)) {
        std::fprintf(stderr, "clusterdesk: the run did not finish in time\n");
        return 4;
    }
    if (!outcome.error.isEmpty()) {
        std::fprintf(stderr, "clusterdesk: %s\n", qPrintable(outcome.error));
        return 4;
    }
    if (const QString problem = showRecordedRun(*station.history(), kTimeoutMs); !problem.isEmpty()) {
        std::fprintf(stderr, "clusterdesk: %s\n", qPrintable(problem));
        return 4;
    }
    if (all || request.tab.compare("compare", Qt::CaseInsensitive) == 0) {
        if (const QString problem = fillComparison(station.compare(), kTimeoutMs); !problem.isEmpty()) {
            std::fprintf(stderr, "clusterdesk: %s\n", qPrintable(problem));
            return 4;
        }
    }
    return savePictures(window, request, keep);
}

}  // namespace clusterdesk::gui
