// The live feed end to end, with the real clusterdesk-feed on 127.0.0.1 (ephemeral
// ports) and the real client: the 500-asset market demo over WebSocket and over TCP,
// the server killed and restarted under a connected client, the access token off
// loopback, wss:// with a certificate made here, a corpus of malformed messages from a
// hand-written server, and a clean stop on SIGINT.
#include "feed_process.h"
#include "temp_dir.h"

#include "app/live/feed_client.h"
#include "engine/stream/tick_inbox.h"

#include <QFile>
#include <QStandardPaths>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

#include <utility>

using namespace clusterdesk;
using clusterdesk::test::FeedProcess;

namespace {

constexpr int kWaitMs = 60000;  // generous: a loaded machine is slow, never wrong

QString writeFile(const QString& path, const QByteArray& text)
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly)) return {};
    file.write(text);
    return path;
}

// A client on `url` filling its own inbox.
struct Client {
    explicit Client(const QUrl& url, const QString& token = {}, std::int64_t barSeconds = 1)
        : inbox(url.toString().toStdString(), barSeconds)
    {
        live::FeedClientOptions options;
        options.url = url;
        options.token = token;
        feed = std::make_unique<live::FeedClient>(options, inbox);
        feed->start();
    }
    bool waitFor(const std::function<bool(const live::FeedStats&)>& condition)
    {
        return QTest::qWaitFor([&] { return condition(feed->stats()); }, kWaitMs);
    }
    stream::TickInbox inbox;
    std::unique_ptr<live::FeedClient> feed;
};

}  // namespace

class TestFeed : public QObject {
    Q_OBJECT
private slots:
    void demoOverWebSocketAndTcp_data()
    {
        QTest::addColumn<bool>("tcp");
        QTest::newRow("ws") << false;
        QTest::newRow("tcp") << true;
    }
    void demoOverWebSocketAndTcp()
    {
        QFETCH(bool, tcp);
        FeedProcess server({"--demo", "market:assets=500,sectors=10", "--speed", "20"});
        QVERIFY2(server.started && server.webSocketUrl().isValid(), qPrintable(server.log()));
        QCOMPARE(server.webSocketUrl().scheme(), QStringLiteral("ws"));
        QCOMPARE(server.tcpUrl().scheme(), QStringLiteral("tcp"));
        Client client(tcp ? server.tcpUrl() : server.webSocketUrl());
        // 20 steps of 500 ticks: a few bars' worth.
        QVERIFY2(client.waitFor([](const live::FeedStats& s) { return s.ticks >= 10000; }),
                 qPrintable(describe(client.feed->stats().state) + ": " + client.feed->stats().lastProblem));
        const live::FeedStats stats = client.feed->stats();
        QCOMPARE(stats.state, live::FeedStats::State::Connected);
        QVERIFY(stats.stream.startsWith("market:assets=500,sectors=10"));
        QCOMPARE(stats.gaps, 0);
        QCOMPARE(stats.duplicates, 0);
        QCOMPARE(stats.badTotal(), 0);
        QCOMPARE(client.inbox.symbols().size(), std::size_t(500));
        const auto sectors = client.inbox.sectors();
        QCOMPARE(QString::fromStdString(sectors.at("S03_A013")), QStringLiteral("S03"));
        QVERIFY(!client.inbox.takeClosed().empty());
        QCOMPARE(client.inbox.lateTicks(), 0);
    }

    void restartedServerIsReconnectedTo()
    {
        FeedProcess first({"--demo", "market:assets=50,sectors=5", "--speed", "10"});
        QVERIFY2(first.started && first.webSocketUrl().isValid(), qPrintable(first.log()));
        const QUrl url = first.webSocketUrl();
        Client client(url);
        QVERIFY(client.waitFor([](const live::FeedStats& s) { return s.ticks >= 500; }));
        QCOMPARE(first.stop(SIGKILL), -1);  // killed: no clean exit
        QVERIFY(client.waitFor([](const live::FeedStats& s) { return s.state == live::FeedStats::State::Reconnecting; }));
        const std::int64_t before = client.feed->stats().ticks;
        FeedProcess second({"--demo", "market:assets=50,sectors=5", "--speed", "10", "--listen",
                            "127.0.0.1:" + QString::number(url.port())});
        QVERIFY2(second.started && second.webSocketUrl() == url, qPrintable(second.log()));
        QVERIFY(client.waitFor([&](const live::FeedStats& s) {
            return s.state == live::FeedStats::State::Connected && s.ticks >= before + 500;
        }));
        const live::FeedStats stats = client.feed->stats();
        QVERIFY(stats.reconnects >= 1);
        QVERIFY(!stats.lastProblem.isEmpty());  // why it dropped
        QCOMPARE(stats.duplicates, 0);  // the new connection's numbering starts afresh
    }

    void tokenIsRequiredOffLoopback()
    {
        test::TempDir temp;
        const QString dir = QString::fromStdString(temp.path());
        const QString tokenFile = writeFile(dir + "/token", "s3cret-token\n");
        // Without a token the server refuses to listen beyond this machine.
        FeedProcess open({"--demo", "market:assets=20,sectors=2", "--listen", "0.0.0.0:0"});
        QVERIFY(open.process().state() == QProcess::NotRunning || open.process().waitForFinished(20000));
        QCOMPARE(open.process().exitCode(), 2);
        QVERIFY(open.log().contains("--token-file"));

        FeedProcess server({"--demo", "market:assets=20,sectors=2", "--listen", "0.0.0.0:0", "--token-file", tokenFile});
        QVERIFY2(server.started && server.webSocketUrl().isValid(), qPrintable(server.log()));
        QUrl url = server.webSocketUrl();
        url.setHost("127.0.0.1");
        for (const QString& token : {QString(), QStringLiteral("guess")}) {
            Client refused(url, token);
            QVERIFY(refused.waitFor([](const live::FeedStats& s) { return s.state == live::FeedStats::State::Refused; }));
            QVERIFY(refused.feed->stats().lastProblem.contains(token.isEmpty() ? "no access token" : "wrong access token"));
            QCOMPARE(refused.feed->stats().ticks, 0);
        }
        // The token from the file, as a user's client reads it.
        Client admitted(url, live::readFeedToken(tokenFile));
        QVERIFY(admitted.waitFor([](const live::FeedStats& s) { return s.ticks >= 100; }));
        QTest::qWait(200);
        const QString log = server.log();
        QVERIFY(log.contains("refused: no access token"));
        QVERIFY(log.contains("refused: wrong access token"));
    }

    void secureWebSocket()
    {
        const QString openssl = QStandardPaths::findExecutable("openssl");
        if (openssl.isEmpty()) QSKIP("openssl is not installed: no test certificate can be made (scripts/install-deps.sh installs it)");
        test::TempDir temp;
        const QString dir = QString::fromStdString(temp.path());
        QProcess make;
        make.start(openssl, QStringList{"req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", dir + "/key.pem", "-out",
                             dir + "/cert.pem", "-days", "1", "-subj", "/CN=127.0.0.1"});
        QVERIFY(make.waitForFinished(60000));
        QCOMPARE(make.exitCode(), 0);
        FeedProcess server(QStringList{"--demo", "market:assets=20,sectors=2", "--cert", dir + "/cert.pem", "--key",
                            dir + "/key.pem"});
        QVERIFY2(server.started && server.webSocketUrl().scheme() == "wss", qPrintable(server.log()));
        Client client(server.webSocketUrl());
        QVERIFY2(client.waitFor([](const live::FeedStats& s) { return s.ticks >= 100; }),
                 qPrintable(client.feed->stats().lastProblem));
        QCOMPARE(client.feed->stats().badTotal(), 0);
    }

    // A hand-written server sends every kind of bad message between good ticks: each is
    // counted under its reason, the gap and the duplicate are seen, nothing stops.
    void malformedMessagesAreCountedNotFatal()
    {
        QTcpServer fake;
        QVERIFY(fake.listen(QHostAddress::LocalHost, 0));
        const QList<QByteArray> corpus = {
            R"({"type":"hello","stream":"fake","symbols":2,"speed":"1x"})",
            R"({"type":"tick","seq":1,"symbol":"A","price":10,"ts":1000000})",
            R"({"type":"tick","seq":2,"symbol":"A","price":10.5,)",
            R"(not json at all)",
            R"({"type":"quote","seq":3})",
            R"({"type":"tick","seq":3,"symbol":"A","ts":1000000})",
            R"({"type":"tick","seq":3,"symbol":"A","price":1,"ts":1000000,"venue":"X"})",
            R"({"type":"tick","seq":3,"symbol":"A","price":-1,"ts":1000000})",
            R"({"type":"tick","seq":3,"symbol":"A","price":1,"size":-5,"ts":1000000})",
            R"({"type":"tick","seq":-3,"symbol":"A","price":1,"ts":1000000})",
            R"({"type":"tick","seq":2,"symbol":"B","price":20,"ts":1000000})",
            R"({"type":"tick","seq":2,"symbol":"B","price":20,"ts":1000000})",
            R"({"type":"tick","seq":1,"symbol":"B","price":20,"ts":1000000})",
            R"({"type":"tick","seq":7,"symbol":"A","price":11,"ts":2500000})",
        };
        QByteArray subscribe;
        connect(&fake, &QTcpServer::newConnection, this, [&] {
            QTcpSocket* socket = fake.nextPendingConnection();
            connect(socket, &QTcpSocket::readyRead, socket, [&, socket] {
                subscribe += socket->readAll();
                if (!subscribe.contains('\n')) return;
                for (const QByteArray& line : corpus) socket->write(line + '\n');
            });
        });
        QUrl url;
        url.setScheme("tcp");
        url.setHost("127.0.0.1");
        url.setPort(fake.serverPort());
        Client client(url);
        QVERIFY(client.waitFor([&](const live::FeedStats& s) { return s.messages >= corpus.size(); }));
        const live::FeedStats stats = client.feed->stats();
        QVERIFY(subscribe.contains("\"subscribe\""));
        QCOMPARE(stats.ticks, 3);  // seq 1, 2 and 7
        auto bad = [&](stream::BadMessage reason) { return stats.bad[static_cast<std::size_t>(reason)]; };
        QCOMPARE(bad(stream::BadMessage::NotJson), 2);
        QCOMPARE(bad(stream::BadMessage::UnknownType), 1);
        QCOMPARE(bad(stream::BadMessage::MissingField), 1);
        QCOMPARE(bad(stream::BadMessage::UnknownField), 1);
        QCOMPARE(bad(stream::BadMessage::BadPrice), 1);
        QCOMPARE(bad(stream::BadMessage::BadSize), 1);
        QCOMPARE(bad(stream::BadMessage::BadSequence), 1);
        QCOMPARE(stats.badByReason(), QString("2 malformed JSON, 1 unknown message type, 1 missing or mistyped field, 1 unknown field, "
                                              "1 price not finite and positive, 1 size negative or not finite, "
                                              "1 sequence number not a positive integer"));
        QCOMPARE(stats.duplicates, 1);
        QCOMPARE(stats.outOfOrder, 1);
        QCOMPARE(stats.gaps, 1);
        QCOMPARE(stats.missing, 4);  // 3..6
        QCOMPARE(stats.state, live::FeedStats::State::Connected);
        // The tick at 2.5 s closed the bar of second 1.
        const auto bars = client.inbox.takeClosed();
        QCOMPARE(bars.size(), std::size_t(1));
        QCOMPARE(bars[0].bar.symbols.size(), std::size_t(2));
        QVERIFY(bars[0].completedMicros > 0);
    }

    void sigintStopsCleanly()
    {
        FeedProcess server({"--demo", "market:assets=20,sectors=2"});
        QVERIFY(server.started && server.webSocketUrl().isValid());
        Client client(server.webSocketUrl());
        QVERIFY(client.waitFor([](const live::FeedStats& s) { return s.ticks >= 20; }));
        QCOMPARE(server.stop(SIGINT), 0);
        QVERIFY(server.log().contains("stopped by SIGINT: 1 clients"));
    }

    void usageErrors()
    {
        for (const QStringList& args : {QStringList{}, QStringList{"--demo", "blobs"}, QStringList{"--demo", "market", "--speed", "-1"},
                                        QStringList{"--demo", "market", "--cert", "x.pem"},
                                        QStringList{"--ticks", "t.csv", "--rotate-at", "3"},
                                        QStringList{"--demo", "market", "--rotate-at", "1e16"},
                                        QStringList{"--demo", "market", "--speed", "1", "--speed", "2"}}) {
            QProcess feed;
            feed.start(QStringLiteral(CLUSTERDESK_BIN_DIR "/clusterdesk-feed"), args);
            QVERIFY(feed.waitForFinished(20000));
            QCOMPARE(feed.exitCode(), 2);
            QVERIFY2(feed.readAllStandardError().startsWith("clusterdesk-feed: "), qPrintable(args.join(' ')));
        }
    }

    // A FIFO named as the token, certificate or key is refused at once, never waited on.
    void aFifoIsRefusedNotWaitedOn()
    {
        QTemporaryDir dir;
        const QString pipe = dir.filePath("pipe");
        QCOMPARE(::mkfifo(QFile::encodeName(pipe).constData(), 0600), 0);
        for (const auto& [args, option] : {std::pair{QStringList{"--listen", "0.0.0.0:0", "--token-file", pipe}, "--token-file"},
                                           std::pair{QStringList{"--cert", pipe, "--key", pipe}, "--cert"}}) {
            QProcess feed;
            feed.start(QStringLiteral(CLUSTERDESK_BIN_DIR "/clusterdesk-feed"), QStringList{"--demo", "market"} + args);
            QVERIFY(feed.waitForFinished(20000));
            QVERIFY(feed.exitCode() != 0);
            const QByteArray said = feed.readAllStandardError();
            QVERIFY2(said.contains(QString("%1: %2: is not a regular file (a FIFO)").arg(option, pipe).toUtf8()), said.constData());
        }
    }
};

QTEST_GUILESS_MAIN(TestFeed)
#include "test_feed.moc"
