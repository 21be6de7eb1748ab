// Crash safety of the run store: `clusterdesk-cli run` killed with SIGKILL at staged
// moments (while loading, right after the run row is written, mid-run), interleaved
// with runs that finish. The database must pass PRAGMA integrity_check and
// `runs verify`, hold every run that finished, and show each killed run that had
// started as failed (interrupted) after the next command that writes. About 10 s on 2 cores.
#include "cli_runner.h"
#include "test_hooks_guard.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

#include <sqlite3.h>

namespace {

// Queries the file directly with the C API, as an outside reader.
QStringList column(const QString& path, const char* sql)
{
    QStringList out;
    sqlite3* db = nullptr;
    if (sqlite3_open_v2(path.toUtf8().constData(), &db, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK) {
        sqlite3_busy_timeout(db, 10000);
        sqlite3_stmt* stmt = nullptr;
        if (sqlite3_prepare_v2(db, sql, -1, &stmt, nullptr) == SQLITE_OK) {
            while (sqlite3_step(stmt) == SQLITE_ROW) out << QString::fromUtf8(reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0)));
        }
        sqlite3_finalize(stmt);
    }
    sqlite3_close(db);
    return out;
}

}  // namespace

class TestCliRunsCrash : public QObject {
    Q_OBJECT

private slots:
    void killedRunsLeaveAnHonestDatabase()
    {
        CLUSTERDESK_REQUIRE_TEST_HOOKS();
        QTemporaryDir dir;
        const QString db = dir.filePath("runs.sqlite");
        QStringList finished;
        QSet<QString> killedWhileRunning;
        QStringList lastKilled;  // killed in the last round: no start since
        // Lloyd iterations on one thread that go on until the kill (the endless-run hook,
        // set for the victim alone: the short runs between kills must end).
        const QStringList longRun = {"run", "--demo", "blobs:n=500000,d=16,k=32,spread=4", "--k", "32", "--threads", "1", "--db", db};
        QProcessEnvironment endless = QProcessEnvironment::systemEnvironment();
        endless.insert("CLUSTERDESK_TEST_ENDLESS_RUN", "1");
        for (int round = 0; round < 6; ++round) {
            const CliResult ok = runCli({"run", "--demo", "blobs:n=300,d=2,k=3", "--k", "3", "--threads", "1", "--db", db});
            QVERIFY2(ok.exitCode == 0, qPrintable(ok.err));
            finished << QRegularExpression("recorded  run ([0-9a-f-]{36})").match(ok.out).captured(1);

            const QStringList existing = column(db, "SELECT id FROM runs");
            const QSet<QString> before(existing.begin(), existing.end());
            QProcess victim;
            victim.setProcessEnvironment(endless);
            victim.start(QStringLiteral(CLUSTERDESK_BIN_DIR "/clusterdesk-cli"), longRun);
            QVERIFY(victim.waitForStarted());
            if (round % 2 == 0) {
                // Staged from the start: during loading or the insert (round 0), mid-run (2, 4).
                QTest::qWait(50 + round * 300);
            } else {
                // Once the run row is there: at once (1), or 150 and 300 ms into the iterations (3, 5).
                QElapsedTimer waited;
                waited.start();
                while (column(db, "SELECT id FROM runs WHERE status = 'running'").isEmpty() && waited.elapsed() < 20000) QTest::qWait(10);
                QTest::qWait(150 * (round / 2));
            }
            const QStringList running = column(db, "SELECT id FROM runs WHERE status = 'running'");
            victim.kill();  // SIGKILL
            QVERIFY(victim.waitForFinished(10000));
            lastKilled.clear();
            for (const QString& id : running) {
                if (!before.contains(id)) killedWhileRunning.insert(id);
                if (!before.contains(id)) lastKilled << id;
            }
        }
        QVERIFY2(killedWhileRunning.size() >= 3, "at least the runs killed after their row appeared were running");

        // Before anything opens the store again: the file is sound and the last dead run
        // is still honestly `running` (the earlier ones were marked by the starts after them).
        QCOMPARE(column(db, "PRAGMA integrity_check"), QStringList{"ok"});
        QCOMPARE(lastKilled.size(), 1);
        for (const QString& id : lastKilled)
            QCOMPARE(column(db, qPrintable("SELECT status FROM runs WHERE id = '" + id + "'")), QStringList{"running"});

        // Reading commands open the store read-only and leave them be; the next command
        // that writes (runs gc) marks them interrupted, and the chain holds.
        QCOMPARE(runCli({"runs", "list", "--db", db}).exitCode, 0);
        for (const QString& id : lastKilled)
            QCOMPARE(column(db, qPrintable("SELECT status FROM runs WHERE id = '" + id + "'")), QStringList{"running"});
        QCOMPARE(runCli({"runs", "gc", "--db", db}).exitCode, 0);
        const CliResult verify = runCli({"runs", "verify", "--db", db});
        QVERIFY2(verify.exitCode == 0, qPrintable(verify.out + verify.err));
        const CliResult listed = runCli({"runs", "list", "--json", "--db", db});
        QCOMPARE(listed.exitCode, 0);
        QHash<QString, QJsonObject> byId;
        for (const QJsonValue& run : QJsonDocument::fromJson(listed.out.toUtf8()).array()) byId.insert(run["id"].toString(), run.toObject());
        for (const QString& id : finished) {
            QVERIFY2(byId.contains(id), qPrintable("finished run " + id + " is missing"));
            QCOMPARE(byId[id]["status"].toString(), QString("ok"));
        }
        for (const QString& id : killedWhileRunning) {
            QCOMPARE(byId[id]["status"].toString(), QString("failed"));
            QCOMPARE(byId[id]["failure"].toString(), QString("interrupted"));
        }
        for (const QJsonObject& run : byId) QVERIFY(run["status"].toString() != "running");
        QCOMPARE(column(db, "PRAGMA integrity_check"), QStringList{"ok"});
    }
};

QTEST_GUILESS_MAIN(TestCliRunsCrash)
#include "test_cli_runs_crash.moc"
