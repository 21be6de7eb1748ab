// The Topology panel driven like a user would (offscreen): the local GPU section when
// there is no GPU, the node-pool editor (settings, hostfile), and real pool runs from
// the window through mpirun and clusterdesk-worker: graphed like local runs with each
// rank's reduce time, cancelled with no rank left behind, a rank that dies reported
// with the window still usable, and the connection test answering for every rank.
#include "gui_test_support.h"

#include "engine/exec/topology.h"
#include "kernels/backend_registry.h"
#include "ui/error_banner.h"
#include "ui/panels/engine_panel.h"
#include "ui/panels/pool_editor.h"
#include "ui/panels/topology_panel.h"
#include "ui/plots/evolution_plot.h"
#include "ui/plots/latency_plot.h"
#include "ui/run_status.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QRadioButton>
#include <QSpinBox>
#include <QStandardPaths>
#include <QUuid>

#include <signal.h>
#include <optional>

using namespace clusterdesk;
using namespace clusterdesk::gui;

namespace {

const QString kWorker = QStringLiteral(CLUSTERDESK_BIN_DIR "/clusterdesk-worker");

// Processes other than this one whose environment carries `token`: mpirun and the
// ranks this test started, not those of another test running on the machine.
// Zombies have no environment left.
int processesWith(const QByteArray& token)
{
    int count = 0;
    for (const QString& pid : QDir("/proc").entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        bool numeric = false;
        if (pid.toLongLong(&numeric) == QCoreApplication::applicationPid() || !numeric) continue;
        QFile environ("/proc/" + pid + "/environ");
        if (environ.open(QIODevice::ReadOnly) && environ.readAll().contains(token)) ++count;
    }
    return count;
}

// The first process other than this one whose environment holds both strings; 0: none.
qint64 pidWith(const QByteArray& token, const QByteArray& also)
{
    for (const QString& pid : QDir("/proc").entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        bool numeric = false;
        const qint64 id = pid.toLongLong(&numeric);
        if (!numeric || id == QCoreApplication::applicationPid()) continue;
        QFile environ("/proc/" + pid + "/environ");
        if (!environ.open(QIODevice::ReadOnly)) continue;
        const QByteArray env = environ.readAll();
        if (env.contains(token) && env.contains(also)) return id;
    }
    return 0;
}

}  // namespace

class TestGuiTopology : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        test::isolateSettings(m_settings);
        // Inherited by mpirun and every rank it starts: how /proc tells ours apart.
        m_token = "CLUSTERDESK_GUI_TOPOLOGY_TEST=" + QUuid::createUuid().toByteArray(QUuid::WithoutBraces);
        const int eq = m_token.indexOf('=');
        qputenv(m_token.left(eq).constData(), m_token.mid(eq + 1));
    }

    void gpuSectionSaysWhyWhenThereIsNoGpu()
    {
        Workstation station;
        station.window().show();
        ui::TopologyPanel& panel = station.window().topologyPanel();
        auto* reason = panel.findChild<QLabel*>("gpuReason");
        auto* onGpus = panel.findChild<QRadioButton*>("runOnGpus");
        auto* list = panel.findChild<QListWidget*>("gpuList");
        QVERIFY(reason && onGpus && list);
        // Detection runs off the UI thread; wait for its answer.
        QTRY_VERIFY_WITH_TIMEOUT(!reason->text().contains("not detected yet"), 30000);
        const kernels::CudaAvailability cuda = kernels::cudaAvailability();
        if (cuda.deviceCount > 0) {
            QCOMPARE(list->count(), cuda.deviceCount);
            QVERIFY(onGpus->isEnabled());
            QCOMPARE(list->item(0)->checkState(), Qt::Checked);
            QSKIP("this machine has GPUs: the no-GPU state is checked on machines without one (CI)");
        }
        QVERIFY(!onGpus->isEnabled());
        QVERIFY(!list->isEnabled());
        QVERIFY(reason->isVisibleTo(&panel));
        QVERIFY2(reason->text().startsWith("No GPU usable: ") && reason->text().size() > 15, qPrintable(reason->text()));
        QVERIFY(reason->text().contains(QString::fromStdString(cuda.reason)));
        QCOMPARE(panel.writeTopology(), QString("host"));
    }

    void checkedGpusMakeTheTopology()
    {
        // What detection reports on a 3-GPU machine (no run starts here).
        ui::TopologyPanel panel;
        panel.setGpus({"cuda:0  GPU A, 80 GiB", "cuda:1  GPU B, 80 GiB", "cuda:2  GPU C, 80 GiB"}, {});
        auto* onGpus = panel.findChild<QRadioButton*>("runOnGpus");
        auto* list = panel.findChild<QListWidget*>("gpuList");
        QVERIFY(onGpus->isEnabled() && list->isEnabled());
        QVERIFY(!panel.findChild<QLabel*>("gpuReason")->isVisibleTo(&panel));
        onGpus->setChecked(true);
        QVERIFY(!panel.findChild<QRadioButton*>("runOnHost")->isChecked());  // one choice at a time
        QCOMPARE(panel.writeTopology(), QString("cuda:0,1,2"));
        list->item(1)->setCheckState(Qt::Unchecked);
        QCOMPARE(panel.writeTopology(), QString("cuda:0,2"));
        list->item(0)->setCheckState(Qt::Unchecked);
        list->item(2)->setCheckState(Qt::Unchecked);
        QString error;
        QVERIFY(panel.writeTopology(&error).isEmpty());
        QVERIFY2(error.contains("at least one GPU"), qPrintable(error));
        // The GPUs go away (another detection): back to the host, with the reason.
        panel.setGpus({}, "the CUDA driver is not loaded");
        QCOMPARE(panel.writeTopology(&error), QString("host"));
        QVERIFY(error.isEmpty());
        QCOMPARE(panel.findChild<QLabel*>("gpuReason")->text(), QString("No GPU usable: the CUDA driver is not loaded"));
    }

    void precisionAppliesOnlyOnGpus()
    {
        // The run computes in FP32 off GPUs whatever the field says, so there the field
        // is disabled rather than silently ignored.
        Workstation station;
        ui::TopologyPanel& topology = station.window().topologyPanel();
        auto* precision = station.window().enginePanel().findChild<QComboBox*>("precision");
        auto* mode = station.window().enginePanel().findChild<QComboBox*>("mode");
        QVERIFY(precision && mode);
        topology.findChild<QRadioButton*>("runOnHost")->setChecked(true);
        mode->setCurrentIndex(0);  // fast
        QVERIFY(!topology.onGpus());
        QVERIFY(!precision->isEnabled());

        topology.setGpus({"cuda:0  GPU A, 80 GiB"}, {});
        topology.findChild<QRadioButton*>("runOnGpus")->setChecked(true);
        QVERIFY(precision->isEnabled());
        mode->setCurrentIndex(1);  // exact: its own arithmetic on every device
        QVERIFY(!precision->isEnabled());
        mode->setCurrentIndex(0);

        // A pool: on GPUs only when its ranks use them.
        topology.poolEditor().setGpuRanks(false);
        topology.findChild<QRadioButton*>("runOnPool")->setChecked(true);
        QVERIFY(!precision->isEnabled());
        topology.poolEditor().setGpuRanks(true);
        QVERIFY(precision->isEnabled());
        topology.poolEditor().setGpuRanks(false);
        QVERIFY(!precision->isEnabled());
        topology.findChild<QRadioButton*>("runOnHost")->setChecked(true);
    }

    void poolEditorKeepsItsSettingsAndWritesTheHostfile()
    {
        QTemporaryDir dir;
        {
            ui::PoolEditor editor;
            editor.setHostfilePath(dir.filePath("pool.hostfile"));
            editor.setHosts({{"node-a", "2", "1"}, {"node-b.example", "", "0"}});
            editor.setUseHosts(true);
            editor.setLauncher("/opt/ompi/bin/mpirun", "--mca btl \"self,tcp\"");
            editor.setWorker("/opt/clusterdesk/bin/clusterdesk-worker");
            QString error;
            const QString spec = editor.writeTopology(error);
            QVERIFY2(error.isEmpty(), qPrintable(error));
            QCOMPARE(spec, "pool:" + dir.filePath("pool.hostfile"));
            QFile file(dir.filePath("pool.hostfile"));
            QVERIFY(file.open(QIODevice::ReadOnly));
            const QString text = QString::fromUtf8(file.readAll());
            QVERIFY2(text.contains("\nnode-a slots=2  # gpus=1\n") && text.contains("\nnode-b.example slots=1  # gpus=0\n"),
                     qPrintable(text));
        }
        // A new editor (the next session) reads the same settings back.
        ui::PoolEditor editor;
        editor.setHostfilePath(dir.filePath("again.hostfile"));
        QString error;
        QCOMPARE(editor.writeTopology(error), "pool:" + dir.filePath("again.hostfile"));
        const PoolOptions options = editor.options();
        QCOMPARE(options.launcher, std::string("/opt/ompi/bin/mpirun"));
        QCOMPARE(options.extraArgs, (std::vector<std::string>{"--mca", "btl", "self,tcp"}));
        QCOMPARE(options.workerPath, std::string("/opt/clusterdesk/bin/clusterdesk-worker"));
        QCOMPARE(editor.findChild<QLineEdit*>("poolExtraArgs")->text(), QString("--mca btl \"self,tcp\""));

        // GPU ranks: the same pool, every rank on a GPU of its node; the choice is kept too.
        editor.setGpuRanks(true);
        QCOMPARE(editor.writeTopology(error), "pool:" + dir.filePath("again.hostfile") + ":cuda");
        QCOMPARE(parseTopology(editor.writeTopology(error).toStdString()).shardBackend(0), std::string("cuda"));
        QVERIFY(ui::PoolEditor().findChild<QCheckBox*>("poolGpuRanks")->isChecked());
        editor.setGpuRanks(false);

        // What a user may type into the table: a bad row is named, never run.
        editor.setHosts({{"node-a", "2", "0"}, {"bad host", "1", "0"}});
        QVERIFY(editor.writeTopology(error).isEmpty());
        QVERIFY2(error.contains("row 2") && error.contains("bad host"), qPrintable(error));
        editor.setHosts({{"node-a", "-3", "0"}});
        QVERIFY(editor.writeTopology(error).isEmpty());
        QVERIFY2(error.contains("row 1") && error.contains("slots") && error.contains("-3"), qPrintable(error));
        editor.setHosts({});
        QVERIFY(editor.writeTopology(error).isEmpty());
        QVERIFY2(error.contains("no hosts"), qPrintable(error));

        editor.setUseHosts(false);
        editor.setLocalRanks(3);
        QCOMPARE(editor.writeTopology(error), QString("pool:3"));
        QVERIFY(error.isEmpty());
        QCOMPARE(editor.findChild<QSpinBox*>("poolRanks")->text(), QString("Local ranks: 3"));
    }

    void poolRunIsGraphedWithEveryRanksReduce()
    {
        if (const char* why = noMpi()) QSKIP(why);
        Workstation station;
        station.window().show();
        QVERIFY(test::loadDemo(station, "blobs:n=3000,d=4,k=3"));
        KMeansParams params;
        params.algorithm = Algorithm::KMeans;
        params.k = 3;
        station.window().enginePanel().setParams(params);
        choosePool(station, 2);

        // The status bar says the pool is starting, from the moment Run is pressed.
        QSignalSpy finished(&station, &Workstation::runFinished);
        station.window().runAction()->trigger();
        const QString starting = station.window().runStatus().text();
        QVERIFY2(starting.startsWith("Starting the node pool (2 ranks)... 0.0 s"), qPrintable(starting));
        QVERIFY(finished.wait(60000));
        const auto outcome = std::optional<ui::RunOutcome>(finished.front().front().value<ui::RunOutcome>());
        QVERIFY(outcome);
        QVERIFY2(outcome->error.isEmpty(), qPrintable(outcome->error));
        QVERIFY(!outcome->cancelled);
        QVERIFY(outcome->iterations >= 1);
        QCOMPARE(outcome->k, 3);
        station.window().refreshAll();

        const int iterations = outcome->iterations;
        QCOMPARE(int(station.window().liveRun().iterations().size()), iterations);
        auto* evolution = station.window().findChild<ui::EvolutionPlot*>();
        QVERIFY(evolution);
        QCOMPARE(evolution->kGraph()->dataCount(), iterations);
        QVERIFY(evolution->note().isEmpty());  // k-means was told k: nothing to explain
        auto* latency = station.window().findChild<ui::LatencyPlot*>();
        QVERIFY(latency);
        QCOMPARE(latency->reduceBars()->dataCount(), iterations);
        QCOMPARE(latency->rankReduce().ranks(), 2);
        QVERIFY(latency->rankReduce().axisRect());
        QVERIFY(station.window().showTab("Latency"));
        QCoreApplication::processEvents();
        latency->replot();  // lays the axes out: they take a visible share of the graph
        const QRect ranksRect = latency->rankReduce().axisRect()->rect();
        QVERIFY2(ranksRect.height() > 40 && ranksRect.top() > latency->axisRect(0)->rect().bottom(),
                 qPrintable(QString("per-rank axes at y %1, height %2").arg(ranksRect.top()).arg(ranksRect.height())));
        for (int r = 0; r < 2; ++r) {
            QCOMPARE(latency->rankReduce().graph(r)->dataCount(), iterations);
            QCOMPARE(latency->rankReduce().graph(r)->name(), QString("rank %1").arg(r));
        }
        QVERIFY(latency->csv().section('\n', 0, 0).endsWith(",reduce_ms_rank0,reduce_ms_rank1"));

        // A host run afterwards has no per-rank timings: the per-rank axes go away.
        station.window().topologyPanel().findChild<QRadioButton*>("runOnHost")->setChecked(true);
        const auto host = test::runToEnd(station, 60000);
        QVERIFY(host && host->error.isEmpty());
        station.window().refreshAll();
        QCOMPARE(latency->rankReduce().ranks(), 0);
        QVERIFY(!latency->rankReduce().axisRect());
    }

    void cancellingAPoolRunStopsEveryRank()
    {
        if (const char* why = noMpi()) QSKIP(why);
        CLUSTERDESK_REQUIRE_TEST_HOOKS();
        const testhooks::EndlessRuns endless;
        Workstation station;
        station.window().show();
        startLongPoolRun(station);
        if (QTest::currentTestFailed()) return;
        QSignalSpy finished(&station, &Workstation::runFinished);
        QCOMPARE(processesWith(m_token) >= 2, true);  // mpirun and its ranks are running
        station.window().cancelAction()->trigger();
        QVERIFY(finished.wait(30000));
        const auto outcome = finished.front().front().value<ui::RunOutcome>();
        QVERIFY2(outcome.error.isEmpty(), qPrintable(outcome.error));
        QVERIFY(outcome.cancelled);
        QVERIFY(station.window().runStatus().text().contains("Cancelled"));
        QCOMPARE(processesWith(m_token), 0);
        QVERIFY(station.window().runAction()->isEnabled());
        QVERIFY(!station.window().cancelAction()->isEnabled());
    }

    void aRankThatDiesIsReportedAndTheWindowStaysUsable()
    {
        if (const char* why = noMpi()) QSKIP(why);
        CLUSTERDESK_REQUIRE_TEST_HOOKS();
        std::optional<testhooks::EndlessRuns> endless{std::in_place};
        Workstation station;
        station.window().show();
        startLongPoolRun(station);
        if (QTest::currentTestFailed()) return;
        // Rank 1 dies mid-run, as a node would that lost power.
        const qint64 rank1 = pidWith(m_token, "OMPI_COMM_WORLD_RANK=1");
        QVERIFY(rank1 > 0);
        QSignalSpy finished(&station, &Workstation::runFinished);
        QCOMPARE(::kill(static_cast<pid_t>(rank1), SIGKILL), 0);
        QVERIFY(finished.wait(60000));
        const auto outcome = finished.front().front().value<ui::RunOutcome>();
        QVERIFY(!outcome.cancelled);
        QVERIFY2(outcome.error.contains("pool") && outcome.error.contains("rank 1"), qPrintable(outcome.error));
        QVERIFY(station.window().errorBanner().isVisible());
        QVERIFY2(station.window().errorBanner().message().contains("rank 1"), qPrintable(station.window().errorBanner().message()));
        QCOMPARE(processesWith(m_token), 0);

        // Usable: a small, ordinary job on the same pool runs.
        endless.reset();
        QVERIFY(test::loadDemo(station, "blobs:n=3000,d=4,k=3"));
        KMeansParams params;
        params.algorithm = Algorithm::KMeans;
        params.k = 3;
        station.window().enginePanel().setParams(params);
        const auto again = test::runToEnd(station, 60000);
        QVERIFY(again);
        QVERIFY2(again->error.isEmpty(), qPrintable(again->error));
    }

    void testConnectionReportsEveryRank()
    {
        if (const char* why = noMpi()) QSKIP(why);
        Workstation station;
        station.window().show();
        choosePool(station, 2);
        ui::PoolEditor& editor = station.window().topologyPanel().poolEditor();
        auto* button = editor.findChild<QPushButton*>("poolTest");
        auto* result = editor.findChild<QLabel*>("poolProbe");
        QVERIFY(button && result);
        button->click();
        QVERIFY(!button->isEnabled());  // one test at a time; the window keeps running
        QTRY_VERIFY_WITH_TIMEOUT(button->isEnabled(), 60000);
        const QStringList lines = result->text().split('\n');
        QVERIFY2(lines.size() == 3 && lines[0] == "2 ranks answered:", qPrintable(result->text()));
        for (int r = 0; r < 2; ++r) {
            const QString& line = lines[r + 1];
            QVERIFY2(line.startsWith(QString("rank %1: ").arg(r)), qPrintable(line));
            QVERIFY2(line.contains(QSysInfo::machineHostName()) && line.contains(", host, "), qPrintable(line));
        }
        // The same through the hosts table: a hostfile naming this machine with 2 slots.
        QTemporaryDir dir;
        editor.setHostfilePath(dir.filePath("pool.hostfile"));
        editor.setHosts({{"localhost", "2", "0"}});
        editor.setUseHosts(true);
        button->click();
        QTRY_VERIFY_WITH_TIMEOUT(button->isEnabled(), 60000);
        QVERIFY2(result->text().startsWith("2 ranks answered:\nrank 0: ") && result->text().contains("\nrank 1: "),
                 qPrintable(result->text()));
        QVERIFY(QFile::exists(dir.filePath("pool.hostfile")));

        // A launcher that is not there: said so, nothing crashes.
        editor.setLauncher("/nonexistent/mpirun", {});
        button->click();
        QTRY_VERIFY_WITH_TIMEOUT(button->isEnabled(), 30000);
        QVERIFY2(result->text().startsWith("Test failed: ") && result->text().contains("/nonexistent/mpirun"),
                 qPrintable(result->text()));
    }

private:
    // Why pool runs cannot be tested here, or null when they can.
    static const char* noMpi()
    {
#ifndef CLUSTERDESK_HAVE_MPI
        return "built without MPI (CLUSTERDESK_WITH_MPI off or MPI not found): no pool runs";
#endif
        if (QStandardPaths::findExecutable("mpirun").isEmpty()) return "mpirun is not on PATH (install openmpi-bin)";
        return nullptr;
    }

    // A pool:2 run that goes on until cancelled (under testhooks::EndlessRuns), once it has done two iterations.
    static void startLongPoolRun(Workstation& station)
    {
        QVERIFY(test::prepareEndlessRun(station, "blobs:n=100000,d=8,k=32,spread=4", 32));
        choosePool(station, 2);
        station.window().runAction()->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(station.window().liveRun().iterations().size() >= 2, 60000);
    }

    // Selects the pool in the Topology panel: N local ranks with this build's worker.
    static void choosePool(Workstation& station, int ranks)
    {
        ui::TopologyPanel& panel = station.window().topologyPanel();
        panel.findChild<QRadioButton*>("runOnPool")->setChecked(true);
        ui::PoolEditor& editor = panel.poolEditor();
        editor.setUseHosts(false);
        editor.setLocalRanks(ranks);
        editor.setLauncher("mpirun", {});
        editor.setWorker(kWorker);
        panel.findChild<QSpinBox*>("threads")->setValue(2);
    }

    QTemporaryDir m_settings;
    QByteArray m_token;
};

QTEST_MAIN(TestGuiTopology)
#include "test_gui_topology.moc"
