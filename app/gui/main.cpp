// clusterdesk: the workstation window. With no arguments it opens with the `market`
// demo loaded and ready to run. Without a display (no DISPLAY/WAYLAND_DISPLAY, or
// QT_QPA_PLATFORM=offscreen) it runs that main job and prints its summary instead, so
// scripts/run.sh does something useful on a headless box; --screenshot renders the
// window off screen into PNGs.
#include "clusterdesk/version.h"
#include "engine/core/vector_state.h"
#include "engine/data/open_source.h"
#include "engine/exec/run_summary.h"
#include "engine/session/run_session.h"
#include "engine/store/store_path.h"
#include "screenshot.h"
#include "workstation.h"

#include "ui/main_window.h"
#include "ui/panels/data_panel.h"
#include "ui/panels/live_feed_panel.h"

#include <QApplication>

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <optional>
#include <string>

namespace {

constexpr const char* kUsage =
    "Usage: clusterdesk [--demo SPEC] [--feed URL] [--db PATH]\n"
    "       clusterdesk --screenshot PATH [--demo SPEC | --feed URL] [--tab NAME|all] [--db PATH]\n"
    "       clusterdesk --help | --version\n\n"
    "Opens the workstation with a demo loaded and ready to run (default: market, 500 assets\n"
    "in 10 planted sectors; SPEC as in clusterdesk-cli, e.g. blobs:n=100000,d=16,k=8).\n"
    "Without a display it clusters the demo with AdaptGrow in exact mode, records the run\n"
    "in the store and prints the summary instead.\n\n"
    "  --screenshot PATH  run the default job (AdaptGrow, exact mode, k from 2 to 64) on the\n"
    "                     demo, render the window off screen and write PATH (PNG); with\n"
    "                     --tab all, PATH is a folder that gets one PNG per tab\n"
    "  --tab NAME         the tab to show: Clusters (default), Members, Evolution, Latency,\n"
    "                     Power, History, Compare (after a quick comparison of the demo\n"
    "                     on host@1, host, shards:2, model:h200, model:h200x8), Live or\n"
    "                     all; or a panel, captured alone: Data, Engine, Topology\n"
    "  --feed URL         a live feed (ws://, wss:// or tcp://; clusterdesk-feed prints it):\n"
    "                     the Data panel's Live feed is filled in, ready to Start; with\n"
    "                     --screenshot, a live session of k-means (k = 10) runs for 30\n"
    "                     updates instead of the job, and the tab is Live unless --tab says\n"
    "                     otherwise; a feed that sends no tick in 15 s fails (exit 4)\n"
    "  --db PATH          the run store every run is recorded in and the History tab lists\n"
    "                     (default: the one clusterdesk-cli uses, $CLUSTERDESK_DB or\n"
    "                     $XDG_DATA_HOME/clusterdesk/runs.sqlite); --screenshot uses a\n"
    "                     temporary one unless --db is given\n"
    "For everything else use clusterdesk-cli (see clusterdesk-cli --help).";

struct Arguments {
    std::optional<std::string> screenshot;
    std::string demo = "market";
    std::string tab = "Clusters";
    std::optional<std::string> db;
    std::string feed;
};

bool hasDisplay()
{
    const char* platform = std::getenv("QT_QPA_PLATFORM");
    if (platform && std::string(platform) == "offscreen") return false;
    return std::getenv("DISPLAY") || std::getenv("WAYLAND_DISPLAY");
}

// The main job without a window: the demo clustered with the window's defaults,
// recorded in the store as a run from the window would be.
int printMainJobSummary(const std::string& demo, const std::optional<std::string>& db)
{
    using namespace clusterdesk;
    try {
        const auto data = std::make_shared<const Dataset>(openSourceHashed(describeDemo(demo)));
        std::optional<store::RunStore> runStore;
        try {
            runStore.emplace(db ? *db : store::defaultStorePath().string());
        } catch (const std::exception& e) {
            std::fprintf(stderr, "clusterdesk: this run is not recorded: %s\n", e.what());
        }
        session::RunRequest request;
        request.data = data;
        request.params = gui::defaultParams();
        request.topology = parseTopology("host");
        request.store = runStore ? &*runStore : nullptr;
        session::RunSession session(request);
        PowerSampler power;
        const session::RunResult result = session.run({}, power);
        std::fputs(runSummaryText({*data, session.params(), request.topology, result.report, data->contentHash(), result.peakRssMiB,
                                   result.power})
                       .c_str(),
                   stdout);
        if (!result.recordProblem.empty()) std::fprintf(stderr, "clusterdesk: %s\n", result.recordProblem.c_str());
        if (!result.runId.empty()) std::printf("recorded  run %s in %s\n", result.runId.c_str(), runStore->path().c_str());
        return 0;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "clusterdesk: %s\n", e.what());
        return 4;
    }
}

// --db, else the store the CLI uses; without one the window still runs, unrecorded.
QString storePath(const std::optional<std::string>& db)
{
    try {
        return QString::fromStdString(db ? *db : clusterdesk::store::defaultStorePath().string());
    } catch (const std::exception& e) {
        std::fprintf(stderr, "clusterdesk: runs are not recorded: %s\n", e.what());
        return {};
    }
}

void setApplicationNames()
{
    QCoreApplication::setOrganizationName("ClusterDesk");
    QCoreApplication::setApplicationName("clusterdesk");
    QCoreApplication::setApplicationVersion(CLUSTERDESK_VERSION);
}

}  // namespace

int main(int argc, char** argv)
{
    Arguments args;
    bool tabGiven = false;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        // As clusterdesk-cli takes values: the next option is no value (--screenshot --tab
        // x would write a picture named --tab).
        auto value = [&]() -> std::optional<std::string> {
            const std::string next = i + 1 < argc ? argv[i + 1] : "";
            if (next.empty() || (next.rfind("--", 0) == 0 && next.size() > 2)) {
                std::fprintf(stderr, "clusterdesk: %s needs a value%s (see clusterdesk --help)\n", arg.c_str(),
                             next.empty() ? "" : (", but the option " + next + " follows it").c_str());
                return std::nullopt;
            }
            return std::string(argv[++i]);
        };
        if (arg == "--help" || arg == "-h") {
            std::puts(kUsage);
            return 0;
        }
        if (arg == "--version") {
            std::puts("clusterdesk " CLUSTERDESK_VERSION " (commit " CLUSTERDESK_GIT_COMMIT ")");
            return 0;
        }
        std::optional<std::string>* target = arg == "--screenshot" ? &args.screenshot : arg == "--db" ? &args.db : nullptr;
        if (target || arg == "--demo" || arg == "--tab" || arg == "--feed") {
            const auto v = value();
            if (!v) return 2;
            if (target) *target = *v;
            else (arg == "--demo" ? args.demo : arg == "--tab" ? args.tab : args.feed) = *v;
            tabGiven = tabGiven || arg == "--tab";
            continue;
        }
        std::fprintf(stderr, "clusterdesk: unknown argument '%s' (see clusterdesk --help)\n", arg.c_str());
        return 2;
    }

    if (args.screenshot) {
        if (!qEnvironmentVariableIsSet("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
        QApplication app(argc, argv);
        clusterdesk::clearUpperVectorState();  // see vector_state.h
        setApplicationNames();
        if (!args.feed.empty() && !tabGiven) args.tab = "Live";
        return clusterdesk::gui::writeScreenshots(
            {QString::fromStdString(*args.screenshot), QString::fromStdString(args.demo), QString::fromStdString(args.tab),
             QString::fromStdString(args.db.value_or("")), QString::fromStdString(args.feed)});
    }
    if (!hasDisplay()) return printMainJobSummary(args.demo, args.db);

    QApplication app(argc, argv);
    clusterdesk::clearUpperVectorState();  // before any thread starts: they inherit it (vector_state.h)
    setApplicationNames();
    clusterdesk::gui::Workstation station(storePath(args.db));
    station.window().show();
    station.loadDemo(QString::fromStdString(args.demo));
    if (!args.feed.empty()) station.window().dataPanel().liveFeed().setUrl(QString::fromStdString(args.feed));
    return QApplication::exec();
}
