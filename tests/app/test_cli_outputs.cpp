// clusterdesk-cli's output files (--labels-out, --centroids-out, --json, runs export):
// refused before the run when they name an input, the store or another output, or are
// not regular files; written only after a successful run, through a temporary file,
// so a failed run or a failed write leaves what they held.
#include "cli_runner.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <sys/resource.h>

#include <csignal>

namespace {

const QString kDemo = "blobs:n=50000,d=2,k=3";

QByteArray contentOf(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray("<unreadable>");
}

bool writeText(const QString& path, const QByteArray& text)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(text) == text.size();
}

}  // namespace

class TestCliOutputs : public QObject {
    Q_OBJECT

private slots:
    void anOutputNamingTheDataIsRefused()
    {
        QTemporaryDir dir;
        const QString data = dir.filePath("v.csv");
        const QByteArray points = "1,2\n3,4\n10,11\n12,13\n";
        QVERIFY(writeText(data, points));
        QVERIFY(QFile::link(data, dir.filePath("alias.csv")));
        for (const QString& out : {data, dir.filePath("alias.csv")}) {
            const CliResult r = runCli({"run", "--data", data, "--k", "2", "--no-record", "--labels-out", out});
            QCOMPARE(r.exitCode, 2);
            QVERIFY2(r.err.contains("--labels-out " + out + " would overwrite the input data"), qPrintable(r.err));
        }
        QCOMPARE(contentOf(data), points);
    }

    void anOutputNamingTheStoreIsRefused()
    {
        QTemporaryDir dir;
        const QString db = dir.filePath("S");
        QCOMPARE(runCli({"run", "--demo", "blobs:n=200,d=2,k=2", "--k", "2", "--db", db}).exitCode, 0);
        for (const QString& out : {db, db + "-wal", db + "-shm"}) {
            const CliResult r = runCli({"run", "--demo", "blobs:n=200,d=2,k=2", "--k", "2", "--db", db, "--json", out});
            QCOMPARE(r.exitCode, 2);
            QVERIFY2(r.err.contains("would overwrite the run store"), qPrintable(r.err));
        }
        const CliResult listed = runCli({"runs", "list", "--db", db});
        QVERIFY2(listed.exitCode == 0 && listed.out.count("ok") >= 1, qPrintable(listed.out + listed.err));
        QCOMPARE(runCli({"runs", "verify", "--db", db}).exitCode, 0);
    }

    void noOutputReplacesTheChainKeyOrTheStoreEvenWithoutRecording()
    {
        QTemporaryDir dir;
        const QString key = dir.filePath("keys/chain.key"), db = dir.filePath("S");
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("CLUSTERDESK_CHAIN_KEY", key);
        env.insert("CLUSTERDESK_DB", db);  // the user's store, which a run without --db records in
        QCOMPARE(runCliIn(env, {"run", "--demo", "blobs:n=200,d=2,k=2", "--k", "2"}).exitCode, 0);  // makes the key
        const QByteArray secret = contentOf(key);
        for (const QStringList& recording : {QStringList{}, QStringList{"--no-record"}}) {
            for (const QString& out : {key, db}) {
                const CliResult r = runCliIn(env, QStringList{"run", "--demo", "blobs:n=200,d=2,k=2", "--k", "2", "--labels-out", out} + recording);
                QCOMPARE(r.exitCode, 2);
                QVERIFY2(r.err.contains("would overwrite the run store"), qPrintable(r.err));
            }
        }
        QCOMPARE(contentOf(key), secret);
        QCOMPARE(runCliIn(env, {"runs", "verify"}).exitCode, 0);
    }

    void whatifJsonNeverReplacesTheSectorMap()
    {
        QTemporaryDir dir;
        const QString prices = dir.filePath("p.csv"), sectors = dir.filePath("sectors.csv");
        QVERIFY(writeText(prices, "date,A,B,C,D\n2024-01-01,1,2,3,4\n2024-01-02,1.1,2.2,2.9,4.1\n2024-01-03,1.2,2.1,3.1,4.3\n"));
        const QByteArray map = "asset,sector\nA,x\nB,x\nC,y\nD,y\n";
        QVERIFY(writeText(sectors, map));
        const CliResult r = runCli({"whatif", "--data", prices, "--truth", sectors, "--k", "2", "--topologies", "host", "--no-record", "--json", sectors});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("would overwrite the sector map (--truth)"), qPrintable(r.err));
        QCOMPARE(contentOf(sectors), map);
    }

    void liveJsonNeverReplacesTheStore()
    {
        // Refused before any connection (port 1 answers nobody).
        QTemporaryDir dir;
        const QString db = dir.filePath("S");
        QCOMPARE(runCli({"run", "--demo", "blobs:n=200,d=2,k=2", "--k", "2", "--db", db}).exitCode, 0);
        const QByteArray before = contentOf(db);
        const CliResult r = runCli({"live", "--feed", "ws://127.0.0.1:1", "--updates", "1", "--json", db, "--db", db});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("--json " + db + " would overwrite the run store"), qPrintable(r.err));
        QCOMPARE(contentOf(db), before);
        QCOMPARE(runCli({"runs", "verify", "--db", db}).exitCode, 0);
    }

    void runsExportNeverReplacesTheRunsInput()
    {
        // Data that happens to be called labels.csv, exported into its own folder.
        QTemporaryDir dir;
        const QString data = dir.filePath("labels.csv"), db = dir.filePath("S");
        const QByteArray points = "x,y\n1,2\n3,4\n10,11\n12,13\n";
        QVERIFY(writeText(data, points));
        const CliResult run = runCli({"run", "--data", data, "--k", "2", "--db", db});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        const QString id = QRegularExpression("recorded  run ([0-9a-f-]{36})").match(run.out).captured(1);
        const CliResult exported = runCli({"runs", "export", id, "--out", dir.path(), "--db", db});
        QCOMPARE(exported.exitCode, 2);
        QVERIFY2(exported.err.contains("would overwrite the data of run " + id.left(8)), qPrintable(exported.err));
        QCOMPARE(contentOf(data), points);
        QVERIFY(!QFile::exists(dir.filePath("run.json")));  // checked before anything is written
    }

    void nothingWrittenForARunReplacesItsInitialCentroids()
    {
        // The centroids a run started from, in a file an export and a report would write.
        QTemporaryDir dir;
        const QString data = dir.filePath("points.csv"), db = dir.filePath("S");
        QVERIFY(writeText(data, "x,y\n1,2\n3,4\n10,11\n12,13\n"));
        const QByteArray centroids = "a,b\n1,2\n11,12\n";
        for (const QString& name : {"centroids.csv", "q.labels.csv"}) {
            const QString start = dir.filePath(name);
            QVERIFY(writeText(start, centroids));
            const CliResult run = runCli({"run", "--data", data, "--k", "2", "--init-centroids", start, "--db", db});
            QVERIFY2(run.exitCode == 0, qPrintable(run.err));
            const QString id = QRegularExpression("recorded  run ([0-9a-f-]{36})").match(run.out).captured(1);
            const CliResult refused = name == "centroids.csv" ? runCli({"runs", "export", id, "--out", dir.path(), "--db", db})
                                                              : runCli({"report", id, "--out", dir.filePath("q.pdf"), "--db", db});
            QCOMPARE(refused.exitCode, 2);
            QVERIFY2(refused.err.contains(start + " would overwrite the initial centroids (--init-centroids) of run " + id.left(8)),
                     qPrintable(refused.err));
            QCOMPARE(contentOf(start), centroids);
        }
    }

    void twoOutputsOnOneFileAreRefused()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath("out.txt");
        const CliResult r = runCli({"run", "--demo", "blobs:n=200,d=2,k=2", "--k", "2", "--no-record", "--labels-out", out, "--json", out});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("--json " + out + " would overwrite the output of --labels-out"), qPrintable(r.err));
        QVERIFY(!QFile::exists(out));
    }

    void aFailedRunLeavesExistingOutputs()
    {
        QTemporaryDir dir;
        const QString labels = dir.filePath("labels.txt"), json = dir.filePath("run.json");
        QVERIFY(writeText(labels, "yesterday's labels\n") && writeText(json, "{}\n"));
        const CliResult r = runCli({"run", "--demo", "blobs:n=200,d=2,k=2", "--k", "900", "--no-record", "--labels-out", labels, "--json", json});
        QCOMPARE(r.exitCode, 2);
        QCOMPARE(contentOf(labels), QByteArray("yesterday's labels\n"));
        QCOMPARE(contentOf(json), QByteArray("{}\n"));
    }

    void whatIsNotARegularFileIsRefusedBeforeTheRun()
    {
        QTemporaryDir dir;
        for (const QString& out : {QString("/dev/full"), QString("/proc/version"), dir.path()}) {
            const CliResult r = runCli({"run", "--demo", "blobs:n=200,d=2,k=2", "--k", "2", "--no-record", "--json", out});
            QCOMPARE(r.exitCode, 2);
            QVERIFY2(r.err.contains("--json " + out) && !r.out.contains("result"), qPrintable(r.out + r.err));
        }
    }

    void aWriteThatFailsExitsNonZeroAndKeepsTheOldFile()
    {
        // A file-size limit on the CLI fails its write(2) as a full disk does: exit 5
        // naming the file, which keeps what it held, and no temporary file is left.
        QTemporaryDir dir;
        const QString labels = dir.filePath("labels.txt");
        QVERIFY(writeText(labels, "precious\n"));
        QProcess process;
        process.setChildProcessModifier([] {
            std::signal(SIGXFSZ, SIG_IGN);  // the failed write returns EFBIG instead of killing
            struct rlimit limit {};
            ::getrlimit(RLIMIT_FSIZE, &limit);
            limit.rlim_cur = 16384;
            ::setrlimit(RLIMIT_FSIZE, &limit);
        });
        process.start(QStringLiteral(CLUSTERDESK_BIN_DIR "/clusterdesk-cli"),
                      {"run", "--demo", kDemo, "--k", "3", "--no-record", "--labels-out", labels});
        QVERIFY(process.waitForFinished(120000));
        const QString err = QString::fromUtf8(process.readAllStandardError());
        QCOMPARE(process.exitCode(), 5);
        QVERIFY2(err.contains("cannot write " + labels), qPrintable(err));
        QCOMPARE(contentOf(labels), QByteArray("precious\n"));
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden), QStringList{"labels.txt"});
    }

    void outputsAreWrittenWhenTheRunSucceeds()
    {
        QTemporaryDir dir;
        const QString labels = dir.filePath("labels.txt"), centroids = dir.filePath("c.csv"), json = dir.filePath("run.json");
        QVERIFY(writeText(labels, "old\n"));
        const CliResult r = runCli({"run", "--demo", kDemo, "--k", "3", "--no-record", "--labels-out", labels, "--centroids-out",
                                    centroids, "--json", json});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY(contentOf(labels).startsWith("id,cluster\n0,"));
        QCOMPARE(contentOf(labels).count('\n'), 50001);
        QCOMPARE(contentOf(centroids).count('\n'), 3);
        QCOMPARE(QJsonDocument::fromJson(contentOf(json)).object()["k"].toInt(), 3);
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).size(), 3);
    }

    void runsExportNeverReplacesTheStore()
    {
        // A store that happens to be called run.json in the export folder.
        QTemporaryDir dir;
        const QString db = dir.filePath("run.json");
        const CliResult run = runCli({"run", "--demo", "blobs:n=200,d=2,k=2", "--k", "2", "--db", db});
        QCOMPARE(run.exitCode, 0);
        const QString id = QRegularExpression("recorded  run ([0-9a-f-]{36})").match(run.out).captured(1);
        const QByteArray before = contentOf(db);
        const CliResult exported = runCli({"runs", "export", id, "--out", dir.path(), "--db", db});
        QCOMPARE(exported.exitCode, 2);
        QVERIFY2(exported.err.contains("would overwrite the run store"), qPrintable(exported.err));
        QVERIFY(!QFile::exists(dir.filePath("labels.csv")));  // checked before anything is written
        QCOMPARE(runCli({"runs", "verify", "--db", db}).exitCode, 0);
        const CliResult elsewhere = runCli({"runs", "export", id, "--out", dir.filePath("export"), "--db", db});
        QVERIFY2(elsewhere.exitCode == 0, qPrintable(elsewhere.err));
        QVERIFY(QFile::exists(dir.filePath("export/labels.csv")));
    }
};

QTEST_GUILESS_MAIN(TestCliOutputs)
#include "test_cli_outputs.moc"
