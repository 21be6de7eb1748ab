#include "feed_options.h"

#include "engine/core/error.h"
#include "engine/core/file_bytes.h"

#include <QCommandLineParser>

#include <cstdio>
#include <cstdlib>
#include <limits>

namespace clusterdesk::feed {
namespace {

[[noreturn]] void usageError(const QString& message)
{
    std::fprintf(stderr, "clusterdesk-feed: %s (see clusterdesk-feed --help)\n", qPrintable(message));
    std::exit(2);
}

// "127.0.0.1:0" or "[::1]:4000" or "0.0.0.0:4000".
void parseListen(const QString& text, const char* flag, QHostAddress& host, quint16& port)
{
    const int colon = text.lastIndexOf(':');
    if (colon <= 0) usageError(QStringLiteral("%1 %2: expected HOST:PORT").arg(flag, text));
    QString hostText = text.left(colon);
    if (hostText.startsWith('[') && hostText.endsWith(']')) hostText = hostText.mid(1, hostText.size() - 2);
    bool ok = false;
    const uint value = text.mid(colon + 1).toUInt(&ok);
    if (!ok || value > 65535) usageError(QStringLiteral("%1 %2: the port is not 0..65535").arg(flag, text));
    QHostAddress address;
    if (hostText == QLatin1String("localhost"))
        address = QHostAddress::LocalHost;
    else if (!address.setAddress(hostText))
        usageError(QStringLiteral("%1 %2: '%3' is not an IP address").arg(flag, text, hostText));
    host = address;
    port = static_cast<quint16>(value);
}

}  // namespace

QString FeedOptions::speedText() const
{
    return speed == 0 ? QStringLiteral("max") : QString::number(speed) + 'x';
}

FeedOptions parseFeedOptions(const QStringList& arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        "Streams ticks to any number of clients: the market demo live (its factor model stepping in time,\n"
        "with a sector rotation on schedule) or a ticks file replayed. Each tick is one JSON message\n"
        "{type, seq, symbol, price, size, ts, sector} over WebSocket, and the same as newline-delimited JSON\n"
        "over plain TCP. Prints the WebSocket URL on its first line and the TCP URL on its second.\n\n"
        "Binds 127.0.0.1 unless told otherwise; any other address needs --token-file, and clients must\n"
        "send that token in their subscribe message. Stops cleanly on SIGINT or SIGTERM; SIGUSR1 makes the\n"
        "demo's regime change at once.");
    parser.addHelpOption();
    parser.addOptions({
        {"demo", "Stream a live demo: market[:assets=500,sectors=10,seed=7,step_ms=100,corr_market=0.3,corr_sector=0.7].", "SPEC"},
        {"ticks", "Replay a ticks file (timestamp,symbol,price[,size]).", "FILE"},
        {"speed", "Exchange seconds per wall second (1 = real time, the default), or max.", "N|max", "1"},
        {"listen", "WebSocket address (default 127.0.0.1:0); port 0 picks a free one.", "HOST:PORT", "127.0.0.1:0"},
        {"tcp-listen", "Plain TCP address (newline-delimited JSON); default: the WebSocket host, a free port.", "HOST:PORT"},
        {"rotate-at", "The demo's sector rotation, this many wall-clock seconds after start (whatever the speed); without it, only SIGUSR1 rotates.", "SECONDS"},
        {"token-file", "A file whose first line is the access token clients must present.", "FILE"},
        {"cert", "TLS certificate (PEM): serve wss:// instead of ws://.", "FILE"},
        {"key", "TLS private key (PEM) for --cert.", "FILE"},
    });
    if (!parser.parse(arguments)) usageError(parser.errorText());
    if (parser.isSet("help")) {
        std::fputs(qPrintable(parser.helpText()), stdout);
        std::exit(0);
    }
    if (!parser.positionalArguments().isEmpty())
        usageError("unexpected argument '" + parser.positionalArguments().first() + "'");
    // Given twice, an option is refused rather than resolved by order (as clusterdesk-cli does).
    for (const QString& name : parser.optionNames())
        if (parser.values(name).size() > 1) usageError("--" + name + " is given more than once; give it once");

    FeedOptions options;
    if (parser.isSet("demo") == parser.isSet("ticks")) usageError("give one of --demo SPEC or --ticks FILE");
    options.demo = parser.value("demo");
    options.ticksFile = parser.value("ticks");
    const QString speed = parser.value("speed");
    if (speed == QLatin1String("max")) {
        options.speed = 0;
    } else {
        bool ok = false;
        options.speed = speed.toDouble(&ok);
        if (!ok || !(options.speed > 0) || options.speed > 1e6) usageError("--speed " + speed + ": expected a positive number or max");
    }
    parseListen(parser.value("listen"), "--listen", options.host, options.port);
    if (parser.isSet("tcp-listen")) {
        QHostAddress tcpHost;
        parseListen(parser.value("tcp-listen"), "--tcp-listen", tcpHost, options.tcpPort);
        if (tcpHost != options.host) usageError("--tcp-listen must use the same host as --listen (one access rule)");
    }
    if (parser.isSet("rotate-at")) {
        if (!options.ticksFile.isEmpty()) usageError("--rotate-at is the demo's regime change; a ticks file has its own");
        bool ok = false;
        const double seconds = parser.value("rotate-at").toDouble(&ok);
        // The timer counts int milliseconds: beyond that the rotation would come at once.
        constexpr double kLatestSeconds = std::numeric_limits<int>::max() / 1000;
        if (!ok || !(seconds >= 0 && seconds <= kLatestSeconds))
            usageError("--rotate-at " + parser.value("rotate-at") + ": expected seconds from 0 to " + QString::number(kLatestSeconds) +
                       " (about 24 days)");
        options.rotateAt = seconds;
    }
    if (parser.isSet("token-file")) {
        const QString tokenFile = parser.value("token-file");
        try {
            options.token = QString::fromStdString(readFirstLine(tokenFile.toStdString())).trimmed();
        } catch (const DataError& e) {
            usageError("--token-file: " + QString::fromStdString(e.what()));
        }
        if (options.token.isEmpty()) usageError("--token-file " + tokenFile + ": the first line is empty");
    }
    if (!options.host.isLoopback() && options.token.isEmpty())
        usageError("--listen " + options.host.toString() +
                   " is reachable from other machines: give --token-file so that only clients with the token get in");
    if (parser.isSet("cert") != parser.isSet("key")) usageError("--cert and --key go together");
    options.certFile = parser.value("cert");
    options.keyFile = parser.value("key");
    return options;
}

}  // namespace clusterdesk::feed
