// Concurrent writers on one run store: 4 streams of `clusterdesk-cli run` (25 small
// runs each, 4 processes alive at any moment) and a reader running `runs verify` over
// and over, all on the same file. Nothing is lost, nothing fails, and no process ever
// reports "database is locked". About 10 s on 2 cores.
#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

class TestCliRunsConcurrency : public QObject {
    Q_OBJECT

private slots:
    void fourWritersLoseNothing()
    {
        QTemporaryDir dir;
        const QString db = dir.filePath("runs.sqlite");
        constexpr int kWriters = 4;
        constexpr int kRunsEach = 25;
        struct Stream {
            std::unique_ptr<QProcess> process;
            int started = 0;
            QStringList args;
        };
        std::vector<Stream> streams(kWriters + 1);
        for (int w = 0; w < kWriters; ++w)
            streams[w].args = {"run", "--demo", QString("blobs:n=400,d=3,k=4,seed=%1").arg(w + 1), "--k", "4", "--threads", "1", "--db", db};
        streams[kWriters].args = {"runs", "verify", "--db", db};  // the reader, until the writers are done
        QStringList failures;
        int verifies = 0;
        auto start = [&](Stream& s) {
            s.process = std::make_unique<QProcess>();
            s.process->start(QStringLiteral(CLUSTERDESK_BIN_DIR "/clusterdesk-cli"), s.args);
            ++s.started;
        };
        // True when s's process has ended (its result checked and dropped).
        auto reap = [&](Stream& s) {
            if (s.process->state() != QProcess::NotRunning && !s.process->waitForFinished(5)) return false;
            const QString err = QString::fromUtf8(s.process->readAllStandardError());
            if (s.process->exitStatus() != QProcess::NormalExit || s.process->exitCode() != 0 || err.contains("locked"))
                failures << s.args.join(' ') + " -> exit " + QString::number(s.process->exitCode()) + ": " + err;
            s.process.reset();
            return true;
        };
        // The reader starts once a writer has finished: before that the store may not
        // exist yet (runs verify then says so), or be half made.
        for (int w = 0; w < kWriters; ++w) start(streams[static_cast<std::size_t>(w)]);
        Stream& reader = streams[kWriters];
        bool written = false;
        QElapsedTimer clock;
        clock.start();
        while (true) {
            QVERIFY2(clock.elapsed() < 240000, "the writers did not finish in 4 minutes");
            bool writing = false;
            for (int w = 0; w < kWriters; ++w) {
                Stream& s = streams[static_cast<std::size_t>(w)];
                if (s.process && reap(s)) {
                    written = true;
                    if (s.started < kRunsEach) start(s);
                }
                writing |= s.process != nullptr;
            }
            if (reader.process && reap(reader)) ++verifies;
            if (!reader.process && written && (writing || verifies == 0)) start(reader);
            if (!writing && !reader.process) break;
        }
        QVERIFY2(failures.isEmpty(), qPrintable(failures.join('\n')));
        QVERIFY(verifies >= 1);

        QProcess list;
        list.start(QStringLiteral(CLUSTERDESK_BIN_DIR "/clusterdesk-cli"), {"runs", "list", "--json", "--db", db});
        QVERIFY(list.waitForFinished(60000));
        const QJsonArray runs = QJsonDocument::fromJson(list.readAllStandardOutput()).array();
        QCOMPARE(runs.size(), kWriters * kRunsEach);
        QSet<QString> ids;
        for (const QJsonValue& run : runs) {
            QCOMPARE(run["status"].toString(), QString("ok"));
            ids.insert(run["id"].toString());
        }
        QCOMPARE(ids.size(), kWriters * kRunsEach);
        QProcess verify;
        verify.start(QStringLiteral(CLUSTERDESK_BIN_DIR "/clusterdesk-cli"), {"runs", "verify", "--db", db});
        QVERIFY(verify.waitForFinished(60000));
        QCOMPARE(verify.exitCode(), 0);
        QVERIFY(QString::fromUtf8(verify.readAllStandardOutput()).contains(QString("ok: %1 records").arg(kWriters * kRunsEach)));
    }
};

QTEST_GUILESS_MAIN(TestCliRunsConcurrency)
#include "test_cli_runs_concurrency.moc"
