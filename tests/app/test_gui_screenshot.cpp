// clusterdesk's command line as a user runs it: --screenshot renders every tab of the
// window off screen after the default job, --help and --version answer, and bad
// arguments, a bad demo or a feed that is not there fail with a message rather than
// hanging or crashing; a live session on the feed renders the Live tab.
#include "feed_process.h"

#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

class TestGuiScreenshot : public QObject {
    Q_OBJECT

private slots:
    void init() { QVERIFY(m_home.isValid()); }

    void writesOnePngPerTab()
    {
        QTemporaryDir out;
        const auto [code, text] = run({"--screenshot", out.path(), "--tab", "all"});
        QVERIFY2(code == 0, qPrintable(text));
        for (const char* tab : {"clusters", "members", "evolution", "latency", "power", "compare"}) {
            const QImage image(out.filePath(QString(tab) + ".png"));
            QVERIFY2(!image.isNull(), tab);
            QVERIFY(image.width() >= 1000 && image.height() >= 700);
            // Not a blank window: the picture has many colours (points, bands, bars).
            QSet<QRgb> colours;
            for (int y = 0; y < image.height(); y += 7)
                for (int x = 0; x < image.width(); x += 7) colours.insert(image.pixel(x, y));
            QVERIFY2(colours.size() > 20, tab);
        }
    }

    void oneTabOfAnotherDemo()
    {
        QTemporaryDir out;
        const QString path = out.filePath("latency.png");
        const auto [code, text] = run({"--screenshot", path, "--demo", "blobs:n=3000,d=4,k=3", "--tab", "latency"});
        QVERIFY2(code == 0, qPrintable(text));
        QVERIFY(!QImage(path).isNull());
    }

    void aFolderOfPicturesNeverReplacesTheStore()
    {
        // One tab's picture would land on a link to the store: refused, the store whole.
        QTemporaryDir out, home;
        const QString db = home.filePath("runs.sqlite");
        QVERIFY(QFile::link(db, out.filePath("members.png")));
        const auto [code, text] = run({"--screenshot", out.path(), "--tab", "all", "--demo", "blobs:n=3000,d=4,k=3", "--db", db});
        QCOMPARE(code, 2);
        QVERIFY2(text.contains("members.png would overwrite the run store"), qPrintable(text));
        QFile store(db);
        QVERIFY(store.open(QIODevice::ReadOnly));
        QVERIFY(store.read(15) == "SQLite format 3");
        QCOMPARE(QFileInfo(out.filePath("members.png")).symLinkTarget(), db);
    }

    // A live screenshot on the feed's demo; a feed that is not there fails with the reason
    // instead of retrying for ever (a script waits on it).
    void liveTabFromAFeedOrWhyNot()
    {
        QTemporaryDir out;
        clusterdesk::test::FeedProcess feed({"--demo", "market:assets=60,sectors=4", "--speed", "max"});
        QVERIFY2(feed.started && feed.webSocketUrl().isValid(), qPrintable(feed.log()));
        const QString path = out.filePath("live.png");
        auto [code, text] = run({"--screenshot", path, "--feed", feed.webSocketUrl().toString()});
        QVERIFY2(code == 0, qPrintable(text));
        QVERIFY(!QImage(path).isNull());
        // Every tab into a folder, as after the default job: not one picture named like the folder.
        const QString folder = out.filePath("tabs");
        std::tie(code, text) = run({"--screenshot", folder, "--tab", "all", "--feed", feed.webSocketUrl().toString()});
        QVERIFY2(code == 0, qPrintable(text));
        QVERIFY(QFileInfo(folder).isDir());
        QVERIFY(!QImage(folder + "/live.png").isNull() && !QImage(folder + "/clusters.png").isNull());

        const QString nowhere = out.filePath("nowhere.png");
        std::tie(code, text) = run({"--screenshot", nowhere, "--feed", "ws://127.0.0.1:1"});
        QCOMPARE(code, 4);
        QVERIFY2(text.contains("the feed ws://127.0.0.1:1 was never reached in 15 s (") && text.contains("refused"), qPrintable(text));
        QVERIFY(!QFile::exists(nowhere));
    }

    void refusesWhatItCannotDo()
    {
        QTemporaryDir out;
        auto [code, text] = run({"--screenshot", out.filePath("x.png"), "--tab", "nope"});
        QCOMPARE(code, 2);
        QVERIFY2(text.contains("no tab or panel 'nope' (tabs: Clusters, Members, Evolution, Latency, Power, History, Compare, Live; "
                               "or all of them: all; panels: Data, Engine, Topology)"),
                 qPrintable(text));
        std::tie(code, text) = run({"--screenshot", out.filePath("x.png"), "--demo", "blobs:n=5"});
        QVERIFY(code != 0);
        QVERIFY2(text.contains("blobs"), qPrintable(text));
        // A picture never replaces the store, nor anything not named .png; both refused
        // before the job runs.
        const QString db = out.filePath("runs.sqlite");
        {
            QFile file(db);
            QVERIFY(file.open(QIODevice::WriteOnly) && file.write("SQLite format 3") > 0);
        }
        std::tie(code, text) = run({"--screenshot", db, "--db", db});
        QCOMPARE(code, 2);
        QVERIFY2(text.contains("end in .png"), qPrintable(text));
        QVERIFY(QFile::link(db, out.filePath("store.png")));
        std::tie(code, text) = run({"--screenshot", out.filePath("store.png"), "--db", db});
        QCOMPARE(code, 2);
        QVERIFY2(text.contains("would overwrite the run store"), qPrintable(text));
        QFile file(db);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(file.readAll(), QByteArray("SQLite format 3"));
        std::tie(code, text) = run({"--bogus"});
        QCOMPARE(code, 2);
        std::tie(code, text) = run({"--screenshot", "--tab", "Live"});
        QCOMPARE(code, 2);
        QVERIFY2(text.contains("--screenshot needs a value, but the option --tab follows it"), qPrintable(text));
        std::tie(code, text) = run({"--version"});
        QCOMPARE(code, 0);
        QVERIFY(text.startsWith("clusterdesk "));
        std::tie(code, text) = run({"--help"});
        QCOMPARE(code, 0);
        QVERIFY(text.contains("--screenshot"));
    }

private:
    // Runs clusterdesk with HOME and XDG dirs in a temporary folder, so nothing it saves
    // lands in the real user's settings or data.
    std::pair<int, QString> run(const QStringList& args)
    {
        QProcess process;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("HOME", m_home.path());
        env.insert("XDG_CONFIG_HOME", m_home.filePath("config"));
        env.insert("XDG_DATA_HOME", m_home.filePath("data"));
        env.insert("QT_QPA_PLATFORM", "offscreen");
        process.setProcessEnvironment(env);
        process.setProcessChannelMode(QProcess::MergedChannels);
        process.start(CLUSTERDESK_BIN_DIR "/clusterdesk", args);
        if (!process.waitForFinished(120000)) {
            process.kill();
            process.waitForFinished();
            return {-1, "timed out: " + args.join(' ')};
        }
        return {process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1, QString::fromUtf8(process.readAll())};
    }

    QTemporaryDir m_home;
};

QTEST_MAIN(TestGuiScreenshot)
#include "test_gui_screenshot.moc"
