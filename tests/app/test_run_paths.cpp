// One run path for every front end: the same job started from clusterdesk-cli run,
// from the window, from the headless main job (clusterdesk without a display) and by
// runs rerun goes through session::RunSession, so the store holds the same parameter
// and data-source records for each, and (exact mode) the same labels. For a demo and
// for a prices file loaded with a return window.
#include "cli_runner.h"
#include "data_files.h"
#include "gui_test_support.h"

#include "engine/store/run_store.h"
#include "ui/panels/data_panel.h"

#include <QProcess>
#include <QRegularExpression>

using namespace clusterdesk;

namespace {

const QString kDemo = "blobs:n=2000,d=4,k=5,seed=21";
// The window's default job (gui::defaultParams) spelled for the CLI.
const QStringList kDefaultJob{"--algo", "adaptgrow", "--k0", "2", "--kmax", "64", "--mode", "exact"};

// The run id a front end printed ("recorded  run ID in STORE").
QString recordedId(const QString& out)
{
    const auto match = QRegularExpression("recorded\\s+run ([0-9a-f-]{36})").match(out);
    return match.hasMatch() ? match.captured(1) : QString();
}

}  // namespace

class TestRunPaths : public QObject {
    Q_OBJECT

    store::RunRecord record(const QString& id)
    {
        store::RunStore runs(m_db.toStdString(), store::StoreAccess::ReadOnly);
        return runs.loadRun(id.toStdString());
    }

    // The run the window just recorded: the newest one no other front end made.
    QString windowRun(const QStringList& known)
    {
        store::RunStore runs(m_db.toStdString(), store::StoreAccess::ReadOnly);
        for (const store::RunInfo& info : runs.listRuns())
            if (!known.contains(QString::fromStdString(info.id))) return QString::fromStdString(info.id);
        return {};
    }

    // Every record holds what the first does: parameters, data source, data, topology,
    // labels. Not the thread count: the window leaves a core to itself by default.
    void expectSameRecords(const QStringList& ids)
    {
        const store::RunRecord first = record(ids.front());
        QVERIFY(first.info.status == store::RunStatus::Ok);
        QVERIFY(!first.labels.empty());
        for (const QString& id : ids) {
            const store::RunRecord r = record(id);
            QVERIFY(r.info.status == store::RunStatus::Ok);
            QCOMPARE(r.info.paramsJson, first.info.paramsJson);
            QVERIFY2(r.info.dataSource == first.info.dataSource,
                     qPrintable(QString::fromStdString(sourceSpecToJson(r.info.dataSource) + " vs " + sourceSpecToJson(first.info.dataSource))));
            QCOMPARE(r.info.datasetHash, first.info.datasetHash);
            QCOMPARE(r.info.topology, first.info.topology);
            QVERIFY2(r.labels == first.labels, qPrintable("run " + id + " labelled differently"));
        }
    }

    QTemporaryDir m_settings, m_dir;
    QString m_db;
    std::unique_ptr<gui::Workstation> m_station;

private slots:
    void initTestCase()
    {
        gui::test::isolateSettings(m_settings);
        QVERIFY(m_dir.isValid());
        m_db = m_dir.filePath("runs.sqlite");
        m_station = std::make_unique<gui::Workstation>(m_db);
        m_station->window().show();
    }

    void demoFromEveryFrontEnd()
    {
        const CliResult cli = runCli(QStringList{"run", "--demo", kDemo, "--db", m_db} + kDefaultJob);
        QVERIFY2(cli.exitCode == 0, qPrintable(cli.err));
        const QString cliRun = recordedId(cli.out);
        QVERIFY2(!cliRun.isEmpty(), qPrintable(cli.out));

        QProcess headless;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.remove("DISPLAY");
        env.remove("WAYLAND_DISPLAY");
        env.insert("QT_QPA_PLATFORM", "offscreen");
        headless.setProcessEnvironment(env);
        headless.start(QStringLiteral(CLUSTERDESK_BIN_DIR "/clusterdesk"), {"--demo", kDemo, "--db", m_db});
        QVERIFY(headless.waitForFinished(120000));
        const QString headlessOut = QString::fromUtf8(headless.readAllStandardOutput());
        QVERIFY2(headless.exitCode() == 0, qPrintable(headless.readAllStandardError()));
        const QString headlessRun = recordedId(headlessOut);
        QVERIFY2(!headlessRun.isEmpty(), qPrintable(headlessOut));

        const CliResult rerun = runCli({"runs", "rerun", cliRun, "--db", m_db});
        QVERIFY2(rerun.exitCode == 0, qPrintable(rerun.out + rerun.err));
        const QString rerunRun = recordedId(rerun.out);
        QVERIFY2(!rerunRun.isEmpty(), qPrintable(rerun.out));

        QVERIFY(gui::test::loadDemo(*m_station, kDemo));
        const auto outcome = gui::test::runToEnd(*m_station);
        QVERIFY(outcome && outcome->error.isEmpty());
        const QString windowRunId = windowRun({cliRun, headlessRun, rerunRun});
        QVERIFY(!windowRunId.isEmpty());

        expectSameRecords({cliRun, headlessRun, rerunRun, windowRunId});
        QCOMPARE(QString::fromStdString(record(cliRun).info.dataSource.source), QString("demo"));
    }

    void pricesFileFromEveryFrontEnd()
    {
        const QString prices = m_dir.filePath("prices.csv");
        clusterdesk::test::writePricesCsv(prices.toStdString(), 30, 3, 260, 5);
        const CliResult cli = runCli(QStringList{"run", "--data", prices, "--window", "120", "--db", m_db} + kDefaultJob);
        QVERIFY2(cli.exitCode == 0, qPrintable(cli.err));
        const QString cliRun = recordedId(cli.out);

        QSignalSpy ready(m_station.get(), &gui::Workstation::datasetReady);
        emit m_station->window().dataPanel().loadRequested(prices, 120);
        QVERIFY(ready.wait(60000));
        QStringList known{cliRun};
        store::RunStore before(m_db.toStdString(), store::StoreAccess::ReadOnly);
        for (const store::RunInfo& info : before.listRuns()) known << QString::fromStdString(info.id);
        const auto outcome = gui::test::runToEnd(*m_station);
        QVERIFY(outcome && outcome->error.isEmpty());
        const QString windowRunId = windowRun(known);
        QVERIFY(!windowRunId.isEmpty());

        // The window's run re-run from the CLI reopens the file exactly as the window did.
        const CliResult rerun = runCli({"runs", "rerun", windowRunId, "--db", m_db});
        QVERIFY2(rerun.exitCode == 0, qPrintable(rerun.out + rerun.err));

        expectSameRecords({cliRun, windowRunId, recordedId(rerun.out)});
        const SourceSpec source = record(cliRun).info.dataSource;
        QCOMPARE(QString::fromStdString(source.source), QString("prices"));
        QCOMPARE(QString::fromStdString(source.options.at("window")), QString("120"));
    }

    void cleanupTestCase() { m_station.reset(); }
};

QTEST_MAIN(TestRunPaths)
#include "test_run_paths.moc"
