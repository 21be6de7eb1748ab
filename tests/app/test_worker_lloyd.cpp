// clusterdesk-worker --lloyd: a fixed-work k-means for benchmarks on machines without a
// run store. It must be the engine's run that clusterdesk-cli makes of the same data,
// initial centroids and iteration limit (tolerance 0), and refuse mismatched input.
#include "cli_runner.h"
#include "data_files.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

class TestWorkerLloyd : public QObject {
    Q_OBJECT

    static CliResult runWorker(const QStringList& args)
    {
        QProcess process;
        process.start(QStringLiteral(CLUSTERDESK_BIN_DIR "/clusterdesk-worker"), QStringList{"--lloyd"} + args);
        CliResult result;
        if (!process.waitForFinished(120000)) {
            process.kill();
            process.waitForFinished();
            result.err = "clusterdesk-worker did not finish in time";
            return result;
        }
        result.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
        result.out = QString::fromUtf8(process.readAllStandardOutput());
        result.err = QString::fromUtf8(process.readAllStandardError());
        return result;
    }

    static QJsonObject summary(const QString& out) { return QJsonDocument::fromJson(out.toUtf8()).object(); }

    QString path(const char* name) const { return m_dir.filePath(name); }

    QTemporaryDir m_dir;

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        // Overlapping groups, so that 6 iterations do not reach a fixed point.
        clusterdesk::test::writeNpy(path("x.npy").toStdString(), 4000, 6, 12, 5);
        clusterdesk::test::writeMatrixCsv(path("init.csv").toStdString(), 9, 6, 3, 8);
    }

    void isTheCliRunOfTheSameJob_data()
    {
        QTest::addColumn<QString>("mode");
        QTest::newRow("fast") << "fast";
        QTest::newRow("exact") << "exact";
    }

    void isTheCliRunOfTheSameJob()
    {
        QFETCH(QString, mode);
        const CliResult worker = runWorker({"--data", path("x.npy"), "--init", path("init.csv"), "--iterations", "6",
                                            "--topology", "host", "--mode", mode});
        QVERIFY2(worker.exitCode == 0, qPrintable(worker.err));
        QVERIFY2(!summary(worker.out).isEmpty(), qPrintable("not one JSON object: " + worker.out));
        const QJsonObject w = summary(worker.out);
        QCOMPARE(w["iterations"].toInt(), 6);
        QCOMPARE(w["history"].toArray().size(), 6);
        QCOMPARE(w["k"].toInt(), 9);
        QCOMPARE(w["backend"].toString(), QString("host"));
        QVERIFY2(w["energy_j"].toDouble() > 0, "the run's energy was not sampled");

        const CliResult cli = runCli({"run", "--data", path("x.npy"), "--init-centroids", path("init.csv"), "--k", "9",
                                      "--max-iter", "6", "--tol", "0", "--topology", "host", "--mode", mode,
                                      "--no-record", "--json", "-"});
        QVERIFY2(cli.exitCode == 0, qPrintable(cli.err));
        const QJsonObject c = summary(cli.out);
        QCOMPARE(w["iterations"].toInt(), c["iterations"].toInt());
        QCOMPARE(w["inertia"].toDouble(), c["inertia"].toDouble());
        QCOMPARE(w["sizes"].toArray(), c["sizes"].toArray());
    }

    void refusesCentroidsOfAnotherWidth()
    {
        clusterdesk::test::writeMatrixCsv(path("narrow.csv").toStdString(), 4, 5, 2, 9);
        const CliResult r = runWorker({"--data", path("x.npy"), "--init", path("narrow.csv")});
        QCOMPARE(r.exitCode, 4);
        QVERIFY2(r.err.contains(path("narrow.csv")) && r.err.contains("5 columns"), qPrintable(r.err));
    }

    void refusesAMissingValue()
    {
        const CliResult r = runWorker({"--data", path("x.npy"), "--init", path("init.csv"), "--iterations"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("--iterations needs a value"), qPrintable(r.err));
    }
};

QTEST_GUILESS_MAIN(TestWorkerLloyd)
#include "test_worker_lloyd.moc"
