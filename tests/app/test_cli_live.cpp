// clusterdesk-cli live against the real clusterdesk-feed streaming the market demo (500
// assets, 10 sectors): the sectors are found before the regime change and again within
// a stated number of updates after it, the untouched sectors are never relabelled, the
// moved assets are named with the clusters they left and joined, and every update is
// recorded as a run.
#include "feed_process.h"
#include "temp_dir.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QFile>
#include <QJsonObject>
#include <QDateTime>
#include <QDeadlineTimer>
#include <QProcess>
#include <QRegularExpression>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTest>

#include <algorithm>
#include <csignal>
#include <set>

using clusterdesk::test::FeedProcess;

namespace {

// Updates allowed after the regime change before the picture must be right again: the
// window is 60 bars and an update comes every 5, so 12 updates replace it entirely.
constexpr int kSettleUpdates = 15;

// The updates at which the feed's sectors changed, "5, 6".
QString changedAtText(const QList<QJsonObject>& updates)
{
    QStringList at;
    for (int u = 0; u < updates.size(); ++u)
        if (updates[u]["truth_changed"].toBool()) at << QString::number(u);
    return at.join(", ");
}

}  // namespace

// clusterdesk-cli live for 2 s against a fake feed on TCP that sends `payload` to each
// client: what it printed, its exit code and the --json summary (from the file, so the
// text stays on stdout).
struct FakeFeedSession {
    explicit FakeFeedSession(const QByteArray& payload)
    {
        QTcpServer fake;
        if (!fake.listen(QHostAddress::LocalHost, 0)) return;
        QObject::connect(&fake, &QTcpServer::newConnection, &fake, [&] { fake.nextPendingConnection()->write(payload); });
        clusterdesk::test::TempDir temp;
        const QString jsonPath = QString::fromStdString(temp.path()) + "/updates.jsonl";
        QProcess cli;
        cli.start(QStringLiteral(CLUSTERDESK_BIN_DIR "/clusterdesk-cli"),
                  {"live", "--feed", QString("tcp://127.0.0.1:%1").arg(fake.serverPort()), "--no-record", "--k", "2",
                   "--duration", "2s", "--json", jsonPath});
        if (!cli.waitForStarted(30000)) return;
        // The server answers from this event loop, so wait in it, not in waitForFinished.
        QDeadlineTimer deadline(60000);
        while (cli.state() != QProcess::NotRunning && !deadline.hasExpired()) QTest::qWait(20);
        exitCode = cli.state() == QProcess::NotRunning ? cli.exitCode() : -1;
        out = QString::fromUtf8(cli.readAllStandardOutput());
        err = QString::fromUtf8(cli.readAllStandardError());
        QFile json(jsonPath);
        if (json.open(QIODevice::ReadOnly))
            summary = QJsonDocument::fromJson(json.readAll().trimmed().split('\n').back()).object()["summary"].toObject();
    }
    int exitCode = -1;
    QString out, err;
    QJsonObject summary;
};

class TestCliLive : public QObject {
    Q_OBJECT
private slots:
    void followsTheRotation()
    {
        FeedProcess feed({"--demo", "market:assets=500,sectors=10", "--speed", "10"});
        QVERIFY2(feed.started && feed.webSocketUrl().isValid(), qPrintable(feed.log()));
        clusterdesk::test::TempDir temp;
        const QString db = QString::fromStdString(temp.path()) + "/runs.sqlite";
        // The text on stdout as a user reads it, the JSON lines in a file beside it.
        const QString jsonPath = QString::fromStdString(temp.path()) + "/updates.jsonl";
        QProcess cli;
        cli.start(QStringLiteral(CLUSTERDESK_BIN_DIR "/clusterdesk-cli"),
                  {"live", "--feed", feed.webSocketUrl().toString(), "--k", "10", "--updates", "40", "--json", jsonPath, "--db", db});
        QVERIFY(cli.waitForStarted(10000));
        QStringList textUpdates;
        bool ended = false;
        while (!ended) {
            if (!cli.canReadLine() && !cli.waitForReadyRead(120000)) break;  // the suite's TIMEOUT is the real limit
            while (cli.canReadLine()) {
                const QString line = QString::fromUtf8(cli.readLine());
                ended = line.startsWith("summary:");
                if (!line.startsWith("update ")) continue;
                textUpdates << line;
                // The regime change once the picture has been right a few times.
                if (textUpdates.size() == 5) ::kill(static_cast<pid_t>(feed.process().processId()), SIGUSR1);
            }
        }
        QVERIFY(cli.waitForFinished(60000));
        QVERIFY2(cli.exitCode() == 0, cli.readAllStandardError().constData());
        QCOMPARE(textUpdates.size(), 40);
        QList<QJsonObject> updates;
        QJsonObject summary;
        QFile jsonFile(jsonPath);
        QVERIFY(jsonFile.open(QIODevice::ReadOnly));
        for (const QByteArray& line : jsonFile.readAll().split('\n')) {
            const QJsonObject object = QJsonDocument::fromJson(line).object();
            if (object.contains("summary")) summary = object["summary"].toObject();
            else if (!object.isEmpty()) updates << object;
        }
        QCOMPARE(updates.size(), 40);
        QVERIFY(!summary.isEmpty());
        QCOMPARE(summary["updates"].toInt(), 40);
        QCOMPARE(summary["feed"].toObject()["bad"].toInt(), 0);

        // What an update said, for a failure's message.
        auto told = [&](int u) {
            return QString("update %1 of %2 (truth changed at %3): %4")
                .arg(u)
                .arg(updates.size())
                .arg(changedAtText(updates))
                .arg(QString::fromUtf8(QJsonDocument(updates[u]).toJson(QJsonDocument::Compact)).left(400));
        };
        int changedAt = -1;
        for (int u = 0; u < updates.size(); ++u)
            if (updates[u]["truth_changed"].toBool()) changedAt = u;
        QVERIFY2(changedAt >= 5, "the feed's sectors changed after the rotation signal");
        for (int u = 0; u < changedAt; ++u) QVERIFY2(updates[u]["ari"].toDouble() >= 0.9, qPrintable(told(u)));
        QVERIFY2(changedAt + kSettleUpdates < updates.size(), "enough updates after the change to judge");
        for (int u = changedAt + kSettleUpdates; u < updates.size(); ++u)
            QVERIFY2(updates[u]["ari"].toDouble() >= 0.9, qPrintable(told(u)));

        // Each update is a run of its own in the store.
        std::set<QString> runs;
        for (const QJsonObject& update : updates) runs.insert(update["run"].toString());
        QCOMPARE(runs.size(), std::size_t(40));
        QVERIFY(!runs.count(QString()));
        QVERIFY(summary["latency_ms"].toObject()["p99"].toDouble() > 0);

        // What follows is about updates 5 bars apart. A client that fell behind (an
        // AddressSanitizer build runs several times slower) clusters only the newest of
        // the bars waiting, and a transition seen in larger steps may reorganise
        // clusters on the way.
        qint64 widest = 0;
        for (int u = 1; u < updates.size(); ++u)
            widest = std::max(widest, QDateTime::fromString(updates[u - 1]["time"].toString(), Qt::ISODate)
                                          .secsTo(QDateTime::fromString(updates[u]["time"].toString(), Qt::ISODate)));
        if (widest > 5)
            QSKIP(qPrintable(QString("the client fell behind the feed: updates up to %1 bars apart, not 5").arg(widest)));

        // Untouched sectors (S02..S09) never move; every other member of S00 moves (to
        // S01's cluster), from one named cluster to another.
        std::set<QString> moved;
        std::set<std::pair<int, int>> flows;
        for (const QJsonObject& update : updates) {
            for (const QJsonValue& m : update["migrations"].toArray()) {
                const QString asset = m.toObject()["asset"].toString();
                QVERIFY2(asset.startsWith("S00_") || asset.startsWith("S01_"), qPrintable(asset + " of an untouched sector moved"));
                moved.insert(asset);
                flows.insert({m.toObject()["from"].toInt(), m.toObject()["to"].toInt()});
            }
            // No cluster is born, dies, splits or merges after the first update.
            if (&update != &updates.front()) QCOMPARE(update["events"].toArray().size(), 0);
        }
        QVERIFY(moved.count("S00_A010"));
        QVERIFY(!moved.count("S00_A000"));
        QCOMPARE(flows.size(), std::size_t(1));
        QVERIFY(flows.begin()->first != flows.begin()->second);
        // The text names the first movers of each flow.
        const QString flowText = QString("moved %1->%2 x").arg(flows.begin()->first).arg(flows.begin()->second);
        const QRegularExpression named(QRegularExpression::escape(flowText) + "[0-9]+ \\(S0[01]_A[0-9]{3}(, S0[01]_A[0-9]{3}){0,2}(, \\.\\.\\.)?\\)");
        QVERIFY2(std::any_of(textUpdates.begin(), textUpdates.end(), [&](const QString& line) { return named.match(line).hasMatch(); }),
                 qPrintable(textUpdates.join("")));

    }

    void aJsonFileIsWrittenBesideTheLines()
    {
        // --json FILE logs the updates as JSON; stdout still has the lines and the summary.
        FeedProcess feed({"--demo", "market:assets=60,sectors=4", "--speed", "20"});
        QVERIFY2(feed.started && feed.webSocketUrl().isValid(), qPrintable(feed.log()));
        clusterdesk::test::TempDir temp;
        const QString log = QString::fromStdString(temp.path()) + "/updates.jsonl";
        QProcess cli;
        cli.start(QStringLiteral(CLUSTERDESK_BIN_DIR "/clusterdesk-cli"),
                  {"live", "--feed", feed.webSocketUrl().toString(), "--k", "4", "--updates", "2", "--json", log, "--no-record"});
        QVERIFY(cli.waitForFinished(120000));
        const QString out = QString::fromUtf8(cli.readAllStandardOutput());
        QVERIFY2(cli.exitCode() == 0, qPrintable(out + cli.readAllStandardError()));
        QVERIFY2(out.contains("update 1  ") && out.contains("update 2  ") && out.contains("summary: 2 updates"), qPrintable(out));
        QFile file(log);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = file.readAll().trimmed().split('\n');
        QCOMPARE(lines.size(), 3);
        QCOMPARE(QJsonDocument::fromJson(lines[1]).object()["update"].toInt(), 2);
        QVERIFY(QJsonDocument::fromJson(lines[2]).object().contains("summary"));
    }

    // An exact-mode session recorded in the store replays from it, every update bit for
    // bit, on its own topology and on another.
    void replaysARecordedSessionBitForBit()
    {
        FeedProcess feed({"--demo", "market:assets=60,sectors=4", "--speed", "20"});
        QVERIFY2(feed.started && feed.webSocketUrl().isValid(), qPrintable(feed.log()));
        clusterdesk::test::TempDir temp;
        const QString db = QString::fromStdString(temp.path()) + "/runs.sqlite";
        QProcess cli;
        cli.start(QStringLiteral(CLUSTERDESK_BIN_DIR "/clusterdesk-cli"),
                  {"live", "--feed", feed.webSocketUrl().toString(), "--k", "4", "--mode", "exact", "--half-life", "20s",
                   "--updates", "6", "--json", "-", "--db", db});
        QVERIFY(cli.waitForFinished(120000));
        QCOMPARE(cli.exitCode(), 0);
        QStringList runs;
        for (const QByteArray& line : cli.readAllStandardOutput().split('\n')) {
            const QJsonObject update = QJsonDocument::fromJson(line).object();
            if (update.contains("run")) runs << update["run"].toString();
        }
        QCOMPARE(runs.size(), 6);
        for (const QStringList& topology : {QStringList{}, QStringList{"--topology", "shards:2"}, QStringList{"--topology", "host@1"}}) {
            QProcess rerun;
            rerun.start(QStringLiteral(CLUSTERDESK_BIN_DIR "/clusterdesk-cli"), QStringList{"runs", "rerun", runs.back(), "--db", db} + topology);
            QVERIFY(rerun.waitForFinished(60000));
            const QString said = QString::fromUtf8(rerun.readAllStandardOutput() + rerun.readAllStandardError());
            QVERIFY2(rerun.exitCode() == 0, qPrintable(said));
            QVERIFY2(said.contains("6 updates up to run " + runs.back().left(8) + ", exact mode"), qPrintable(said));
            // The replay says what it ran on, not what the session did (host@1).
            if (topology.contains("shards:2")) QVERIFY2(said.contains("exact mode, on shards:2@1\n"), qPrintable(said));
            if (topology.contains("host@1")) QVERIFY2(said.contains("exact mode, on host@1\n"), qPrintable(said));
            for (const QString& run : runs)
                QVERIFY2(said.contains("run " + run.left(8) + "  labels and centroids identical (bit for bit)"), qPrintable(said));
            QVERIFY2(said.contains("6 of 6 updates reproduced bit for bit"), qPrintable(said));
        }
        // Pool ranks open the data from its source, which a live window has not: refused
        // with the reason, as a usage error.
        QProcess onPool;
        onPool.start(QStringLiteral(CLUSTERDESK_BIN_DIR "/clusterdesk-cli"), {"runs", "rerun", runs.back(), "--db", db, "--topology", "pool:2"});
        QVERIFY(onPool.waitForFinished(60000));
        const QByteArray poolSaid = onPool.readAllStandardError();
        QVERIFY2(onPool.exitCode() == 2 && poolSaid.contains("a live session cannot run on the node pool (pool:2)"), poolSaid.constData());

        // An update's labels export under its window's asset names, as recorded with it.
        QProcess exported;
        const QString out = QString::fromStdString(temp.path()) + "/export";
        exported.start(QStringLiteral(CLUSTERDESK_BIN_DIR "/clusterdesk-cli"), {"runs", "export", runs.back(), "--out", out, "--db", db});
        QVERIFY(exported.waitForFinished(60000));
        const QByteArray err = exported.readAllStandardError();
        QVERIFY2(exported.exitCode() == 0 && !err.contains("by number"), err.constData());
        QFile labels(out + "/labels.csv");
        QVERIFY(labels.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = labels.readAll().trimmed().split('\n');
        QVERIFY(lines.size() > 4);
        std::set<QByteArray> assets;
        for (int i = 1; i < lines.size(); ++i) assets.insert(lines[i].split(',')[0]);
        QCOMPARE(assets.size(), std::size_t(lines.size() - 1));  // one line per asset, each named once
        QVERIFY2(!lines[1].startsWith("0,"), lines[1].constData());

        // A report of the update has its membership and its ARI against the demo's sectors:
        // the window, rebuilt from the session's recorded input, hashes as the one it clustered.
        QProcess report;
        const QString html = QString::fromStdString(temp.path()) + "/update.html";
        report.start(QStringLiteral(CLUSTERDESK_BIN_DIR "/clusterdesk-cli"), {"report", runs.back(), "--out", html, "--db", db});
        QVERIFY(report.waitForFinished(60000));
        QVERIFY2(report.exitCode() == 0, report.readAllStandardError().constData());
        QFile page(html);
        QVERIFY(page.open(QIODevice::ReadOnly));
        const QByteArray text = page.readAll();
        QVERIFY2(!text.contains("No membership table") && !text.contains("Reopened"), text.constData());
        QVERIFY2(text.contains("ARI against the ground truth"), "the demo's sectors are the window's truth");
        for (int i = 1; i < lines.size(); ++i) {
            const QByteArray asset = lines[i].split(',')[0];
            QVERIFY2(text.contains("<td>" + asset + "</td>"), asset.constData());
        }
    }

    // The demo at the feed's maximum rate for 30 s: every message taken, none bad, and
    // memory bounded whatever the rate (ticks coalesce into bars; nothing queues them).
    void floodAtMaximumRateKeepsMemoryBounded()
    {
        FeedProcess feed({"--demo", "market:assets=500,sectors=10", "--speed", "max"});
        QVERIFY2(feed.started && feed.webSocketUrl().isValid(), qPrintable(feed.log()));
        clusterdesk::test::TempDir temp;
        const QString db = QString::fromStdString(temp.path()) + "/runs.sqlite";
        QProcess cli;
        cli.start(QStringLiteral(CLUSTERDESK_BIN_DIR "/clusterdesk-cli"),
                  {"live", "--feed", feed.webSocketUrl().toString(), "--duration", "30s", "--json", "-", "--db", db});
        QVERIFY(cli.waitForFinished(180000));
        const QByteArray out = cli.readAllStandardOutput();
        QVERIFY2(cli.exitCode() == 0, cli.readAllStandardError().constData());
        double firstRss = 0;
        QJsonObject summary;
        for (const QByteArray& line : out.split('\n')) {
            const QJsonObject object = QJsonDocument::fromJson(line).object();
            if (object.contains("summary")) summary = object["summary"].toObject();
            else if (object.contains("update") && firstRss == 0) firstRss = object["rss_mib"].toDouble();
        }
        QVERIFY2(!summary.isEmpty() && firstRss > 0, out.right(2000).constData());
        const QJsonObject received = summary["feed"].toObject();
        const double ticks = received["ticks"].toDouble();
        const double peak = summary["peak_rss_mib"].toDouble();
        qInfo("flood: %.0f ticks in %.1f s (%.0f a second), %d updates, peak RSS %.0f MiB (%.0f MiB at the first update)",
              ticks, summary["duration_s"].toDouble(), ticks / summary["duration_s"].toDouble(), summary["updates"].toInt(),
              peak, firstRss);
        QVERIFY(summary["updates"].toInt() > 0);
        QCOMPARE(received["bad"].toInt(), 0);
        QCOMPARE(received["gaps"].toInt(), 0);
#if defined(__SANITIZE_ADDRESS__)
        QSKIP("AddressSanitizer keeps freed memory in quarantine (up to 256 MiB): the resident set does not measure "
              "the program's own memory in this build");
#endif
        // Kept ticks would cost their ~110 bytes each, whatever the rate: growth per tick
        // received, not an absolute figure (buffers grow with the rate a machine reaches).
        QVERIFY2((peak - firstRss) * 1048576.0 / ticks < 50,
                 qPrintable(QString("%1 MiB more than at the first update for %2 ticks").arg(peak - firstRss).arg(ticks)));
    }

    void saysWhyAFeedCannotBeReached()
    {
        // A port nobody listens on any more: the session says so once and keeps trying;
        // stopped without ever reaching the feed, it exits 3 (as for a missing file).
        QTcpServer closed;
        QVERIFY(closed.listen(QHostAddress::LocalHost, 0));
        const quint16 port = closed.serverPort();
        closed.close();
        for (const QString& scheme : {QString("ws"), QString("tcp")}) {
            const QString url = QString("%1://127.0.0.1:%2").arg(scheme).arg(port);
            QProcess cli;
            cli.start(QStringLiteral(CLUSTERDESK_BIN_DIR "/clusterdesk-cli"), {"live", "--feed", url, "--no-record", "--k", "2"});
            QVERIFY(cli.waitForStarted(30000));
            QByteArray err;
            const QByteArray expected = (url + ": Connection refused; retrying").toUtf8();
            for (int i = 0; i < 600 && !err.contains(expected) && cli.state() == QProcess::Running; ++i) {
                cli.waitForReadyRead(100);
                err += cli.readAllStandardError();
            }
            ::kill(static_cast<pid_t>(cli.processId()), SIGINT);
            QVERIFY(cli.waitForFinished(30000));
            err += cli.readAllStandardError();
            QVERIFY2(err.contains(expected), err.constData());
            // Once while it retried; stopped, the session ends as a failure that says why.
            QCOMPARE(err.count("Connection refused; retrying"), 1);
            QVERIFY2(err.contains((url + ": the feed was never reached in ").toUtf8()) && err.contains(" s (Connection refused)"), err.constData());
            QCOMPARE(cli.exitCode(), 3);
            const QByteArray summary = cli.readAllStandardOutput();
            QVERIFY2(summary.contains("no update in ") && summary.contains("(the feed was never reached)"), summary.constData());
        }
    }

    void aFeedThatNeverAnswersIsNotAQuietMarket()
    {
        // A port that accepts connections and says nothing (another service): the
        // kernel completes the handshake for the listening socket, no hello ever comes.
        QTcpServer silent;
        QVERIFY(silent.listen(QHostAddress::LocalHost, 0));
        const QString url = QString("tcp://127.0.0.1:%1").arg(silent.serverPort());
        QProcess cli;
        cli.start(QStringLiteral(CLUSTERDESK_BIN_DIR "/clusterdesk-cli"), {"live", "--feed", url, "--no-record", "--k", "2", "--duration", "2s"});
        QVERIFY(cli.waitForFinished(60000));
        const QByteArray err = cli.readAllStandardError();
        QCOMPARE(cli.exitCode(), 3);
        QVERIFY2(err.contains((url + ": the feed was reached but never answered in 2 s").toUtf8()), err.constData());
        QVERIFY2(cli.readAllStandardOutput().contains("(the feed was reached but never answered)"), "the summary says it too");
    }

    void badMessagesAreCountedByReason()
    {
        // A feed that says hello, then sends two messages that are not JSON and one of
        // an unknown type: the summary counts each reason. With nothing else, the session
        // had nothing to use: an error, as a feed that never answered.
        const QByteArray hello = R"({"type":"hello","stream":"fake","symbols":1,"speed":"1x"})" "\n";
        const QByteArray bad = "not json\n{\n" R"({"type":"quote","seq":1})" "\n";
        FakeFeedSession onlyBad(hello + bad);
        QVERIFY2(onlyBad.exitCode == 3, qPrintable(onlyBad.err));
        QVERIFY2(onlyBad.err.contains(": no tick came, only 3 bad messages in "), qPrintable(onlyBad.err));
        QCOMPARE(onlyBad.summary["no_update_because"].toString(), QString("no tick came, only 3 bad messages"));
        const QJsonObject feed = onlyBad.summary["feed"].toObject();
        QCOMPARE(feed["bad"].toInt(), 3);
        const QJsonObject reasons = feed["bad_by_reason"].toObject();
        QCOMPARE(reasons.size(), 2);
        QCOMPARE(reasons["malformed JSON"].toInt(), 2);
        QCOMPARE(reasons["unknown message type"].toInt(), 1);

        // Good ticks beside them, one older than the bar before it: no error, and the
        // dropped tick is said, not silently lost.
        const QByteArray ticks = R"({"type":"tick","seq":1,"symbol":"A","price":10,"ts":5000000})" "\n"
                                 R"({"type":"tick","seq":2,"symbol":"A","price":11,"ts":1000000})" "\n";
        FakeFeedSession mixed(hello + bad + ticks);
        QVERIFY2(mixed.exitCode == 0, qPrintable(mixed.err));
        QVERIFY2(mixed.out.contains("; 2 ticks, 1 late ticks (older than their bar, dropped), 0 gaps"), qPrintable(mixed.out));
        QCOMPARE(mixed.summary["late_ticks"].toInt(), 1);
    }

    void saysWhyNoUpdateComes()
    {
        // Fewer symbols than k: refused before anything connects (no feed listens here).
        QProcess refused;
        refused.start(QStringLiteral(CLUSTERDESK_BIN_DIR "/clusterdesk-cli"),
                      {"live", "--feed", "ws://127.0.0.1:1", "--no-record", "--symbols", "A,B,C"});
        QVERIFY(refused.waitForFinished(60000));
        QCOMPARE(refused.exitCode(), 2);
        QVERIFY(refused.readAllStandardError().contains("k=10 needs 10 assets with a full window, but the session asks the feed for 3 symbols"));
        // The node pool too: its ranks could not open the window.
        QProcess onPool;
        onPool.start(QStringLiteral(CLUSTERDESK_BIN_DIR "/clusterdesk-cli"),
                     {"live", "--feed", "ws://127.0.0.1:1", "--no-record", "--topology", "pool:2"});
        QVERIFY(onPool.waitForFinished(60000));
        const QByteArray poolSaid = onPool.readAllStandardError();
        QVERIFY2(onPool.exitCode() == 2 && poolSaid.contains("a live session cannot run on the node pool (pool:2)") &&
                     !poolSaid.contains("retrying"),
                 poolSaid.constData());

        // A feed of 5 assets and k = 6: the window fills, and the session says once why
        // it waits; stopped, its summary has the reason and no latency to give.
        FeedProcess feed({"--demo", "market:assets=5,sectors=2", "--speed", "10"});
        QVERIFY2(feed.started && feed.webSocketUrl().isValid(), qPrintable(feed.log()));
        QProcess cli;
        cli.start(QStringLiteral(CLUSTERDESK_BIN_DIR "/clusterdesk-cli"),
                  {"live", "--feed", feed.webSocketUrl().toString(), "--no-record", "--k", "6", "--window", "5", "--json", "-"});
        QVERIFY(cli.waitForStarted(30000));
        const QByteArray reason = "only 5 assets have a full window; k=6 needs 6";
        QByteArray err;
        for (int i = 0; i < 1200 && !err.contains(reason) && cli.state() == QProcess::Running; ++i) {
            cli.waitForReadyRead(100);
            err += cli.readAllStandardError();
        }
        ::kill(static_cast<pid_t>(cli.processId()), SIGINT);
        QVERIFY(cli.waitForFinished(30000));
        err += cli.readAllStandardError();
        QVERIFY2(err.contains("clusterdesk-cli: live: waiting: " + reason), err.constData());
        QCOMPARE(err.count("waiting:"), 1);
        QJsonObject summary;
        for (const QByteArray& line : cli.readAllStandardOutput().split('\n'))
            if (const QJsonObject object = QJsonDocument::fromJson(line).object(); object.contains("summary")) summary = object["summary"].toObject();
        QCOMPARE(summary["updates"].toInt(-1), 0);
        QVERIFY(summary["latency_ms"].isNull());
        QCOMPARE(summary["no_update_because"].toString(), QString::fromUtf8(reason));
    }

    void refusedWithoutTheToken()
    {
        clusterdesk::test::TempDir temp;
        const QString dir = QString::fromStdString(temp.path());
        QFile token(dir + "/token");
        QVERIFY(token.open(QIODevice::WriteOnly));
        token.write("right\n");
        token.close();
        FeedProcess feed({"--demo", "market:assets=20,sectors=2", "--listen", "0.0.0.0:0", "--token-file", token.fileName()});
        QVERIFY(feed.started && feed.webSocketUrl().isValid());
        QUrl url = feed.webSocketUrl();
        url.setHost("127.0.0.1");
        QProcess cli;
        cli.start(QStringLiteral(CLUSTERDESK_BIN_DIR "/clusterdesk-cli"), {"live", "--feed", url.toString(), "--no-record", "--k", "2"});
        QVERIFY(cli.waitForFinished(60000));
        QCOMPARE(cli.exitCode(), 2);
        QVERIFY(cli.readAllStandardError().contains("refused: no access token"));
        // The token on the command line is refused before anything connects.
        cli.start(QStringLiteral(CLUSTERDESK_BIN_DIR "/clusterdesk-cli"), {"live", "--feed", url.toString(), "--token", "right"});
        QVERIFY(cli.waitForFinished(60000));
        QCOMPARE(cli.exitCode(), 2);
        QVERIFY(cli.readAllStandardError().contains("never from the command line"));
    }
};

QTEST_GUILESS_MAIN(TestCliLive)
#include "test_cli_live.moc"
