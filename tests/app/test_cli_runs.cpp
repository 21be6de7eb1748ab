// clusterdesk-cli and the run store, as a user meets them: runs are recorded by
// default, listed, shown, re-run (exact mode reproduces the labels bit for bit, fast
// mode reports the ARI), diffed, exported, verified after an edit with the sqlite3
// tool (and what was tampered with is named), deleted and collected; failures are
// recorded with their reason; text that looks like SQL is only ever data; control
// characters in names are shown escaped; a store nobody may write is still read.
#include "cli_runner.h"
#include "data_files.h"

#include <QDir>
#include <QFileInfo>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <utility>

#include <sqlite3.h>
#include <sys/stat.h>
#include <unistd.h>

namespace {

const QString kInjection = "'; DROP TABLE runs; --";

// The id from the "recorded  run ID in PATH" line.
QString recordedId(const CliResult& result)
{
    const QRegularExpressionMatch match = QRegularExpression("recorded  run ([0-9a-f-]{36}) in ").match(result.out);
    return match.hasMatch() ? match.captured(1) : QString();
}

QString describe(const CliResult& r)
{
    return QString("exit %1\nstdout:\n%2\nstderr:\n%3").arg(r.exitCode).arg(r.out, r.err);
}

}  // namespace

class TestCliRuns : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString m_db;

    QStringList db() const { return {"--db", m_db}; }

    QString run(const QStringList& args)
    {
        const CliResult r = runCli(QStringList{"run"} + args + QStringList{"--threads", "1"} + db());
        [&] { QVERIFY2(r.exitCode == 0, qPrintable(describe(r))); }();
        return recordedId(r);
    }

    QJsonArray list(const QStringList& extra = {})
    {
        const CliResult r = runCli(QStringList{"runs", "list", "--json"} + extra + db());
        [&] { QVERIFY2(r.exitCode == 0, qPrintable(describe(r))); }();
        return QJsonDocument::fromJson(r.out.toUtf8()).array();
    }

    QJsonObject show(const QString& id)
    {
        const CliResult r = runCli(QStringList{"runs", "show", id, "--json"} + db());
        [&] { QVERIFY2(r.exitCode == 0, qPrintable(describe(r))); }();
        return QJsonDocument::fromJson(r.out.toUtf8()).object();
    }

private slots:
    void initTestCase()
    {
        // The chain key of these stores, in the test's own folder (never the user's).
        qputenv("CLUSTERDESK_CHAIN_KEY", m_dir.filePath("keys/chain.key").toUtf8());
    }

    void init()
    {
        static int n = 0;
        m_db = m_dir.filePath(QString("runs-%1.sqlite").arg(++n));
    }

    void recordsByDefaultUnlessToldNot()
    {
        const QString id = run({"--demo", "blobs:n=300,d=2,k=3", "--k", "3"});
        QCOMPARE(id.size(), 36);
        const CliResult quiet = runCli({"run", "--demo", "blobs:n=300,d=2,k=3", "--k", "3", "--no-record"});
        QCOMPARE(quiet.exitCode, 0);
        QVERIFY(!quiet.out.contains("recorded"));
        QCOMPARE(runCli({"run", "--demo", "blobs:n=300,d=2,k=3", "--no-record", "--db", m_db}).exitCode, 2);
        const QJsonArray runs = list();
        QCOMPARE(runs.size(), 1);
        const QJsonObject r = runs[0].toObject();
        QCOMPARE(r["id"].toString(), id);
        QCOMPARE(r["status"].toString(), QString("ok"));
        QCOMPARE(r["dataset_source"].toString(), QString("blobs:n=300,d=2,k=3,seed=7,spread=1,overlap=0"));
        QCOMPARE(r["metrics"].toObject()["k"].toInt(), 3);
        QVERIFY(!r["engine_version"].toString().isEmpty());
        QVERIFY(!r["host"].toString().isEmpty());
        QVERIFY(r.contains("energy_j"));
        // The table gives the run's time to 4 significant digits (a run of a few hundred
        // microseconds is not 0.000).
        const CliResult table = runCli(QStringList{"runs", "list"} + db());
        const QStringList row = table.out.split('\n')[1].split(' ', Qt::SkipEmptyParts);
        const double seconds = r["metrics"].toObject()["seconds_total"].toDouble();
        QVERIFY2(row.size() > 8 && qAbs(row[8].toDouble() - seconds) <= 5e-4 * seconds, qPrintable(table.out));
        // A run given a thread count (run() gives 1) is listed as the what-if spells it; one
        // on every core as its topology alone.
        QCOMPARE(row[5], QString("host@1"));
        // That spelling is a topology run and rerun take (and one thread count, not two).
        const CliResult copied = runCli(QStringList{"run", "--demo", "blobs:n=300,d=2,k=3", "--k", "3", "--topology", "host@2"} + db());
        QVERIFY2(copied.exitCode == 0, qPrintable(describe(copied)));
        QCOMPARE(show(recordedId(copied))["threads"].toInt(), 2);
        const CliResult rerun = runCli(QStringList{"runs", "rerun", recordedId(copied), "--topology", "shards:2@1"} + db());
        QVERIFY2(rerun.exitCode == 0, qPrintable(describe(rerun)));
        const QJsonObject again1 = show(recordedId(rerun));
        QCOMPARE(again1["topology"].toString(), QString("shards:2"));
        QCOMPARE(again1["threads"].toInt(), 1);
        const CliResult both = runCli(QStringList{"run", "--demo", "blobs", "--topology", "host@2", "--threads", "4"} + db());
        QVERIFY2(both.exitCode == 2 && both.err.contains("give two thread counts"), qPrintable(describe(both)));
        QCOMPARE(runCli(QStringList{"run", "--demo", "blobs:n=300,d=2,k=3", "--k", "3"} + db()).exitCode, 0);
        const CliResult again = runCli(QStringList{"runs", "list"} + db());
        QCOMPARE(again.out.split('\n')[1].split(' ', Qt::SkipEmptyParts).value(5), QString("host"));
        // The JSON summary names the run it recorded.
        const CliResult json = runCli({"run", "--demo", "blobs:n=300,d=2,k=3", "--k", "3", "--json", "-", "--db", m_db});
        QCOMPARE(json.exitCode, 0);
        QCOMPARE(QJsonDocument::fromJson(json.out.toUtf8()).object()["run_id"].toString().size(), 36);
    }

    void aSectorMapGivenAsASourceOptionIsRecordedWhereItIs()
    {
        // --option truth=FILE, relative as typed, is recorded absolute like --truth: a
        // re-run from another folder reads the same map, never one of the same name there.
        QTemporaryDir dir;
        clusterdesk::test::writePricesCsv(dir.filePath("p.csv").toStdString(), 4, 2, 40, 3);
        QFile map(dir.filePath("sectors.csv"));
        QVERIFY(map.open(QIODevice::WriteOnly));
        map.write("asset,sector\nA00,x\nA01,y\nA02,x\nA03,y\n");
        map.close();
        const QString before = QDir::currentPath();
        QVERIFY(QDir::setCurrent(dir.path()));
        const CliResult r = runCli(QStringList{"run", "--data", "p.csv", "--option", "truth=sectors.csv", "--k", "2"} + db());
        QVERIFY(QDir::setCurrent(before));
        QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
        const QString id = recordedId(r);
        QCOMPARE(show(id)["data_source"].toObject()["options"].toObject()["truth"].toString(), dir.filePath("sectors.csv"));
        const CliResult again = runCli(QStringList{"runs", "rerun", id} + db());
        QVERIFY2(again.exitCode == 0, qPrintable(describe(again)));
    }

    void showPrintsTheParametersThatApplied()
    {
        const QString id = run({"--demo", "blobs:n=300,d=2,k=3", "--algo", "adaptgrow", "--kmax", "5"});
        const CliResult shown = runCli(QStringList{"runs", "show", id} + db());
        QVERIFY2(shown.exitCode == 0, qPrintable(describe(shown)));
        const QString params = shown.out.section("\nparams", 1).section('\n', 0, 0);
        // AdaptGrow chose its own k: the record's default k (8) did not shape the run.
        QVERIFY2(params.contains("\"kmax\":5") && !params.contains("\"k\":") && !params.contains("oversampling"), qPrintable(shown.out));
        QCOMPARE(show(id)["params"].toObject()["k"].toInt(), 8);  // the JSON keeps the record whole
        // The threads it was given (run() gives 1), or for none, every core as reports say it.
        QVERIFY2(shown.out.contains("\ntopology    host, 1 thread,"), qPrintable(shown.out));
        const CliResult everyCore = runCli(QStringList{"run", "--demo", "blobs:n=300,d=2,k=3", "--k", "3"} + db());
        const CliResult shownEveryCore = runCli(QStringList{"runs", "show", recordedId(everyCore)} + db());
        QVERIFY2(shownEveryCore.out.contains("\ntopology    host, up to every core,"), qPrintable(shownEveryCore.out));
        // An id copied in upper case names the same run.
        const CliResult upper = runCli(QStringList{"runs", "show", id.toUpper()} + db());
        QVERIFY2(upper.exitCode == 0 && upper.out.startsWith("run         " + id), qPrintable(describe(upper)));
    }

    void rerunOfAnExactRunReproducesTheLabels()
    {
        const QString id = run({"--demo", "blobs:n=3000,d=8,k=6", "--k", "6", "--mode", "exact", "--topology", "shards:3"});
        const CliResult same = runCli(QStringList{"runs", "rerun", id.left(8)} + db());
        QVERIFY2(same.exitCode == 0, qPrintable(describe(same)));
        QVERIFY2(same.out.contains("labels identical to run " + id.left(8) + " (bit for bit)"), qPrintable(same.out));
        // What if on another topology: exact mode gives the same bits.
        const CliResult other = runCli(QStringList{"runs", "rerun", id, "--topology", "host", "--threads", "2"} + db());
        QVERIFY2(other.exitCode == 0, qPrintable(describe(other)));
        QVERIFY(other.out.contains("(bit for bit)"));
        const QString rerunId = recordedId(other);
        const QJsonObject rerun = show(rerunId);
        QCOMPARE(rerun["topology"].toString(), QString("host"));
        bool edge = false;
        for (const QJsonValue& e : rerun["lineage"].toArray())
            edge |= e["relation"].toString() == "rerun" && e["src"].toString() == id && e["dst"].toString() == rerunId;
        QVERIFY(edge);
    }

    void rerunOfAFastRunReportsTheAri()
    {
        const QString id = run({"--demo", "blobs:n=3000,d=8,k=6", "--k", "6", "--mode", "fast"});
        const CliResult again = runCli(QStringList{"runs", "rerun", id} + db());
        QVERIFY2(again.exitCode == 0, qPrintable(describe(again)));
        QVERIFY2(QRegularExpression("ARI vs run " + id.left(8) + ": [01]\\.\\d{4}").match(again.out).hasMatch(), qPrintable(again.out));
    }

    void rerunRefusesDataThatChanged()
    {
        const QString csv = m_dir.filePath("points.csv");
        QFile file(csv);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("x,y\n0,0\n0,1\n10,10\n10,11\n20,0\n21,0\n");
        file.close();
        const QString id = run({"--data", csv, "--k", "3"});
        QVERIFY(file.open(QIODevice::Append));
        file.write("30,30\n");
        file.close();
        const CliResult changed = runCli(QStringList{"runs", "rerun", id} + db());
        QCOMPARE(changed.exitCode, 3);
        QVERIFY2(changed.err.contains("changed since it was recorded") && changed.err.contains(csv), qPrintable(changed.err));
    }

    void diffShowsWhatDiffersAndTheAri()
    {
        const QString a = run({"--demo", "blobs:n=2000,d=4,k=4", "--k", "4", "--mode", "exact"});
        const QString b = run({"--demo", "blobs:n=2000,d=4,k=4", "--k", "5", "--seed", "9"});
        const CliResult diff = runCli(QStringList{"runs", "diff", a, b.left(10)} + db());
        QVERIFY2(diff.exitCode == 0, qPrintable(describe(diff)));
        QVERIFY(QRegularExpression("params\\s+k\\s+4\\s+5").match(diff.out).hasMatch());
        QVERIFY(QRegularExpression("params\\s+mode\\s+exact\\s+fast").match(diff.out).hasMatch());
        QVERIFY(QRegularExpression("params\\s+seed\\s+1\\s+9").match(diff.out).hasMatch());
        QVERIFY(diff.out.contains("metrics"));
        QVERIFY(QRegularExpression("labels\\s+ARI 0\\.\\d{6}").match(diff.out).hasMatch());
    }

    void diffDoesNotPairRowsOfOtherAssets()
    {
        // The same named rows in reverse order: row by row the ARI would pair every
        // asset with another one and say the clustering changed when it did not.
        QStringList rows;
        for (int i = 0; i < 40; ++i) rows << QString("asset%1,%2,%3").arg(i).arg(i < 20 ? i * 0.01 : 5 + i * 0.03).arg(i % 7 * 0.1);
        QStringList reversed = rows;
        std::reverse(reversed.begin(), reversed.end());
        const QString inOrder = m_dir.filePath("named.csv");
        const QString backwards = m_dir.filePath("named_reversed.csv");
        const QString copy = m_dir.filePath("named_copy.csv");
        for (const auto& [path, lines] : {std::pair{inOrder, rows}, std::pair{backwards, reversed}, std::pair{copy, rows}}) {
            QFile file(path);
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write(("name,a,b\n" + lines.join('\n') + '\n').toUtf8());
        }
        const QString a = run({"--data", inOrder, "--k", "2", "--mode", "exact"});
        const QString b = run({"--data", backwards, "--k", "2", "--mode", "exact"});
        const QString c = run({"--data", copy, "--k", "2", "--mode", "exact"});
        const CliResult other = runCli(QStringList{"runs", "diff", a, b} + db());
        QVERIFY2(other.exitCode == 0, qPrintable(describe(other)));
        QVERIFY2(other.out.contains("labels    not compared: their rows are named differently"), qPrintable(other.out));
        QVERIFY2(!other.out.contains("ARI"), qPrintable(other.out));
        const CliResult same = runCli(QStringList{"runs", "diff", a, c} + db());
        QVERIFY2(same.out.contains("labels    ARI 1.000000 (identical, bit for bit)"), qPrintable(same.out));
    }

    void diffOfTwoAdaptGrowRunsShowsWhatChangedLineByLine()
    {
        const QString a = run({"--demo", "blobs:n=2000,d=4,k=4", "--algo", "adaptgrow", "--k0", "2"});
        const QString b = run({"--demo", "blobs:n=2000,d=4,k=4", "--algo", "adaptgrow", "--k0", "3"});
        const CliResult diff = runCli(QStringList{"runs", "diff", a, b} + db());
        QVERIFY2(diff.exitCode == 0, qPrintable(describe(diff)));
        QVERIFY(QRegularExpression("params\\s+k0\\s+2\\s+3").match(diff.out).hasMatch());
        // Against k-means at k=4: AdaptGrow had no k to give (the k it recorded, 8, played
        // no part), and k-means no k0 or kmax.
        const QString lloyd = run({"--demo", "blobs:n=2000,d=4,k=4", "--k", "4"});
        const CliResult across = runCli(QStringList{"runs", "diff", lloyd, a} + db());
        QVERIFY2(QRegularExpression("params\\s+k\\s+4\\s+\\(none\\)").match(across.out).hasMatch(), qPrintable(across.out));
        QVERIFY2(QRegularExpression("params\\s+k0\\s+\\(none\\)\\s+2").match(across.out).hasMatch(), qPrintable(across.out));
        // The growth logs differ field by field, each on a line of its own, none endless.
        QVERIFY2(QRegularExpression("metrics\\s+growth\\.\\w+").match(diff.out).hasMatch(), qPrintable(diff.out));
        for (const QString& line : diff.out.split('\n')) {
            QVERIFY2(line.size() < 500, qPrintable(line));
            QVERIFY2(line.isEmpty() || line.startsWith("  ") || line.startsWith("run ") || line.startsWith("labels"), qPrintable(line));
        }
    }

    void warmStartFromARecordedRun()
    {
        const QString from = run({"--demo", "blobs:n=2000,d=4,k=4", "--k", "4", "--mode", "exact", "--max-iter", "2"});
        const QString warm = run({"--demo", "blobs:n=2000,d=4,k=4", "--warm-start", from.left(8), "--mode", "exact"});
        const QJsonObject record = show(warm);
        QCOMPARE(record["params"].toObject()["init"].toString(), QString("given"));
        QCOMPARE(record["params"].toObject()["k"].toInt(), 4);
        bool edge = false;
        for (const QJsonValue& e : record["lineage"].toArray())
            edge |= e["relation"].toString() == "warm_start" && e["src"].toString() == from && e["dst"].toString() == warm;
        QVERIFY(edge);
        // The starting centroids are part of the record: the warm-started run re-runs exactly.
        const CliResult again = runCli(QStringList{"runs", "rerun", warm} + db());
        QVERIFY2(again.exitCode == 0 && again.out.contains("(bit for bit)"), qPrintable(describe(again)));
        // Mismatches are usage errors that name the run.
        const CliResult wrongK = runCli(QStringList{"run", "--demo", "blobs:n=2000,d=4,k=4", "--warm-start", from, "--k", "5"} + db());
        QCOMPARE(wrongK.exitCode, 2);
        QVERIFY(wrongK.err.contains(from));
        QCOMPARE(runCli(QStringList{"run", "--demo", "blobs:n=2000,d=5,k=4", "--warm-start", from} + db()).exitCode, 2);
        QCOMPARE(runCli(QStringList{"run", "--demo", "blobs:n=2000,d=4,k=4", "--warm-start", from, "--init", "kmeans||"} + db()).exitCode, 2);
    }

    void exportWritesEveryPart()
    {
        const QString id = run({"--demo", "blobs:n=500,d=3,k=4", "--k", "4"});
        const QString out = m_dir.filePath("export");
        const CliResult r = runCli(QStringList{"runs", "export", id, "--out", out} + db());
        // Data without row names is labelled by row number, and nothing to warn of.
        QVERIFY2(r.exitCode == 0 && r.err.isEmpty(), qPrintable(describe(r)));
        for (const char* name : {"run.json", "labels.csv", "centroids.csv", "iterations.csv", "telemetry.csv"})
            QVERIFY2(QFile::exists(out + "/" + name), name);
        QFile labels(out + "/labels.csv");
        QVERIFY(labels.open(QIODevice::ReadOnly));
        QCOMPARE(labels.readAll().count('\n'), 501);  // header + one line per row
        QFile centroids(out + "/centroids.csv");
        QVERIFY(centroids.open(QIODevice::ReadOnly));
        QCOMPARE(centroids.readAll().count('\n'), 4);
        // The iterations' figures as the record holds them, in their shortest exact text.
        QFile iterations(out + "/iterations.csv");
        QVERIFY(iterations.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = iterations.readAll().split('\n');
        QVERIFY(lines.size() > 2);
        QCOMPARE(lines.size(), show(id)["iterations"].toInt() + 2);  // header, one line each, the final newline
        QVERIFY(lines[1].split(',')[3].toDouble() > 0);  // the first inertia
        // The shortest text that reads back the same: never longer than %.17g's, and
        // shorter where that has trailing noise (0.0051879999999999999 for 0.005188).
        int shorter = 0;
        for (int line = 1; line + 1 < lines.size(); ++line) {
            const QList<QByteArray> fields = lines[line].split(',');
            for (int f = 3; f <= 6; ++f) {  // inertia and the three phases' milliseconds
                const QByteArray full = QByteArray::number(fields[f].toDouble(), 'g', 17);
                QVERIFY2(fields[f].size() <= full.size() && full.toDouble() == fields[f].toDouble(), lines[line].constData());
                shorter += fields[f].size() < full.size() ? 1 : 0;
            }
        }
        QVERIFY(shorter > 0);
        // The exported centroids start a new run.
        QVERIFY(!run({"--demo", "blobs:n=500,d=3,k=4", "--init-centroids", out + "/centroids.csv"}).isEmpty());
    }

    void exportedLabelsNameTheAssets()
    {
        // The export's labels are what the run wrote with --labels-out: asset names, not row numbers.
        const QString written = m_dir.filePath("market-labels.csv");
        const QString id = run({"--demo", "market:assets=30,sectors=3,days=300", "--k", "3", "--labels-out", written});
        const QString out = m_dir.filePath("market-export");
        const CliResult r = runCli(QStringList{"runs", "export", id, "--out", out} + db());
        QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
        QFile exported(out + "/labels.csv"), direct(written);
        QVERIFY(exported.open(QIODevice::ReadOnly) && direct.open(QIODevice::ReadOnly));
        const QByteArray text = exported.readAll();
        QVERIFY2(text.startsWith("id,cluster\n") && !text.split('\n')[1].startsWith("0,"), text.left(200).constData());
        QCOMPARE(text, direct.readAll());
    }

    void renamedRowsAreNotListedUnderARecordedRun()
    {
        // Same values, two assets' names swapped: the content hash (values only) still
        // matches, but the run clustered the rows under their old names.
        const QString csv = m_dir.filePath("named.csv");
        const auto write = [&](const char* first, const char* second) {
            QFile file(csv);
            QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
            file.write(QString("id,x,y\n%1,0,0\n%2,0,1\nC,10,10\nD,10,11\nE,20,0\nF,21,0\n").arg(first, second).toUtf8());
        };
        write("A", "B");
        const QString labelsBefore = m_dir.filePath("named-labels.csv");
        const QString id = run({"--data", csv, "--k", "3", "--mode", "exact", "--labels-out", labelsBefore});
        const QString out = m_dir.filePath("named-export");
        CliResult r = runCli(QStringList{"runs", "export", id, "--out", out} + db());
        QVERIFY2(r.exitCode == 0 && r.err.isEmpty(), qPrintable(describe(r)));
        QFile exported(out + "/labels.csv");
        QVERIFY(exported.open(QIODevice::ReadOnly));
        QVERIFY(exported.readAll().contains("\nA,"));
        exported.close();

        write("B", "A");
        const QString renamed = m_dir.filePath("renamed-export");
        r = runCli(QStringList{"runs", "export", id, "--out", renamed} + db());
        QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
        QVERIFY2(r.err.contains("row names changed since run " + id.left(8)), qPrintable(r.err));
        QFile relabelled(renamed + "/labels.csv");
        QVERIFY(relabelled.open(QIODevice::ReadOnly));
        const QByteArray text = relabelled.readAll();
        QVERIFY2(!text.contains("\nA,") && !text.contains("\nB,"), text.constData());  // rows by number instead
        // A re-run repeats the labels row by row, and says its rows now go by other names.
        const CliResult again = runCli(QStringList{"runs", "rerun", id} + db());
        QVERIFY2(again.exitCode == 0 && again.out.contains("(bit for bit)"), qPrintable(describe(again)));
        QVERIFY2(again.err.contains("the row names changed since the run was recorded"), qPrintable(again.err));
        // The report says why it could not reopen the data, rather than listing the new names.
        const QString report = m_dir.filePath("renamed.html");
        r = runCli(QStringList{"report", id, "--out", report} + db());
        QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
        QFile html(report);
        QVERIFY(html.open(QIODevice::ReadOnly));
        const QByteArray page = html.readAll();
        QVERIFY(page.contains("row names changed"));
        QVERIFY(!page.contains(">A<") && !page.contains(">B<"));
    }

    void verifyNamesTheRunEditedWithTheSqlite3Tool()
    {
        const QString tool = QStandardPaths::findExecutable("sqlite3");
        if (tool.isEmpty()) QSKIP("the sqlite3 command-line tool is not installed (scripts/install-deps.sh installs it)");
        const QString first = run({"--demo", "blobs:n=300,d=2,k=3", "--k", "3"});
        const QString second = run({"--demo", "blobs:n=300,d=2,k=3", "--k", "2"});
        CliResult ok = runCli(QStringList{"runs", "verify"} + db());
        QVERIFY2(ok.exitCode == 0, qPrintable(describe(ok)));
        QVERIFY(ok.out.contains("ok: 2 records"));
        QProcess sqlite;
        sqlite.start(tool, {m_db, "UPDATE runs SET topology = 'cuda:0' WHERE id = '" + first + "'"});
        QVERIFY(sqlite.waitForFinished());
        QCOMPARE(sqlite.exitCode(), 0);
        const CliResult bad = runCli(QStringList{"runs", "verify"} + db());
        QCOMPARE(bad.exitCode, 1);
        QVERIFY2(bad.out.contains("run " + first) && !bad.out.contains(second), qPrintable(bad.out));
    }

    void verifyNamesWhatWasTamperedWith()
    {
        const QString tool = QStandardPaths::findExecutable("sqlite3");
        if (tool.isEmpty()) QSKIP("the sqlite3 command-line tool is not installed (scripts/install-deps.sh installs it)");
        const QString first = run({"--demo", "blobs:n=300,d=2,k=3", "--k", "3"});
        const QString second = run({"--demo", "blobs:n=300,d=2,k=3", "--k", "2"});
        const auto tamper = [&](const QString& sql) {
            QProcess sqlite;
            sqlite.start(tool, {m_db, sql});
            QVERIFY(sqlite.waitForFinished());
            QCOMPARE(sqlite.exitCode(), 0);
        };
        // Hidden as if deleted and collected, outside the store.
        tamper("UPDATE runs SET deleted_at = '2026-01-01T00:00:00.000Z' WHERE id = '" + second +
               "'; UPDATE artifacts SET data = NULL WHERE run_id = '" + second + "'");
        CliResult bad = runCli(QStringList{"runs", "verify"} + db());
        QCOMPARE(bad.exitCode, 1);
        QVERIFY2(bad.out.contains("run " + second + " is marked deleted, but no deletion of it is in the chain"), qPrintable(bad.out));
        tamper("UPDATE runs SET deleted_at = NULL");
        QCOMPARE(runCli(QStringList{"runs", "delete", second} + db()).exitCode, 0);  // a real deletion is chained
        QCOMPARE(runCli(QStringList{"runs", "verify"} + db()).exitCode, 0);
        // The dataset row, which runs show displays, is sealed too.
        tamper("UPDATE datasets SET rows = 301");
        bad = runCli(QStringList{"runs", "verify"} + db());
        QCOMPARE(bad.exitCode, 1);
        QVERIFY2(bad.out.contains("run " + first) && bad.out.contains("does not match its seal"), qPrintable(bad.out));
        // Without the key nothing can be checked, and the CLI says which key is missing.
        qputenv("CLUSTERDESK_CHAIN_KEY", m_dir.filePath("nowhere/chain.key").toUtf8());
        bad = runCli(QStringList{"runs", "verify"} + db());
        qputenv("CLUSTERDESK_CHAIN_KEY", m_dir.filePath("keys/chain.key").toUtf8());
        QCOMPARE(bad.exitCode, 1);
        QVERIFY2(bad.out.contains("the chain key " + m_dir.filePath("nowhere/chain.key") + " is missing"), qPrintable(bad.out));
    }

    void aStoreNobodyMayWriteIsListedAndVerified()
    {
        const QString dir = m_dir.filePath("readonly");
        QVERIFY(QDir().mkpath(dir));
        m_db = dir + "/runs.sqlite";
        const QString id = run({"--demo", "blobs:n=200,d=2,k=2", "--k", "2"});
        QVERIFY(!QFile::exists(m_db + "-wal"));  // the last writer checkpointed it away
        // Root reads past permission bits, so as root the reader is `nobody`, with a copy
        // of the chain key it may read.
        const bool root = ::geteuid() == 0;
        const QString key = m_dir.filePath("readonly-key");
        QVERIFY(QFile::copy(m_dir.filePath("keys/chain.key"), key));
        if (root) {
            const QString setpriv = QStandardPaths::findExecutable("setpriv");
            if (setpriv.isEmpty()) QSKIP("running as root without setpriv (util-linux): no user who cannot write the store");
            QVERIFY(::chown(key.toUtf8().constData(), 65534, 65534) == 0);
            QVERIFY(::chmod(m_dir.path().toUtf8().constData(), 0755) == 0);  // nobody may reach it, not write it
        }
        QVERIFY(::chmod(m_db.toUtf8().constData(), 0444) == 0);
        QVERIFY(::chmod(dir.toUtf8().constData(), 0555) == 0);
        const auto asReader = [&](const QStringList& args) {
            QProcess process;
            QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
            env.insert("CLUSTERDESK_CHAIN_KEY", key);
            process.setProcessEnvironment(env);
            const QString cli = CLUSTERDESK_BIN_DIR "/clusterdesk-cli";
            if (root) process.start("setpriv", QStringList{"--reuid=65534", "--regid=65534", "--clear-groups", "--", cli} + args + db());
            else process.start(cli, args + db());
            [&] { QVERIFY(process.waitForFinished(60000)); }();
            return CliResult{process.exitCode(), QString::fromUtf8(process.readAllStandardOutput()),
                             QString::fromUtf8(process.readAllStandardError())};
        };
        const CliResult listed = asReader({"runs", "list"});
        const CliResult verified = asReader({"runs", "verify"});
        const CliResult shown = asReader({"runs", "show", id});
        const CliResult removed = asReader({"runs", "delete", id});  // a writing command cannot, and says so
        QVERIFY(::chmod(dir.toUtf8().constData(), 0755) == 0);
        QVERIFY2(listed.exitCode == 0 && listed.out.contains(id.left(8)), qPrintable(describe(listed)));
        QVERIFY2(verified.exitCode == 0 && verified.out.contains("ok: 1 record in the hash chain"), qPrintable(describe(verified)));
        QVERIFY2(shown.exitCode == 0 && shown.out.contains(id), qPrintable(describe(shown)));
        QVERIFY2(removed.exitCode == 4 && removed.err.contains(m_db + ": the run store is read-only"), qPrintable(describe(removed)));
        QVERIFY(!QFile::exists(m_db + "-shm"));
    }

    void aLostWalIsReportedByTheNextCommand()
    {
        run({"--demo", "blobs:n=200,d=2,k=2", "--k", "2"});  // checkpointed into the file: the CLI closed it last
        // Another process (this test) keeps the file open, so the next run's commit stays
        // in the -wal file when the CLI exits.
        sqlite3* holder = nullptr;
        QCOMPARE(sqlite3_open(m_db.toUtf8().constData(), &holder), SQLITE_OK);
        QCOMPARE(sqlite3_exec(holder, "SELECT count(*) FROM runs", nullptr, nullptr, nullptr), SQLITE_OK);
        run({"--demo", "blobs:n=200,d=2,k=2", "--k", "2"});
        const bool walHeldIt = QFileInfo(m_db + "-wal").size() > 0;
        // The file without its -wal, beside its remembered chain head.
        const QString lost = m_dir.filePath("lost-wal.sqlite");
        const bool copied = QFile::copy(m_db, lost) && QFile::copy(m_db + ".chain-head", lost + ".chain-head");
        sqlite3_close(holder);
        QVERIFY(walHeldIt);
        QVERIFY(copied);
        const CliResult listed = runCli({"runs", "list", "--db", lost});
        QCOMPARE(listed.exitCode, 0);
        QVERIFY2(listed.err.contains("warning") && listed.err.contains("1 chained record was lost"), qPrintable(describe(listed)));
        const CliResult verify = runCli({"runs", "verify", "--db", lost});
        QCOMPARE(verify.exitCode, 1);
        QVERIFY2(verify.out.contains("the -wal file was deleted"), qPrintable(describe(verify)));
        // A run recorded in it warns too: the user learns before adding to that store.
        const CliResult recorded = runCli({"run", "--demo", "blobs:n=200,d=2,k=2", "--k", "2", "--db", lost});
        QVERIFY2(recorded.exitCode == 0 && recorded.err.contains("warning") && recorded.err.contains("1 chained record was lost"),
                 qPrintable(describe(recorded)));
        QCOMPARE(runCli(QStringList{"runs", "verify"} + db()).exitCode, 0);  // the original lost nothing
    }

    void deletedRunsLeaveTheListAndGcRemovesTheirArtifacts()
    {
        const QString keep = run({"--demo", "blobs:n=300,d=2,k=3", "--k", "3"});
        const QString drop = run({"--demo", "blobs:n=300,d=2,k=3", "--k", "2"});
        QCOMPARE(runCli(QStringList{"runs", "delete", drop} + db()).exitCode, 0);
        const CliResult again = runCli(QStringList{"runs", "delete", drop} + db());
        QVERIFY2(again.exitCode == 0 && again.out.contains("was deleted before; nothing changed"), qPrintable(describe(again)));
        QCOMPARE(list().size(), 1);
        QCOMPARE(list({"--deleted"}).size(), 2);
        // In the table a deleted run's status is starred, and the star explained.
        const CliResult table = runCli(QStringList{"runs", "list", "--deleted"} + db());
        QVERIFY2(QRegularExpression(drop.left(8) + ".*  ok\\*  ").match(table.out).hasMatch() &&
                     table.out.contains("* deleted: kept in the history"), qPrintable(table.out));
        QVERIFY(!runCli(QStringList{"runs", "list"} + db()).out.contains("* deleted"));
        const CliResult gc = runCli(QStringList{"runs", "gc"} + db());
        QVERIFY2(gc.exitCode == 0 && gc.out.contains("1 deleted run"), qPrintable(describe(gc)));
        QVERIFY(show(drop)["artifacts_collected"].toBool());
        QVERIFY(show(keep)["labels_stored"].toBool());
        QCOMPARE(runCli(QStringList{"runs", "verify"} + db()).exitCode, 0);
        // Its export has the record, and says why the labels and centroids are not there.
        const QString out = m_dir.filePath("exported-after-gc");
        const CliResult exported = runCli(QStringList{"runs", "export", drop, "--out", out} + db());
        QVERIFY2(exported.exitCode == 0 && exported.out.contains("run.json") && !exported.out.contains("labels.csv") &&
                     exported.err.contains("no labels.csv or centroids.csv: runs gc removed the labels and centroids of this deleted run"),
                 qPrintable(describe(exported)));
        QVERIFY(!QFile::exists(out + "/labels.csv"));
        // Without its labels a re-run checks nothing: fast mode says so, exact mode fails.
        const CliResult fast = runCli(QStringList{"runs", "rerun", drop} + db());
        QVERIFY2(fast.exitCode == 0 && fast.out.contains("nothing to compare"), qPrintable(describe(fast)));
        const QString exact = run({"--demo", "blobs:n=300,d=2,k=3", "--k", "3", "--mode", "exact"});
        QCOMPARE(runCli(QStringList{"runs", "delete", exact} + db()).exitCode, 0);
        QCOMPARE(runCli(QStringList{"runs", "gc"} + db()).exitCode, 0);
        const CliResult unchecked = runCli(QStringList{"runs", "rerun", exact} + db());
        QVERIFY2(unchecked.exitCode == 1 && unchecked.out.contains("the exact reproduction is NOT checked"), qPrintable(describe(unchecked)));
    }

    void aRunThatFailsIsRecordedWithItsReason()
    {
        const CliResult r = runCli(QStringList{"run", "--demo", "blobs:n=300,d=2,k=3", "--k", "3", "--topology", "cuda:7"} + db());
        if (r.exitCode == 0) QSKIP("this machine has a CUDA device 7");
        QCOMPARE(r.exitCode, 4);
        const QJsonArray runs = list();
        QCOMPARE(runs.size(), 1);
        QCOMPARE(runs[0]["status"].toString(), QString("failed"));
        QVERIFY(!runs[0]["failure"].toString().isEmpty());
        QCOMPARE(runCli(QStringList{"runs", "verify"} + db()).exitCode, 0);
        // Usage errors stop a run before it starts and are not recorded.
        QCOMPARE(runCli(QStringList{"run", "--demo", "blobs:n=300,d=2,k=3", "--k", "500"} + db()).exitCode, 2);
        QCOMPARE(list().size(), 1);
    }

    void badIdsAndOptionsAreUsageErrors()
    {
        run({"--demo", "blobs:n=300,d=2,k=3", "--k", "3"});
        for (const QStringList& args : {QStringList{"runs", "show", "ffffffff"}, QStringList{"runs", "show", kInjection},
                                        QStringList{"runs", "diff", "a"}, QStringList{"runs", "list", "--sort", kInjection},
                                        QStringList{"runs", "list", "--status", "done"}, QStringList{"runs", "frobnicate"},
                                        QStringList{"runs", "export", "0"}}) {
            const CliResult r = runCli(args + db());
            QVERIFY2(r.exitCode == 2, qPrintable(args.join(' ') + "\n" + describe(r)));
            QVERIFY(r.err.startsWith("clusterdesk-cli: "));
        }
        QCOMPARE(list().size(), 1);
        // Reading commands never create a store at a mistyped path.
        const QString missing = m_dir.filePath("typo/runs.sqlite");
        const CliResult none = runCli({"runs", "list", "--db", missing});
        QCOMPARE(none.exitCode, 2);
        QVERIFY(none.err.contains("no run store at " + missing));
        QVERIFY(!QFile::exists(missing));
    }

    void controlCharactersInFileNamesAreShownEscaped()
    {
        // A file name that would clear the screen and forge a line of output if printed raw.
        const QString name = QString("prices\x1b[2J\nrecorded  run forged") + QChar(0x9b) + ".csv";
        const QString csv = m_dir.filePath(name);
        QFile file(csv);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("x,y\n0,0\n0,1\n10,10\n10,11\n");
        file.close();
        const CliResult r = runCli(QStringList{"run", "--data", csv, "--k", "2", "--threads", "1"} + db());
        QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
        const QString escaped = "prices\\x1b[2J\\nrecorded  run forged\\u009b.csv";
        const QString id = recordedId(r);
        const CliResult listed = runCli(QStringList{"runs", "list"} + db());
        const CliResult shown = runCli(QStringList{"runs", "show", id} + db());
        const QString other = run({"--demo", "blobs:n=300,d=2,k=2", "--k", "2"});
        const CliResult diffed = runCli(QStringList{"runs", "diff", id, other} + db());
        for (const CliResult& out : {r, listed, shown, diffed}) {
            QVERIFY2(out.exitCode == 0, qPrintable(describe(out)));
            QVERIFY2(!out.out.contains(QChar(0x1b)) && !out.out.contains(QChar(0x9b)), qPrintable(out.out));
            QVERIFY2(!out.out.contains("\nrecorded  run forged"), qPrintable(out.out));
            QVERIFY2(out.out.contains(escaped), qPrintable(out.out));
        }
        // JSON keeps the name exact.
        QCOMPARE(show(id)["dataset_source"].toString(), csv);
        QCOMPARE(list()[1].toObject()["dataset_source"].toString(), csv);
    }

    void textThatLooksLikeSqlIsStoredVerbatim()
    {
        const QString csv = m_dir.filePath("prices" + kInjection + ".csv");
        QFile file(csv);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("x,y\n0,0\n0,1\n10,10\n10,11\n");
        file.close();
        const QString id = run({"--data", csv, "--k", "2"});
        const QJsonArray found = list({"--filter", kInjection});
        QCOMPARE(found.size(), 1);
        QCOMPARE(found[0]["dataset_source"].toString(), csv);
        QCOMPARE(show(id)["dataset_source"].toString(), csv);
        QCOMPARE(runCli(QStringList{"runs", "verify"} + db()).exitCode, 0);
        const CliResult rerun = runCli(QStringList{"runs", "rerun", id} + db());
        QVERIFY2(rerun.exitCode == 0, qPrintable(describe(rerun)));
    }
};

QTEST_GUILESS_MAIN(TestCliRuns)
#include "test_cli_runs.moc"
