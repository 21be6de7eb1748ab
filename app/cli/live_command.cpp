#include "live_command.h"

#include "cli_arguments.h"
#include "cli_errors.h"
#include "cli_options.h"

#include "app/live/feed_client.h"
#include "engine/core/error.h"
#include "engine/core/percentile.h"
#include "engine/core/printable.h"
#include "engine/data/text_cells.h"
#include "engine/exec/topology.h"
#include "engine/store/run_store.h"
#include "engine/telemetry/process_memory.h"
#include "engine/stream/live_clusterer.h"

#include <QCoreApplication>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <fstream>
#include <map>
#include <iostream>

namespace clusterdesk::cli {
namespace {

std::atomic<bool> g_stop{false};

void onInterrupt(int)
{
    g_stop = true;
}

struct LiveCommandOptions {
    RunOptions engine;       // --algo, --k, --mode, --topology, --threads, ... and --db, --no-record, --json
    QString feed;            // --feed URL
    QString tokenFile;       // --token-file
    std::vector<std::string> symbols;  // --symbols A,B,...
    std::int64_t barSeconds = 1;
    std::int64_t windowBars = 60;
    std::int64_t updateEvery = 5;
    double halfLifeSeconds = 0;  // --half-life; 0: every return in the window weighs the same
    double durationSeconds = 0;  // 0: until Ctrl-C (or --updates)
    int maxUpdates = 0;          // --updates: stop after this many; 0 = no limit
    Topology topology;           // --topology, its thread count (host@2) moved to engine.threads
};

// "60", "60s", "2m", "1h": seconds, for `option`.
double parseDuration(const std::string& option, const std::string& text)
{
    std::size_t used = 0;
    double value = -1;
    try {
        value = std::stod(text, &used);
    } catch (const std::exception&) {
    }
    const std::string unit = text.substr(std::min(used, text.size()));
    const double scale = unit.empty() || unit == "s" ? 1 : unit == "m" ? 60 : unit == "h" ? 3600 : -1;
    if (!(value > 0) || scale < 0)
        throw UsageError("option " + option + ": expected a positive time like 60s, 5m or 1h (got '" + text + "')");
    return value * scale;
}

LiveCommandOptions parseLiveOptions(const std::vector<std::string>& args)
{
    LiveCommandOptions o;
    o.engine.params.k = 10;  // the market demo's sectors; --k says otherwise
    std::set<std::string> seen;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& option = args[i];
        refuseRepeated(seen, option);
        auto value = [&]() -> const std::string& { return takeValue(args, i); };
        auto positive = [&](const std::string& text) { return parsePositive(option, text); };
        if (option == "--feed") o.feed = QString::fromStdString(value());
        else if (option == "--token-file") o.tokenFile = QString::fromStdString(value());
        else if (option == "--symbols") {
            std::string list = value();
            for (std::size_t start = 0; start <= list.size();) {
                const std::size_t comma = std::min(list.find(',', start), list.size());
                if (comma > start) o.symbols.push_back(list.substr(start, comma - start));
                start = comma + 1;
            }
            if (o.symbols.empty()) throw UsageError("option --symbols: expected names separated by commas");
        }
        else if (option == "--bar") o.barSeconds = positive(value());
        else if (option == "--window") o.windowBars = positive(value());
        else if (option == "--update-every") o.updateEvery = positive(value());
        else if (option == "--duration") o.durationSeconds = parseDuration(option, value());
        else if (option == "--half-life") o.halfLifeSeconds = parseDuration(option, value());
        else if (option == "--updates") o.maxUpdates = positive(value());
        else if (option == "--json") o.engine.jsonPath = value();
        else if (option == "--db") o.engine.dbPath = value();
        else if (option == "--no-record") o.engine.record = false;
        else if (option == "--token") throw UsageError("the token is read from --token-file FILE or $CLUSTERDESK_FEED_TOKEN, never from the command line (other users can read it there)");
        else if (!parseEngineOption(option, value, o.engine))
            throw UsageError("unknown option '" + option + "' (see clusterdesk-cli live --help)");
    }
    if (o.feed.isEmpty()) throw UsageError("live needs --feed URL (ws://, wss:// or tcp://HOST:PORT; clusterdesk-feed prints it)");
    if (o.windowBars < 2) throw UsageError("option --window: a live window needs at least 2 bars");
    checkEngineOptions(args, o.engine);
    // Here, before the store opens: a bad topology is a usage error, with nothing made.
    takeSpelledThreads(o.engine.topology, o.engine.threads);
    o.topology = parseTopology(o.engine.topology);
    return o;
}

// ", weighted by a 10 s half-life", or nothing for equal weights.
std::string halfLifeText(double seconds)
{
    if (seconds <= 0) return {};
    char text[64];
    std::snprintf(text, sizeof text, ", weighted by a %g s half-life", seconds);
    return text;
}

nlohmann::json latencyJson(double value, const std::vector<double>& all)
{
    return {{"value", value}, {"p50", percentile(all, 0.5)}, {"p99", percentile(all, 0.99)}, {"p999", percentile(all, 0.999)}};
}

nlohmann::json feedJson(const live::FeedStats& s)
{
    nlohmann::json badByReason = nlohmann::json::object();  // {"malformed JSON": 2, ...}
    for (const auto& [reason, count] : s.badReasons()) badByReason[reason] = count;
    return {{"state", live::describe(s.state).toStdString()}, {"messages", s.messages}, {"ticks", s.ticks},
            {"gaps", s.gaps}, {"missing", s.missing}, {"duplicates", s.duplicates}, {"out_of_order", s.outOfOrder},
            {"reconnects", s.reconnects}, {"bad", s.badTotal()}, {"bad_by_reason", badByReason}};
}

nlohmann::json updateJson(const stream::LiveUpdate& u, const std::vector<double>& latencies, const live::FeedStats& feed)
{
    nlohmann::json events = nlohmann::json::array();
    int survived = 0;
    for (const stream::ClusterEvent& e : u.events) {
        if (e.kind == stream::ClusterEvent::Kind::Survived) {
            ++survived;
            continue;
        }
        events.push_back({{"kind", stream::toString(e.kind)}, {"from", e.from}, {"to", e.to}});
    }
    nlohmann::json migrations = nlohmann::json::array();
    for (const stream::Migration& m : u.migrations) migrations.push_back({{"asset", m.asset}, {"from", m.from}, {"to", m.to}});
    nlohmann::json out{{"update", u.index},
                       {"time", data::formatTimestamp(u.barMicros)},
                       {"k", u.k},
                       {"assets", u.assets.size()},
                       {"events", events},
                       {"survived", survived},
                       {"moved", u.migrations.size()},
                       {"moved_share", u.movedShare},
                       {"migrations", migrations},
                       {"latency_ms", latencyJson(u.latencyMs, latencies)},
                       {"cluster_ms", u.clusterMs},
                       {"iterations", u.iterations},
                       {"inertia", u.inertia},
                       {"rss_mib", processMemory().residentMiB},
                       {"feed", feedJson(feed)}};
    if (!u.drift.empty()) out["drift"] = u.drift;
    if (u.missingBars > 0) out["missing_bars"] = u.missingBars;
    if (u.ari) out["ari"] = *u.ari;
    if (u.truthChanged) out["truth_changed"] = true;
    if (!u.runId.empty()) out["run"] = u.runId;
    return out;
}

std::string eventsText(const stream::LiveUpdate& u)
{
    auto ids = [](const std::vector<int>& list) {
        std::string out;
        for (int id : list) out += (out.empty() ? "" : ",") + std::to_string(id);
        return out;
    };
    // Births and deaths grouped ("born 0,1,2"); splits and merges one by one.
    std::vector<int> born, died;
    std::string text;
    for (const stream::ClusterEvent& e : u.events) {
        if (e.kind == stream::ClusterEvent::Kind::Born) born.insert(born.end(), e.to.begin(), e.to.end());
        else if (e.kind == stream::ClusterEvent::Kind::Died) died.insert(died.end(), e.from.begin(), e.from.end());
        else if (e.kind != stream::ClusterEvent::Kind::Survived)
            text += std::string(text.empty() ? "" : "; ") + stream::toString(e.kind) + " " + ids(e.from) + " -> " + ids(e.to);
    }
    if (!born.empty()) text += std::string(text.empty() ? "" : "; ") + "born " + ids(born);
    if (!died.empty()) text += std::string(text.empty() ? "" : "; ") + "died " + ids(died);
    // The flows between surviving clusters, with the first few movers by name: "moved
    // 0->1 x25 (S00_A001, S00_A003, S00_A005, ...)" (--json lists every one).
    constexpr std::size_t kNamed = 3;
    std::map<std::pair<int, int>, std::vector<std::string>> flows;
    for (const stream::Migration& m : u.migrations) flows[{m.from, m.to}].push_back(m.asset);
    for (const auto& [pair, assets] : flows) {
        std::string names;
        for (std::size_t i = 0; i < std::min(assets.size(), kNamed); ++i) names += (i ? ", " : "") + printable(assets[i]);
        if (assets.size() > kNamed) names += ", ...";
        text += std::string(text.empty() ? "" : "; ") + "moved " + std::to_string(pair.first) + "->" +
                std::to_string(pair.second) + " x" + std::to_string(assets.size()) + " (" + names + ")";
    }
    return text.empty() ? "none" : text;
}

// When the session ends, as the start line says it: whichever comes first.
std::string untilText(const LiveCommandOptions& o)
{
    std::string until;
    if (o.durationSeconds > 0) until = "for " + std::to_string(static_cast<int>(o.durationSeconds)) + " s";
    if (o.maxUpdates > 0) until += (until.empty() ? "for " : " or ") + std::to_string(o.maxUpdates) + (o.maxUpdates == 1 ? " update" : " updates");
    return ", " + (until.empty() ? std::string("until Ctrl-C") : until + " (or Ctrl-C)");
}

// What a session waiting for its first bar would otherwise keep to itself: a feed that
// cannot be reached (said once per reason, not at every retry), the connection when it
// comes, and a connected feed that sends nothing for the symbols asked.
class ConnectionWatch {
public:
    ConnectionWatch(std::string url, std::string symbols) : m_url(std::move(url)), m_symbols(std::move(symbols)) {}

    void look(const live::FeedStats& stats, double elapsedSeconds)
    {
        using State = live::FeedStats::State;
        if (stats.state == State::Reconnecting && stats.lastProblem != m_problem) {
            m_problem = stats.lastProblem;
            std::cerr << "clusterdesk-cli: live: " << m_url << ": " << m_problem.toStdString() << "; retrying until it answers (Ctrl-C stops)\n";
        } else if (stats.state == State::Connected && !m_problem.isEmpty()) {
            m_problem.clear();
            std::cerr << "clusterdesk-cli: live: connected to " << m_url << '\n';
        }
        if (stats.state == State::Connected && m_connectedAt < 0) m_connectedAt = elapsedSeconds;
        constexpr double kQuietSeconds = 10;
        if (!m_saidQuiet && m_connectedAt >= 0 && stats.ticks == 0 && elapsedSeconds - m_connectedAt > kQuietSeconds) {
            m_saidQuiet = true;
            std::cerr << "clusterdesk-cli: live: connected, but no tick in " << kQuietSeconds << " s"
                      << (m_symbols.empty() ? std::string(" (is the market open?)") : " for " + m_symbols + " (does the feed carry them?)") << '\n';
        }
    }

private:
    std::string m_url, m_symbols;
    QString m_problem;  // the unreachable feed's reason, last said
    double m_connectedAt = -1;
    bool m_saidQuiet = false;
};

}  // namespace

int liveCommand(const std::vector<std::string>& args)
{
    return exitCodeOf([&] {
        LiveCommandOptions o = parseLiveOptions(args);
        int argc = 1;
        char name[] = "clusterdesk-cli";
        char* argv[] = {name, nullptr};
        QCoreApplication app(argc, argv);

        std::unique_ptr<store::RunStore> runStore;
        if (o.engine.record) runStore = std::make_unique<store::RunStore>(storePath(o.engine.dbPath));
        stream::LiveOptions liveOptions;
        liveOptions.source = o.feed.toStdString();
        liveOptions.barSeconds = o.barSeconds;
        liveOptions.windowBars = o.windowBars;
        liveOptions.updateEveryBars = o.updateEvery;
        liveOptions.halfLifeSeconds = o.halfLifeSeconds;
        liveOptions.params = o.engine.params;
        liveOptions.symbols = o.symbols;
        liveOptions.topology = o.topology;
        // A live window is small (hundreds of rows): one thread unless told otherwise, so an
        // update never waits for cores the feed's socket and the server are using.
        liveOptions.threads = o.engine.threads > 0 ? o.engine.threads : 1;
        liveOptions.store = runStore.get();
        stream::LiveClusterer clusterer(liveOptions);

        live::FeedClientOptions feedOptions;
        feedOptions.url = QUrl(o.feed);
        feedOptions.symbols = o.symbols;
        feedOptions.token = live::readFeedToken(o.tokenFile);
        stream::TickInbox inbox(o.feed.toStdString(), liveOptions.barSeconds);
        live::FeedClient feed(feedOptions, inbox);

        std::ofstream jsonFile;
        std::ostream* json = nullptr;
        if (o.engine.jsonPath == "-") {
            json = &std::cout;
        } else if (!o.engine.jsonPath.empty()) {
            // Written as updates arrive (a log to follow), so it is checked, not renamed into place.
            std::vector<ProtectedFile> keep = storeFilesToKeep(o.engine.dbPath, o.engine.record);
            if (!o.tokenFile.isEmpty()) keep.push_back({o.tokenFile.toStdString(), "the feed's token (--token-file)"});
            checkOutputPath("--json", o.engine.jsonPath, keep);
            jsonFile.open(o.engine.jsonPath, std::ios::trunc);
            if (!jsonFile) throw OutputError("--json " + o.engine.jsonPath + ": cannot be written");
            json = &jsonFile;
        }

        g_stop = false;
        std::signal(SIGINT, onInterrupt);
        feed.start();
        std::cerr << "clusterdesk-cli: live on " << o.feed.toStdString() << ": " << o.barSeconds << " s bars, window "
                  << o.windowBars << " bars"
                  << halfLifeText(o.halfLifeSeconds)
                  << ", an update every " << o.updateEvery << " bars"
                  << untilText(o) << '\n';
        const auto started = std::chrono::steady_clock::now();
        std::string symbols;
        for (const std::string& symbol : o.symbols) symbols += (symbols.empty() ? "" : ",") + symbol;
        ConnectionWatch watch(o.feed.toStdString(), symbols);
        std::vector<double> latencies;
        int updates = 0;
        std::string refusal;
        bool saidWaiting = false;
        try {
            while (!g_stop && (o.maxUpdates == 0 || updates < o.maxUpdates)) {
                const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
                if (o.durationSeconds > 0 && elapsed >= o.durationSeconds) break;
                // Asleep until a bar closes; every 50 ms a look at Ctrl-C, the clock and the feed.
                if (!inbox.waitForClosed(std::chrono::milliseconds(50))) {
                    const live::FeedStats stats = feed.stats();
                    if (stats.state == live::FeedStats::State::Refused) {
                        refusal = stats.lastProblem.toStdString();
                        break;
                    }
                    watch.look(stats, elapsed);
                    continue;
                }
                const std::vector<stream::ReceivedBar> bars = inbox.takeClosed();
                const auto update = clusterer.add(bars, inbox.symbols(), inbox.sectors());
                if (!update) {
                    // Too few assets for the run: said the first time, not at every bar
                    // as more assets fill their windows. (A filling window is how every
                    // session starts: the summary says it if the session ends so.)
                    if (const stream::LiveWait wait = clusterer.waitingFor();
                        wait.kind == stream::LiveWait::Kind::TooFewAssets && !saidWaiting) {
                        saidWaiting = true;
                        std::cerr << "clusterdesk-cli: live: waiting: " << wait.text << '\n';
                    }
                    continue;
                }
                ++updates;
                latencies.push_back(update->latencyMs);
                if (json) *json << updateJson(*update, latencies, feed.stats()).dump() << std::endl;
                // A JSON file is a log beside the lines, not instead of them.
                if (json != &std::cout) {
                    char line[256];
                    std::snprintf(line, sizeof line, "update %d  %s  k %d  moved %zu (%.1f%%)  latency %.2f ms (p99 %.2f)",
                                  update->index, data::formatTimestamp(update->barMicros).c_str(), update->k,
                                  update->migrations.size(), 100.0 * update->movedShare, update->latencyMs,
                                  percentile(latencies, 0.99));
                    std::cout << line << (update->ari ? "  ARI " + std::to_string(*update->ari).substr(0, 5) : "")
                              << "  events: " << eventsText(*update)
                              << (update->missingBars > 0 ? "  " + std::to_string(update->missingBars) + " bars without ticks" : "")
                              << (update->drift.empty() ? "" : "  DRIFT: " + update->drift) << std::endl;
                }
            }
        } catch (...) {
            std::signal(SIGINT, SIG_DFL);
            throw;
        }
        std::signal(SIGINT, SIG_DFL);
        feed.stop();
        if (!refusal.empty()) throw UsageError("the feed refused this client: " + refusal);

        const live::FeedStats stats = feed.stats();
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        nlohmann::json summary{{"updates", updates},
                               {"duration_s", seconds},
                               {"latency_ms", {{"p50", percentile(latencies, 0.5)}, {"p99", percentile(latencies, 0.99)},
                                               {"p999", percentile(latencies, 0.999)}}},
                               {"late_ticks", inbox.lateTicks()},
                               {"peak_rss_mib", processMemory().peakMiB},
                               {"feed", feedJson(stats)}};
        // Without an update there is no latency to give, only the reason.
        // A feed that never answered (no socket, or a socket and not a message: another
        // service on that port) ends the session as an error, not as a quiet market.
        // So does a feed that sent no tick, only bad messages (beside its hello): nothing it
        // said could be clustered.
        const bool answered = stats.messages > 0;
        const bool onlyBad = answered && stats.ticks == 0 && stats.badTotal() > 0;
        const std::string silence = !answered ? (stats.connections > 0 ? "the feed was reached but never answered" : "the feed was never reached")
                                  : onlyBad   ? "no tick came, only " + std::to_string(stats.badTotal()) +
                                                  (stats.badTotal() == 1 ? " bad message" : " bad messages")
                                              : std::string();
        const std::string waiting = updates > 0 ? std::string() : !silence.empty() ? silence : clusterer.waitingFor().text;
        if (updates == 0) summary["latency_ms"] = nullptr;
        if (!waiting.empty()) summary["no_update_because"] = waiting;
        if (json) *json << nlohmann::json{{"summary", summary}}.dump() << std::endl;
        if (json != &std::cout) {
            char head[128];
            if (updates == 0)
                std::snprintf(head, sizeof head, "no update in %.0f s", seconds);
            else
                std::snprintf(head, sizeof head, "%d updates in %.0f s; latency p50 %.2f ms, p99 %.2f ms", updates, seconds,
                              percentile(latencies, 0.5), percentile(latencies, 0.99));
            const std::string why = waiting.empty() ? std::string() : " (" + waiting + ")";
            const std::string badWhy = stats.badTotal() > 0 ? " (" + stats.badByReason().toStdString() + ")" : std::string();
            // Ticks older than their bar are dropped (it may be published already): said,
            // so a feed whose clock runs backwards is not a mystery of empty windows.
            const std::string late = inbox.lateTicks() > 0 ? ", " + std::to_string(inbox.lateTicks()) + " late ticks (older than their bar, dropped)"
                                                           : std::string();
            std::printf("summary: %s%s; %lld ticks%s, %lld gaps, %lld reconnects, %lld bad messages%s; peak RSS %.0f MiB\n", head,
                        why.c_str(), static_cast<long long>(stats.ticks), late.c_str(),
                        static_cast<long long>(stats.gaps), static_cast<long long>(stats.reconnects),
                        static_cast<long long>(stats.badTotal()), badWhy.c_str(), processMemory().peakMiB);
        }
        if (!answered || onlyBad) {
            std::cerr << "clusterdesk-cli: live: " << o.feed.toStdString() << ": " << silence << " in "
                      << static_cast<long long>(seconds) << " s"
                      << (stats.lastProblem.isEmpty() ? std::string() : " (" + stats.lastProblem.toStdString() + ")") << '\n';
            return kExitData;
        }
        return kExitOk;
    });
}

}  // namespace clusterdesk::cli
