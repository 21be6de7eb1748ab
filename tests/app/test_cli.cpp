// clusterdesk-cli as a user meets it: exit codes, the JSON summary, the output files,
// and a bad-input suite in which every malformed file is refused with exit code 3 and
// a message naming the file and the line.
#include "cli_runner.h"
#include "test_hooks_guard.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <cstdint>
#include <cstring>
#include <sys/stat.h>

namespace {

// A .npy file: magic, version 1.0, a header padded to 64 bytes, then `payload`.
QByteArray npy(const QByteArray& header, const QByteArray& payload)
{
    QByteArray dict = header;
    while ((10 + dict.size() + 1) % 64 != 0) dict += ' ';
    dict += '\n';
    QByteArray out("\x93NUMPY\x01\x00", 8);
    const auto length = static_cast<std::uint16_t>(dict.size());
    out += char(length & 0xff);
    out += char(length >> 8);
    return out + dict + payload;
}

QByteArray floats(int count)
{
    QByteArray bytes(count * 4, '\0');
    for (int i = 0; i < count; ++i) {
        const float v = static_cast<float>(i % 7);
        std::memcpy(bytes.data() + i * 4, &v, 4);
    }
    return bytes;
}

}  // namespace

class TestCli : public QObject {
    Q_OBJECT

private slots:
    void helpAndVersion()
    {
        const CliResult help = runCli({"--help"});
        QCOMPARE(help.exitCode, 0);
        QVERIFY(help.out.contains("--topology"));
        QVERIFY(help.out.contains("Exit codes"));
        // Every command's help, wherever --help stands: the usage lines and its section.
        const QList<QPair<QStringList, QString>> commands = {{{"runs", "list", "--help"}, "Runs ("},
                                                             {{"runs", "--help"}, "Runs ("},
                                                             {{"whatif", "--demo", "blobs", "-h"}, "What-if ("},
                                                             {{"report", "--help"}, "Reports ("},
                                                             {{"live", "--help"}, "Live ("},
                                                             {{"run", "--demo", "blobs", "--help"}, "Algorithm:"}};
        const QStringList headings = {"Runs (", "What-if (", "Reports (", "Live ("};
        for (const auto& [args, heading] : commands) {
            const CliResult part = runCli(args);
            QVERIFY2(part.exitCode == 0 && part.out.startsWith("Usage:") && part.out.contains("\n" + heading),
                     qPrintable(args.join(' ') + ": " + part.out.left(300) + part.err));
            // That section alone (run's: its options, the store and the exit codes).
            for (const QString& other : headings)
                QVERIFY2(other == heading || !part.out.contains("\n" + other), qPrintable(args.join(' ') + " shows " + other));
        }
        const CliResult version = runCli({"--version"});
        QCOMPARE(version.exitCode, 0);
        QVERIFY(version.out.startsWith("clusterdesk-cli "));
    }

    void usageErrorsExit2_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        QTest::newRow("no data") << QStringList{"run"} << "give exactly one of --data PATH or --demo SPEC";
        QTest::newRow("unknown option") << QStringList{"run", "--demo", "blobs", "--frobnicate"} << "unknown option '--frobnicate'";
        QTest::newRow("bad k") << QStringList{"run", "--demo", "blobs", "--k", "ten"} << "'ten' is not a valid number";
        QTest::newRow("k not whole") << QStringList{"run", "--demo", "blobs", "--k", "2.5"} << "option --k: '2.5' is not a whole number";
        QTest::newRow("k out of range") << QStringList{"run", "--demo", "blobs", "--k", "99999999999"}
                                        << "option --k: '99999999999' is too large (at most 2147483647)";
        QTest::newRow("k out of range, as a power of ten") << QStringList{"run", "--demo", "blobs", "--k", "1e10"}
                                                           << "option --k: '1e10' is too large (at most 2147483647)";
        QTest::newRow("k below zero, as a power of ten") << QStringList{"run", "--demo", "blobs", "--k", "-1e30"}
                                                         << "option --k: must be at least 1 (got -1e30)";
        QTest::newRow("k beyond every double") << QStringList{"run", "--demo", "blobs", "--k", "1e400"}
                                               << "option --k: '1e400' is too large (at most 2147483647)";
        QTest::newRow("seed rounded by its exponent") << QStringList{"run", "--demo", "blobs", "--seed", "9007199254740993e0"}
                                                      << "option --seed: '9007199254740993e0' is 2^53 or more, where a number with an exponent may round: write it in digits";
        QTest::newRow("window below zero") << QStringList{"run", "--data", "x.csv", "--window", "-1e30"}
                                           << "option --window: a number of returns, or 0 for all of them (got -1e30)";
        QTest::newRow("k not a number") << QStringList{"run", "--demo", "blobs", "--k", "nan"} << "option --k: 'nan' is not a valid number";
        QTest::newRow("k not whole, as a power of ten") << QStringList{"run", "--demo", "blobs", "--k", "25e-1"}
                                                        << "option --k: '25e-1' is not a whole number";
        // As a double this is 2: the text, not its nearest double, says whether it is whole.
        QTest::newRow("k a hair above a whole number") << QStringList{"run", "--demo", "blobs", "--k", "2.0000000000000001"}
                                                       << "option --k: '2.0000000000000001' is not a whole number";
        // A path option followed by another option: refused, not a file named --centroids-out.
        QTest::newRow("an option where a value goes") << QStringList{"run", "--demo", "blobs", "--labels-out", "--centroids-out", "c.csv"}
                                                      << "option --labels-out needs a value, but the option --centroids-out follows it";
        QTest::newRow("an option where a run id's value goes") << QStringList{"runs", "verify", "--report", "--db", "x.sqlite"}
                                                               << "option --report needs a value, but the option --db follows it";
        QTest::newRow("a shape's last option without its value") << QStringList{"whatif", "--shape", "100x3", "--topologies", "model:h200", "--json"}
                                                                  << "option --json needs a value";
        QTest::newRow("a feed URL Qt cannot read") << QStringList{"live", "--feed", "tcp://127.0.0.1:99999", "--no-record"}
                                                   << "feed URL: Invalid port or port number out of range; source was \"tcp://127.0.0.1:99999\"";
        QTest::newRow("negative seed") << QStringList{"run", "--demo", "blobs", "--seed", "-1"} << "option --seed: '-1' must not be negative";
        QTest::newRow("k > rows") << QStringList{"run", "--demo", "blobs:n=50", "--k", "60"} << "k must not exceed the number of rows (k=60, rows=50)";
        QTest::newRow("bad mode") << QStringList{"run", "--demo", "blobs", "--mode", "turbo"} << "'turbo' is not one of fast, exact";
        QTest::newRow("bad demo") << QStringList{"run", "--demo", "stars"} << "stars";
        QTest::newRow("bad topology") << QStringList{"run", "--demo", "blobs", "--topology", "shards:0"} << "'0' is not a number from 1 to";
        QTest::newRow("unknown command") << QStringList{"fly"} << "unknown command 'fly'";
        QTest::newRow("help of an unknown command") << QStringList{"fly", "--help"} << "unknown command 'fly'";
        QTest::newRow("precision on the host") << QStringList{"run", "--demo", "blobs", "--precision", "bf16"}
                                               << "precision bf16 applies to GPU topologies";
        QTest::newRow("window on a demo") << QStringList{"run", "--demo", "market", "--window", "10"} << "apply to --data";
        QTest::newRow("bar on a demo") << QStringList{"run", "--demo", "market", "--bar", "300"} << "apply to --data";
        QTest::newRow("infinite tol") << QStringList{"run", "--demo", "blobs", "--tol", "inf"} << "option --tol: must be a finite number >= 0";
        QTest::newRow("nan tol") << QStringList{"run", "--demo", "blobs", "--tol", "nan"} << "option --tol: must be a finite number >= 0";
        QTest::newRow("negative tol") << QStringList{"run", "--demo", "blobs", "--tol", "-1"} << "option --tol: must be a finite number >= 0";
        QTest::newRow("k with adaptgrow") << QStringList{"run", "--demo", "blobs", "--algo", "adaptgrow", "--k", "5"}
                                          << "--k applies to --algo kmeans";
        QTest::newRow("kmax with kmeans") << QStringList{"run", "--demo", "blobs", "--kmax", "5"} << "apply to --algo adaptgrow";
        QTest::newRow("too many threads") << QStringList{"run", "--demo", "blobs", "--threads", "5000"}
                                          << "threads must be between 1 and 1024";
        QTest::newRow("unwritable output") << QStringList{"run", "--demo", "blobs", "--labels-out", "/nonexistent/dir/l.txt"}
                                           << "--labels-out /nonexistent/dir/l.txt: the folder /nonexistent/dir does not exist";
        QTest::newRow("empty labels path") << QStringList{"run", "--demo", "blobs", "--labels-out", ""}
                                           << "option --labels-out needs a value, not an empty one";
        QTest::newRow("empty store path") << QStringList{"runs", "list", "--db", ""} << "option --db needs a value, not an empty one";
        QTest::newRow("labels to stdout") << QStringList{"run", "--demo", "blobs", "--labels-out", "-"}
                                          << "option --labels-out: '-' is not a file here";
        // Given twice, a later value would silently win.
        QTest::newRow("k twice") << QStringList{"run", "--demo", "blobs", "--k", "3", "--k", "4"} << "option --k is given twice; give it once";
        QTest::newRow("window twice, two ways") << QStringList{"run", "--data", "prices.csv", "--option", "window=3", "--window", "5"}
                                                << "option --window: the source option window is already 3; give it once";
        QTest::newRow("report out twice") << QStringList{"report", "abc", "--out", "a.html", "--out", "b.html"}
                                          << "option --out is given twice; give it once";
        // One reading of a count for every command.
        QTest::newRow("runs limit zero") << QStringList{"runs", "list", "--limit", "0"} << "option --limit: must be at least 1 (got 0)";
        QTest::newRow("live window not a number") << QStringList{"live", "--feed", "ws://127.0.0.1:1", "--window", "x1"}
                                                  << "option --window: 'x1' is not a valid number";
        QTest::newRow("whatif shape too large") << QStringList{"whatif", "--shape", "99999999999999x3", "--topologies", "model:h200"}
                                                << "option --shape (rows): '99999999999999' is too large (at most 1000000000000)";
        QTest::newRow("whatif shape not a shape") << QStringList{"whatif", "--shape", "1000", "--topologies", "model:h200"}
                                                  << "option --shape: '1000' is not ROWSxCOLS (e.g. 1000000x256)";
        QTest::newRow("live threads given twice") << QStringList{"live", "--feed", "ws://127.0.0.1:1", "--topology", "host@2", "--threads", "3"}
                                                  << "topology host@2 and --threads 3 give two thread counts; give one";
        QTest::newRow("live k twice") << QStringList{"live", "--feed", "ws://127.0.0.1:1", "--k", "3", "--k", "4"}
                                      << "option --k is given twice; give it once";
    }

    void usageErrorsExit2()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        const CliResult r = runCli(args);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(message), qPrintable(r.err));
        QVERIFY2(r.out.isEmpty(), "a refused run must not have run");
    }

    void wholeNumbersMayBeWrittenAsPowersOfTen()
    {
        // k = 10 on 4 blobs: two iterations cannot settle it.
        const CliResult r = runCli({"run", "--demo", "blobs:n=2000,d=3,k=4", "--k", "0.10e2", "--max-iter", "2.0e0", "--no-record", "--json", "-"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QJsonObject j = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QCOMPARE(j["k"].toInt(), 10);
        QCOMPARE(j["iterations"].toInt(), 2);
    }

    // No GPU here (or in CI): asking for one is an engine/device error with the reason.
    void cudaWithoutGpuExit4()
    {
        const CliResult r = runCli({"run", "--demo", "blobs:n=1000", "--topology", "cuda"});
        if (r.exitCode == 0) QSKIP("a CUDA device is usable on this machine");
        QCOMPARE(r.exitCode, 4);
        QVERIFY2(r.err.contains("no GPU is usable for 'cuda:0'"), qPrintable(r.err));
    }

    void jsonSummaryAndOutputs()
    {
        QTemporaryDir dir;
        const QString labels = dir.filePath("labels.txt");
        const QString centroids = dir.filePath("centroids.csv");
        const CliResult r = runCli({"run", "--demo", "blobs:n=4000,d=5,k=6,seed=3", "--k", "6", "--topology", "shards:2",
                                    "--json", "-", "--labels-out", labels, "--centroids-out", centroids});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QJsonObject j = QJsonDocument::fromJson(r.out.toUtf8()).object();
        for (const char* key : {"k", "iterations", "inertia", "converged", "mode", "backend", "topology", "seconds_total",
                                "ms_per_iteration", "phases_ms", "dataset", "ari", "history"})
            QVERIFY2(j.contains(key), key);
        QCOMPARE(j["k"].toInt(), 6);
        QCOMPARE(j["mode"].toString(), QString("fast"));
        QCOMPARE(j["backend"].toString(), QString("host"));
        QCOMPARE(j["topology"].toString(), QString("shards:2"));
        QCOMPARE(j["dataset"].toObject()["rows"].toInt(), 4000);
        QCOMPARE(j["dataset"].toObject()["cols"].toInt(), 5);
        QCOMPARE(j["dataset"].toObject()["hash"].toString().size(), 64);
        for (const char* phase : {"assign", "update", "reduce"}) QVERIFY(j["phases_ms"].toObject().contains(phase));
        QCOMPARE(j["history"].toArray().size(), j["iterations"].toInt());
        QVERIFY(j["ari"].toDouble() > 0.95);
        // Energy is measured or estimated on every machine, and says which.
        QVERIFY2(j["energy_j"].toDouble() > 0, qPrintable(r.out));
        QVERIFY(QStringList({"measured", "estimated", "mixed"}).contains(j["energy_source"].toString()));
        QVERIFY(j["points_per_joule"].toDouble() > 0);
        QVERIFY(!j["power_devices"].toArray().isEmpty());
        for (const QJsonValue& device : j["power_devices"].toArray()) {
            QVERIFY(!device.toObject()["label"].toString().isEmpty());
            QVERIFY(QStringList({"measured", "estimated"}).contains(device.toObject()["kind"].toString()));
        }

        QFile labelFile(labels);
        QVERIFY(labelFile.open(QIODevice::ReadOnly));
        QList<QByteArray> lines = labelFile.readAll().trimmed().split('\n');
        QCOMPARE(lines.takeFirst(), QByteArray("id,cluster"));
        QCOMPARE(lines.size(), 4000);
        for (int i = 0; i < lines.size(); ++i) {
            const QList<QByteArray> fields = lines[i].split(',');
            QCOMPARE(fields.size(), 2);
            QCOMPARE(fields[0].toInt(), i);  // blobs rows have no names: their row number
            QVERIFY(fields[1].toInt() >= 0 && fields[1].toInt() < 6);
        }
        QFile centroidFile(centroids);
        QVERIFY(centroidFile.open(QIODevice::ReadOnly));
        const QList<QByteArray> rows = centroidFile.readAll().trimmed().split('\n');
        QCOMPARE(rows.size(), 6);
        QCOMPARE(rows[0].split(',').size(), 5);

        // The centroids file is a valid starting point: one iteration from it converges at once.
        const CliResult again = runCli({"run", "--demo", "blobs:n=4000,d=5,k=6,seed=3", "--init-centroids", centroids,
                                        "--mode", "exact", "--json", "-"});
        QVERIFY2(again.exitCode == 0, qPrintable(again.err));
        const QJsonObject j2 = QJsonDocument::fromJson(again.out.toUtf8()).object();
        QVERIFY(j2["iterations"].toInt() <= 2);
        QVERIFY(std::abs(j2["inertia"].toDouble() - j["inertia"].toDouble()) <= 1e-5 * j["inertia"].toDouble());
    }

    void badInputExit3_data()
    {
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<QString>("suffix");
        QTest::addColumn<QStringList>("extra");
        QTest::addColumn<QString>("where");    // ":LINE" expected right after the path
        QTest::addColumn<QString>("message");  // part of the explanation

        const QStringList none;
        QTest::newRow("ragged row") << QByteArray("1,2,3\n4,5,6\n7,8\n") << ".csv" << none << ":3:" << "";
        QTest::newRow("non-numeric cell") << QByteArray("1,2\n3,abc\n") << ".csv" << none << ":2:3" << "abc";
        QTest::newRow("NaN") << QByteArray("1,2\n3,4\nnan,6\n") << ".csv" << none << ":3:1" << "";
        QTest::newRow("Inf") << QByteArray("1,2\n3,inf\n") << ".csv" << none << ":2:3" << "";
        QTest::newRow("empty file") << QByteArray() << ".csv" << none << "" << "empty";
        QTest::newRow("header only") << QByteArray("a,b,c\n") << ".csv" << none << "" << "";
        QTest::newRow("ticks missing price column") << QByteArray("timestamp,symbol,size\n2024-01-02T09:30:00,AAA,10\n") << ".csv"
                                                    << QStringList{"--layout", "ticks"} << ":1" << "price";
        QTest::newRow("duplicate asset") << QByteArray("date,AAA,BBB,AAA\n2024-01-01,1,2,3\n2024-01-02,1,2,3\n") << ".csv" << none
                                         << ":1:" << "AAA";
        QTest::newRow("non-positive price") << QByteArray("date,AAA,BBB\n2024-01-01,1,2\n2024-01-02,-1,2\n2024-01-03,1,2\n") << ".csv"
                                            << none << ":3:" << "";
        QTest::newRow("subnormal price") << QByteArray("date,AAA,BBB\n2024-01-01,1,2\n2024-01-02,1e-310,2\n2024-01-03,1,2\n")
                                         << ".csv" << none << ":3:12" << "price too small";
        QTest::newRow("log return beyond double range")
            << QByteArray("date,AAA,BBB\n2024-01-01,1e300,2\n2024-01-02,1e-300,2.1\n2024-01-03,1,2.2\n") << ".csv" << none
            << ":3:12" << "the log return of 'AAA' at 2024-01-02 is not finite";
        QTest::newRow("non-UTF-8") << QByteArray("1,2\n3,\xff\xfe\n") << ".csv" << none << ":2:" << "UTF-8";
        QTest::newRow("gigantic line") << QByteArray(2 * 1024 * 1024, '1') << ".csv" << none << ":1" << "";
        QTest::newRow("values overflow float32 distances") << QByteArray("1e20,2\n3,4\n5,6\n-1e20,3\n") << ".csv" << none << ":1:1"
                                                           << "overflow float32 squared distances";
        QTest::newRow("npy bad magic") << QByteArray("NOTNUMPY....") << ".npy" << QStringList{"--layout", "matrix"} << ":1:" << "";
        QTest::newRow("npy truncated") << npy("{'descr': '<f4', 'fortran_order': False, 'shape': (100, 4), }", floats(40)) << ".npy"
                                       << none << ":1:" << "";
        QTest::newRow("npy lying header") << npy("{'descr': '<f4', 'fortran_order': False, 'shape': (10, 4), }", floats(50)) << ".npy"
                                          << none << ":1:" << "";
        QTest::newRow("npy huge shape") << npy("{'descr': '<f4', 'fortran_order': False, 'shape': (1000000000000000, 4), }", floats(8))
                                        << ".npy" << none << ":1:" << "";
        QTest::newRow("npy wrong dtype") << npy("{'descr': '<c8', 'fortran_order': False, 'shape': (2, 2), }", floats(4)) << ".npy"
                                         << none << ":1:" << "<c8";
    }

    void badInputExit3()
    {
        QFETCH(QByteArray, content);
        QFETCH(QString, suffix);
        QFETCH(QStringList, extra);
        QFETCH(QString, where);
        QFETCH(QString, message);
        QTemporaryDir dir;
        const QString path = dir.filePath("input" + suffix);
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(content);
        file.close();
        const CliResult r = runCli(QStringList{"run", "--data", path, "--k", "2"} + extra);
        QVERIFY2(r.exitCode == 3, qPrintable(QString("exit %1: %2").arg(r.exitCode).arg(r.err)));
        QVERIFY2(r.err.contains(path + where), qPrintable(r.err));
        QVERIFY2(r.err.contains(message), qPrintable(r.err));
        QVERIFY2(r.err.size() < 1000, "the message must stay readable");
    }

    // Ctrl-C: the run stops after the iteration in progress, prints its summary marked
    // cancelled, and exits 130; the partial answer does not replace an earlier output.
    void interruptCancelsTheRun()
    {
        CLUSTERDESK_REQUIRE_TEST_HOOKS();
        const clusterdesk::testhooks::EndlessRuns endless;  // running when the signal comes, on any machine
        QTemporaryDir dir;
        const QString labels = dir.filePath("labels.txt");
        {
            QFile previous(labels);
            QVERIFY(previous.open(QIODevice::WriteOnly));
            previous.write("labels of an earlier run\n");
        }
        QProcess process;
        process.start(QStringLiteral(CLUSTERDESK_BIN_DIR "/clusterdesk-cli"),
                      {"run", "--demo", "blobs:n=400000,d=32,k=128", "--k", "128", "--mode", "exact", "--verbose", "--labels-out", labels});
        QVERIFY(process.waitForStarted());
        QString log;
        QTRY_VERIFY_WITH_TIMEOUT((log += QString::fromUtf8(process.readAllStandardError())).contains("iter    2"), 120000);
        ::kill(static_cast<pid_t>(process.processId()), SIGINT);
        QVERIFY(process.waitForFinished(60000));
        QCOMPARE(process.exitStatus(), QProcess::NormalExit);
        QCOMPARE(process.exitCode(), 130);
        QVERIFY(QString::fromUtf8(process.readAllStandardOutput()).contains("cancelled"));
        QVERIFY(QString::fromUtf8(process.readAllStandardError()).contains("were not written"));
        QFile kept(labels);
        QVERIFY(kept.open(QIODevice::ReadOnly));
        QCOMPARE(kept.readAll(), QByteArray("labels of an earlier run\n"));
    }

    void emptyClustersAreSaid()
    {
        // A hundred copies of one point: however k-means reseeds, four of five clusters stay empty.
        QTemporaryDir dir;
        const QString csv = dir.filePath("constant.csv");
        QFile file(csv);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("x,y\n" + QByteArray("1,2\n").repeated(100));
        file.close();
        const CliResult r = runCli({"run", "--data", csv, "--k", "5", "--no-record"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("warning   4 of the 5 clusters hold no rows"), qPrintable(r.out));
        const CliResult structured = runCli({"run", "--demo", "blobs:n=1000,d=2,k=3", "--k", "3", "--no-record"});
        QVERIFY2(structured.exitCode == 0 && !structured.out.contains("warning"), qPrintable(structured.out));
        // Time and energy in the units the window and reports use (a small run is not "0.00758 J");
        // the work per joule says it counts every row of every iteration.
        const QRegularExpression units("\ntime      [0-9.]+ (µs|ms|s) total, .*\nenergy    (0 J|[0-9.]+ mJ|[1-9][0-9.]* J|[0-9.]+ kJ) "
                                       "\\((measured|estimated|mixed)\\) on [^\n]*, [0-9.e+]+ point-iterations/J\n");
        QVERIFY2(units.match(structured.out).hasMatch(), qPrintable(structured.out));
    }

    // The phases and what none of them counts (AdaptGrow's tests, here) add up to the total.
    void timeByPhaseAddsUp()
    {
        const CliResult r = runCli({"run", "--demo", "market:assets=40,sectors=4,days=250", "--algo", "adaptgrow", "--no-record"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QRegularExpression line("\ntime      ([0-9.]+) (µs|ms|s) total, [0-9.]+ ms/iteration \\(init ([0-9.]+), assign ([0-9.]+), "
                                      "update ([0-9.]+), reduce ([0-9.]+), other ([0-9.]+) ms in all\\)\n");
        const QRegularExpressionMatch m = line.match(r.out);
        QVERIFY2(m.hasMatch(), qPrintable(r.out));
        const double scale = m.captured(2) == "s" ? 1e3 : m.captured(2) == "ms" ? 1 : 1e-3;
        const double totalMs = m.captured(1).toDouble() * scale;
        double partsMs = 0;
        for (int part = 3; part <= 7; ++part) partsMs += m.captured(part).toDouble();
        // The total is printed to 4 digits, each part to 0.1 ms.
        QVERIFY2(std::abs(partsMs - totalMs) <= 0.005 * totalMs + 0.3, qPrintable(r.out));
    }

    void missingFileExit3()
    {
        const CliResult r = runCli({"run", "--data", "/nonexistent/prices.csv"});
        QCOMPARE(r.exitCode, 3);
        QVERIFY2(r.err.contains("/nonexistent/prices.csv"), qPrintable(r.err));
    }

    // --window and --bar on a file whose (sniffed) layout has no use for them: exit 2,
    // naming the option, and nothing run or recorded.
    void optionsThatDoNotApplyExit2_data()
    {
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<QStringList>("extra");
        QTest::addColumn<QString>("message");
        const QByteArray matrix("1,2\n3,4\n5,6\n");
        const QByteArray prices("date,A,B\n2024-01-01,1,2\n2024-01-02,1.1,2.2\n2024-01-03,1.2,2.1\n");
        QTest::newRow("window on a matrix") << matrix << QStringList{"--window", "2"} << "--window 2) applies to prices and ticks files";
        QTest::newRow("bar on a matrix") << matrix << QStringList{"--bar", "300"} << "--bar 300) applies to ticks files";
        QTest::newRow("bar on prices") << prices << QStringList{"--bar", "300"} << "holds a prices table";
        QTest::newRow("default bar, asked for, on a matrix") << matrix << QStringList{"--bar", "60"} << "--bar 60) applies to ticks files";
    }

    void optionsThatDoNotApplyExit2()
    {
        QFETCH(QByteArray, content);
        QFETCH(QStringList, extra);
        QFETCH(QString, message);
        QTemporaryDir dir;
        QFile file(dir.filePath("input.csv"));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(content);
        file.close();
        const CliResult r = runCli(QStringList{"run", "--data", file.fileName(), "--k", "2", "--db", dir.filePath("runs.sqlite")} + extra);
        QVERIFY2(r.exitCode == 2, qPrintable(QString("exit %1: %2").arg(r.exitCode).arg(r.err)));
        QVERIFY2(r.err.contains(message) && r.err.contains(file.fileName()), qPrintable(r.err));
        QVERIFY2(r.out.isEmpty(), "a refused run must not have run");
    }

    void windowZeroMeansEveryReturn()
    {
        // As the sources' window=0 and the window's "all returns": the same data as no --window.
        QTemporaryDir dir;
        QFile file(dir.filePath("prices.csv"));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("date,A,B,C\n2024-01-01,1,2,3\n2024-01-02,1.1,2.2,2.9\n2024-01-03,1.2,2.1,3.1\n2024-01-04,1.1,2.3,3.0\n");
        file.close();
        const QStringList job{"run", "--data", file.fileName(), "--k", "2", "--no-record"};
        const CliResult all = runCli(job + QStringList{"--window", "0"});
        const CliResult plain = runCli(job);
        QVERIFY2(all.exitCode == 0, qPrintable(all.err));
        QVERIFY2(all.out.contains("3 assets x 3 log returns"), qPrintable(all.out));
        QCOMPARE(all.out.section('\n', 0, 0), plain.out.section('\n', 0, 0));  // the same dataset line, hash included
        const CliResult negative = runCli(job + QStringList{"--window", "-2"});
        QCOMPARE(negative.exitCode, 2);
        QVERIFY2(negative.err.contains("or 0 for all of them"), qPrintable(negative.err));
    }

    // A FIFO blocks in open() until a writer comes and /dev/zero never ends: as data,
    // hostfile, initial centroids, a feed's token, a hardware catalog or the store's
    // chain key each is refused at once, naming the path and what it is. runCli's
    // timeout turns a hang into a failure instead of a stuck suite.
    void nonRegularInputsAreRefused_data()
    {
        QTest::addColumn<QString>("option");  // where the special file goes
        QTest::addColumn<bool>("fifo");       // a FIFO, else /dev/zero
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("kind");
        QTest::newRow("FIFO as data") << "--data" << true << 3 << "(a FIFO)";
        QTest::newRow("/dev/zero as matrix data") << "--data" << false << 3 << "(a character device)";
        QTest::newRow("FIFO as hostfile") << "--topology" << true << 2 << "(a FIFO)";
        QTest::newRow("/dev/zero as hostfile") << "--topology" << false << 2 << "(a character device)";
        QTest::newRow("FIFO as initial centroids") << "--init-centroids" << true << 3 << "(a FIFO)";
        QTest::newRow("/dev/zero as initial centroids") << "--init-centroids" << false << 3 << "(a character device)";
        QTest::newRow("FIFO as a feed's token") << "--token-file" << true << 2 << "(a FIFO)";
        QTest::newRow("FIFO as the hardware catalog") << "--catalog" << true << 3 << "(a FIFO)";
        QTest::newRow("FIFO as the chain key") << "CLUSTERDESK_CHAIN_KEY" << true << 4 << "(a FIFO)";
        QTest::newRow("/dev/zero as the chain key") << "CLUSTERDESK_CHAIN_KEY" << false << 4 << "(a character device)";
    }

    void nonRegularInputsAreRefused()
    {
        QFETCH(QString, option);
        QFETCH(bool, fifo);
        QFETCH(int, exitCode);
        QFETCH(QString, kind);
        QTemporaryDir dir;
        QString path = "/dev/zero";
        if (fifo) {
            path = dir.filePath("pipe");
            QCOMPARE(::mkfifo(QFile::encodeName(path).constData(), 0600), 0);
        }
        QStringList args{"run"};
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        if (option == "--data")
            args << "--data" << path << "--layout" << "matrix";
        else if (option == "--topology")
            args << "--demo" << "blobs:n=100,d=2,k=2" << "--topology" << "pool:" + path;
        else if (option == "--init-centroids")
            args << "--demo" << "blobs:n=100,d=2,k=2" << "--init-centroids" << path;
        else if (option == "--token-file")
            args = QStringList{"live", "--feed", "tcp://127.0.0.1:1", "--no-record", "--token-file", path};
        else if (option == "--catalog")
            args = QStringList{"whatif", "--shape", "10x3", "--k", "2", "--topologies", "model:h200", "--catalog", path};
        else {
            env.insert(option, path);
            args << "--demo" << "blobs:n=100,d=2,k=2" << "--db" << dir.filePath("runs.sqlite");
        }
        const CliResult r = runCliIn(env, args, 60000);
        QVERIFY2(r.exitCode == exitCode, qPrintable(QString("exit %1: %2").arg(r.exitCode).arg(r.err)));
        QVERIFY2(r.err.contains(path + ": is not a regular file " + kind), qPrintable(r.err));
        QVERIFY2(r.out.isEmpty(), "a refused run must not have run");
    }

    void badInitialCentroidsExit3()
    {
        QTemporaryDir dir;
        QFile file(dir.filePath("init.csv"));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("1,2,3\n4,5,6\n");
        file.close();
        const CliResult r = runCli({"run", "--demo", "blobs:n=100,d=4", "--init-centroids", file.fileName()});
        QCOMPARE(r.exitCode, 3);
        QVERIFY2(r.err.contains(file.fileName()) && r.err.contains("3 columns but the data has 4"), qPrintable(r.err));
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "test_cli.moc"
