// clusterdesk-feed: the console tick server. Prints the WebSocket URL, then the TCP URL,
// on stdout (the first lines, so a script or a test can read where to connect) and
// logs on stderr. Exit codes: 0 stopped by SIGINT/SIGTERM or the file played out,
// 2 usage error, 3 bad ticks file, 4 cannot listen.
#include "engine/core/error.h"
#include "engine/stream/tick_player.h"
#include "feed_log.h"
#include "feed_options.h"
#include "feed_server.h"
#include "signal_watch.h"
#include "tick_pump.h"

#include <QCoreApplication>

#include <csignal>
#include <cstdio>

int main(int argc, char** argv)
{
    using namespace clusterdesk;
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("clusterdesk-feed"));
    const feed::FeedOptions options = feed::parseFeedOptions(app.arguments());

    std::unique_ptr<stream::TickPlayer> player;
    try {
        player = options.demo.isEmpty() ? stream::tickFilePlayer(options.ticksFile.toStdString())
                                        : stream::marketPlayer(options.demo.toStdString());
    } catch (const UsageError& e) {
        std::fprintf(stderr, "clusterdesk-feed: --demo: %s\n", e.what());
        return 2;
    } catch (const Error& e) {
        std::fprintf(stderr, "clusterdesk-feed: %s\n", e.what());
        return 3;
    }
    const std::string stream = player->stream();
    feed::FeedServer server(options, stream, player->symbolCount());
    QString problem;
    if (!server.listen(&problem)) {
        std::fprintf(stderr, "clusterdesk-feed: %s\n", qPrintable(problem));
        return 4;
    }
    std::printf("%s\n", qPrintable(server.webSocketUrl().toString()));
    if (!server.tcpUrl().isEmpty()) std::printf("%s\n", qPrintable(server.tcpUrl().toString()));
    std::fflush(stdout);
    feed::logLine(QStringLiteral("streaming %1 (%2 symbols) at %3 speed%4")
                      .arg(QString::fromStdString(stream))
                      .arg(player->symbolCount())
                      .arg(options.speedText(), options.token.isEmpty() ? QString() : QStringLiteral(", token required")));

    feed::TickPump pump(std::move(player), options.speed, server);
    feed::SignalWatch stopSignals;
    QObject::connect(&stopSignals, &feed::SignalWatch::stopRequested, &app, [&](int signal) {
        feed::logLine(QStringLiteral("stopped by %1: %2 clients, %3 messages sent")
                          .arg(signal == SIGINT ? "SIGINT" : "SIGTERM")
                          .arg(server.clientCount())
                          .arg(server.messagesSent()));
        app.quit();
    });
    QObject::connect(&stopSignals, &feed::SignalWatch::rotateRequested, &pump, &feed::TickPump::rotate);
    QObject::connect(&pump, &feed::TickPump::finished, &app, [&] {
        feed::logLine(QStringLiteral("stopped: the stream ended after %1 messages sent").arg(server.messagesSent()));
        app.quit();
    });
    pump.start(options.rotateAt);
    return app.exec();
}
