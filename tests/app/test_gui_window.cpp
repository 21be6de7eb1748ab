// The workstation window driven like a user would: real demos, real runs on the run
// thread, the offscreen platform. Every graph must hold the run's data; cancelling
// must stop within an iteration; a malformed file must show an error and leave the
// window working.
#include "gui_test_support.h"

#include "ui/error_banner.h"
#include "ui/members/members_view.h"
#include "ui/panels/data_panel.h"
#include "ui/panels/engine_panel.h"
#include "ui/plots/clusters_plot.h"
#include "ui/plots/evolution_plot.h"
#include "ui/plots/latency_plot.h"
#include "ui/plots/power_plot.h"
#include "ui/run_status.h"

#include <QAction>
#include <QComboBox>
#include <QSpinBox>
#include <QDockWidget>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QProgressBar>
#include <QStatusBar>
#include <QHeaderView>
#include <QTableView>
#include <QElapsedTimer>
#include <QFile>
#include <QFileDialog>
#include <QPushButton>
#include <QRegularExpression>
#include <QSortFilterProxyModel>
#include <QTemporaryDir>

#include <numeric>

using namespace clusterdesk;
using namespace clusterdesk::gui;

class TestGuiWindow : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { test::isolateSettings(m_settings); }

    void marketRunFillsEveryGraph()
    {
        Workstation station;
        station.window().show();
        QVERIFY(test::loadDemo(station, "market"));
        QVERIFY(station.window().runAction()->isEnabled());
        const auto outcome = test::runToEnd(station);
        QVERIFY(outcome);
        QVERIFY2(outcome->error.isEmpty(), qPrintable(outcome->error));
        QVERIFY(!outcome->cancelled);
        QVERIFY(outcome->iterations > 1);
        const int iterations = outcome->iterations;
        const std::int64_t rows = station.window().dataset()->rows;
        QCOMPARE(rows, 500);

        auto* evolution = station.window().findChild<ui::EvolutionPlot*>();
        QVERIFY(evolution);
        QCOMPARE(evolution->kGraph()->dataCount(), iterations);
        QCOMPARE(evolution->inertiaGraph()->dataCount(), iterations);
        QCOMPARE(evolution->sizeBandCount(), outcome->k);
        for (int c = 0; c < evolution->sizeBandCount(); ++c) QCOMPARE(evolution->sizeBand(c)->dataCount(), iterations);
        // The top of the stack is every row at every iteration: sizes sum to the row count.
        QCPGraph* top = evolution->sizeBand(evolution->sizeBandCount() - 1);
        for (auto it = top->data()->constBegin(); it != top->data()->constEnd(); ++it) QCOMPARE(it->value, double(rows));
        QCOMPARE(std::accumulate(outcome->sizes.begin(), outcome->sizes.end(), std::int64_t{0}), rows);
        // AdaptGrow grows from k0=2: at least one split is marked, and where growth stopped.
        QVERIFY(evolution->eventMarkCount() >= 2);
        // Both tabs say why it stopped, with the tests nearest their bars and their values.
        QVERIFY2(evolution->note().startsWith("AdaptGrow stopped growing at k="), qPrintable(evolution->note()));
        QVERIFY2(evolution->note().contains("split tests nearest their bars"), qPrintable(evolution->note()));
        QVERIFY2(evolution->note().contains(QRegularExpression("axis 0\\.\\d{3} of its variance / bar 0\\.\\d{3}")), qPrintable(evolution->note()));

        auto* latency = station.window().findChild<ui::LatencyPlot*>();
        QVERIFY(latency);
        QCOMPARE(latency->assignBars()->dataCount(), iterations);
        QCOMPARE(latency->updateBars()->dataCount(), iterations);
        QCOMPARE(latency->reduceBars()->dataCount(), iterations);
        QVERIFY(latency->percentiles().p50 > 0);
        QVERIFY(latency->percentiles().p50 <= latency->percentiles().p95);
        QVERIFY(latency->percentiles().p95 <= latency->percentiles().p99);

        auto* power = station.window().findChild<ui::PowerPlot*>();
        QVERIFY(power);
        QVERIFY(power->graphCount() >= 1);
        QVERIFY(power->graph(0)->dataCount() >= 2);
        QVERIFY(power->graph(0)->name().contains("measured") || power->graph(0)->name().contains("estimated"));
        QVERIFY2(power->energyJoules() > 0, qPrintable(QString::number(power->energyJoules())));
        QVERIFY(power->pointsPerJoule() > 0);

        // Prices data: every asset is a point, named, and every centroid is marked.
        auto* clusters = station.window().findChild<ui::ClustersPlot*>();
        QVERIFY(clusters);
        QCOMPARE(clusters->pointCount(), 500);
        QCOMPARE(clusters->centroidCount(), outcome->k);
        QVERIFY(!clusters->placeholderShown());
        QVERIFY(clusters->csv().contains("S00_A000"));
        QCOMPARE(clusters->note(), evolution->note());

        QVERIFY(station.window().runStatus().text().contains(QString::number(iterations)));
        // CSV: a header and one line per iteration.
        QCOMPARE(evolution->csv().trimmed().split('\n').size(), iterations + 1);
        QCOMPARE(latency->csv().trimmed().split('\n').size(), iterations + 1);
    }

    void demoBoxShowsTheDemoLoaded()
    {
        // A demo loaded by spec (clusterdesk --demo, a run from History) is what the Demo
        // box shows, every key spelled out, so Generate makes the same data again.
        Workstation station;
        station.window().show();
        QVERIFY(test::loadDemo(station, "blobs:n=500,d=3,k=4,seed=5"));
        auto& panel = station.window().dataPanel();
        QCOMPARE(panel.findChild<QComboBox*>("demoName")->currentText(), QString("blobs"));
        const QString parameters = panel.findChild<QLineEdit*>("demoParameters")->text();
        QVERIFY2(parameters.startsWith("n=500,d=3,k=4,seed=5"), qPrintable(parameters));
        QSignalSpy requested(&panel, &ui::DataPanel::demoRequested);
        panel.findChild<QPushButton*>("generateDemo")->click();
        QCOMPARE(requested.size(), 1);
        QCOMPARE(requested.front().front().toString(), QString::fromStdString(station.window().dataset()->source));
    }

    void membersTabListsEveryAssetAndExports()
    {
        Workstation station;
        station.window().show();
        QVERIFY(test::loadDemo(station, "market"));
        const auto outcome = test::runToEnd(station);
        QVERIFY(outcome && outcome->error.isEmpty());
        ui::MembersView& members = station.window().membersView();
        QTRY_COMPARE_WITH_TIMEOUT(members.model().rowCount(), 500, 10000);
        // Names, clusters within k, the market demo's returns per cluster.
        const QAbstractItemModel& table = members.model();
        QVERIFY(table.index(0, ui::MemberTableModel::Name).data().toString().startsWith("S"));
        for (int row = 0; row < table.rowCount(); ++row) {
            const int cluster = table.index(row, ui::MemberTableModel::Cluster).data().toInt();
            QVERIFY(cluster >= 0 && cluster < outcome->k);
        }
        QVERIFY(table.index(0, ui::MemberTableModel::MeanReturn).data().toString().endsWith("%"));
        // In cluster order as the header says (the membership's own order, no sort), and
        // sorted off the UI thread when a header is clicked.
        const auto cell = [&](int row, int column) { return table.index(row, column).data(ui::MemberTableModel::kSortRole); };
        for (int row = 1; row < table.rowCount(); ++row)
            QVERIFY(cell(row - 1, ui::MemberTableModel::Cluster).toInt() <= cell(row, ui::MemberTableModel::Cluster).toInt());
        auto* view = members.findChild<QTableView*>("membersTable");
        QCOMPARE(view->horizontalHeader()->sortIndicatorSection(), int(ui::MemberTableModel::Cluster));
        view->horizontalHeader()->setSortIndicator(ui::MemberTableModel::Distance, Qt::DescendingOrder);
        QVERIFY(members.model().isArranging());
        QTRY_VERIFY_WITH_TIMEOUT(!members.model().isArranging(), 10000);
        for (int row = 1; row < table.rowCount(); ++row)
            QVERIFY(cell(row - 1, ui::MemberTableModel::Distance).toDouble() >= cell(row, ui::MemberTableModel::Distance).toDouble());
        // Filtered by a name, then by a cluster number.
        auto* filter = members.findChild<QLineEdit*>("membersFilter");
        filter->setText("S03_");
        QTRY_VERIFY_WITH_TIMEOUT(!members.model().isArranging(), 10000);
        QVERIFY(table.rowCount() > 0 && table.rowCount() < 500);
        for (int row = 0; row < table.rowCount(); ++row)
            QVERIFY(table.index(row, ui::MemberTableModel::Name).data().toString().contains("S03_"));
        filter->setText("2");
        QTRY_VERIFY_WITH_TIMEOUT(!members.model().isArranging(), 10000);
        QCOMPARE(qlonglong(table.rowCount()), qlonglong(outcome->sizes[2]));
        filter->clear();
        QTRY_VERIFY_WITH_TIMEOUT(!members.model().isArranging(), 10000);
        QCOMPARE(table.rowCount(), 500);
        // Exported with the assets' names, one line per asset.
        QTemporaryDir dir;
        const QString path = dir.filePath("members.csv");
        QVERIFY(station.exportMembers(path));
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = file.readAll().split('\n');
        QCOMPARE(lines.front(), QByteArray("id,cluster,distance,cluster_size,cluster_mean_return,cluster_volatility"));
        QCOMPARE(lines.size(), 502);  // header, 500 assets, the final newline
        QVERIFY(lines[1].startsWith("S"));
        // A folder is not a file: refused with the reason, nothing crashes.
        QVERIFY(!station.exportMembers(dir.path()));
        QVERIFY(station.window().errorBanner().message().contains("Members not exported"));
    }

    void restartsAreSetInTheEnginePanel()
    {
        Workstation station;
        station.window().show();
        ui::EnginePanel& engine = station.window().enginePanel();
        auto* restarts = engine.findChild<QSpinBox*>("nInit");
        QVERIFY(restarts);
        KMeansParams params;
        params.k = 10;
        engine.setParams(params);
        restarts->setValue(3);
        QCOMPARE(engine.params().nInit, 3);
        QVERIFY(test::loadDemo(station, "market"));
        const auto outcome = test::runToEnd(station);
        QVERIFY(outcome);
        QVERIFY2(outcome->error.isEmpty(), qPrintable(outcome->error));
        QVERIFY(outcome->iterations >= 3);  // at least one per start
        // The Evolution title gives the kept start's inertia; here the last start is not
        // the kept one, so the last iteration's inertia would be wrong.
        auto* evolution = station.window().findChild<ui::EvolutionPlot*>();
        QVERIFY(evolution);
        const double last = station.window().liveRun().iterations().back().inertia;
        QVERIFY2(last != outcome->inertia, "the last start was the best: this data does not tell the two apart");
        QTRY_VERIFY2(evolution->title().contains(QString::number(outcome->inertia, 'g', 6)), qPrintable(evolution->title()));
        // AdaptGrow restarts k-means at the k it chose: the field applies there too.
        auto* algorithm = engine.findChild<QComboBox*>("algorithm");
        algorithm->setCurrentIndex(1);
        QVERIFY(restarts->isEnabled());
        QVERIFY(engine.params().algorithm == Algorithm::AdaptGrow);
        QCOMPARE(engine.params().nInit, 3);
    }

    void graphsExportPictures()
    {
        Workstation station;
        station.window().show();
        QVERIFY(test::loadDemo(station, "blobs:n=2000,d=4,k=3"));
        QVERIFY(test::runToEnd(station));
        QTemporaryDir dir;
        auto* clusters = station.window().findChild<ui::ClustersPlot*>();
        for (const char* suffix : {"png", "pdf", "svg"}) {
            const QString path = dir.filePath(QString("clusters.") + suffix);
            QString error;
            QVERIFY2(clusters->exportTo(path, &error), qPrintable(error));
            QVERIFY2(QFile(path).size() > 1000, qPrintable(path));
        }
        QString error;
        QVERIFY(!clusters->exportTo(dir.filePath("clusters.bmpx"), &error));
        QVERIFY(error.contains("bmpx"));
    }

    void cancelStopsWithinAnIteration()
    {
        CLUSTERDESK_REQUIRE_TEST_HOOKS();
        const testhooks::EndlessRuns endless;
        Workstation station;
        station.window().show();
        QVERIFY(test::prepareEndlessRun(station, "blobs:n=200000,d=8,k=64,spread=4", 64));
        QSignalSpy finished(&station, &Workstation::runFinished);
        station.window().runAction()->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(station.window().liveRun().iterations().size() >= 2, 60000);
        QVERIFY(station.window().cancelAction()->isEnabled());
        station.window().cancelAction()->trigger();
        QVERIFY(finished.wait(30000));
        const auto outcome = finished.front().front().value<ui::RunOutcome>();
        QVERIFY(outcome.cancelled);
        // The iteration in flight when the flag was set finishes; the engine reads the
        // flag in that iteration's all-reduce, or (set just after it) in the next one.
        const int atCancel = station.controller().iterationAtCancel();
        QVERIFY(atCancel >= 2);
        QVERIFY2(outcome.iterations <= atCancel + 2, qPrintable(QString("%1 iterations, cancel at %2").arg(outcome.iterations).arg(atCancel)));
        QCOMPARE(int(station.window().liveRun().iterations().size()), outcome.iterations);
        QVERIFY(station.window().runStatus().text().contains("Cancelled"));
        // The window is usable again.
        QVERIFY(station.window().runAction()->isEnabled());
        QVERIFY(!station.window().cancelAction()->isEnabled());
    }

    void malformedFileShowsErrorAndWindowKeepsWorking()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("bad.csv");
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("a,b,c\n1,2,3\n4,oops,6\n7,8,9\n");
        file.close();

        Workstation station;
        station.window().show();
        ui::DataPanel& panel = station.window().dataPanel();
        // Choosing the file loads it: no second step.
        QSignalSpy failed(&station, &Workstation::loadFailed);
        panel.chooseFile(path);
        QVERIFY(failed.wait(10000));
        const QString message = station.window().errorBanner().message();
        QVERIFY2(message.contains("bad.csv") && message.contains("line 3") && message.contains("column 3") &&
                     message.contains("field 2 (b): not a number: 'oops'"),
                 qPrintable(message));
        QVERIFY(!station.window().dataset());

        QVERIFY(test::loadDemo(station, "blobs:n=3000,d=4,k=3"));
        const auto outcome = test::runToEnd(station);
        QVERIFY(outcome && outcome->error.isEmpty() && !outcome->cancelled);
    }

    void theDataPanelSaysWhatLoadingDid()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("prices.csv");
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("date,AAA,BBB,CCC\n2024-01-01,10,20,30\n2024-01-02,NA,21,31\n2024-01-03,11,#N/A,30\n2024-01-04,12,22,29\n"
                   "2024-01-05,11,21,NA\n2024-01-06,12,22,31\n");
        file.close();
        Workstation station;
        station.window().show();
        ui::DataPanel& panel = station.window().dataPanel();
        // Through the Open dialog, as a user does: choosing the file loads it.
        QSignalSpy ready(&station, &Workstation::datasetReady);
        panel.findChild<QPushButton*>("openFile")->click();
        auto* dialog = panel.findChild<QFileDialog*>("openDataDialog");
        QVERIFY(dialog);
        QTRY_VERIFY_WITH_TIMEOUT(dialog->isVisible(), 10000);
        dialog->selectFile(path);
        QMetaObject::invokeMethod(dialog, "accept");  // what Open does
        QVERIFY(ready.wait(10000));
        QCOMPARE(station.window().dataset()->source, path.toStdString());
        const QString text = panel.findChild<QLabel*>("datasetLabel")->text();
        QVERIFY2(text.startsWith("Run will use: " + path), qPrintable(text));
        QVERIFY2(text.contains("read as missing prices: '#N/A' x1, 'NA' x2") && text.contains("forward-filled 3 missing prices"), qPrintable(text));
    }

    void largeFileShowsProgressAndCancels()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("large.csv");
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        QByteArray text = "x,y,z\n";
        for (int i = 0; i < 200000; ++i) text += QByteArray::number(i % 97) + "," + QByteArray::number(i % 13) + ",0.5\n";
        file.write(text);
        file.close();

        Workstation station;
        station.window().show();
        ui::DataPanel& panel = station.window().dataPanel();
        auto* load = panel.findChild<QPushButton*>("loadFile");
        auto* cancel = panel.findChild<QPushButton*>("cancelLoad");
        auto* progress = panel.findChild<QProgressBar*>("loadProgress");
        // Chosen, so loaded to the end: the bar moved on the way.
        QSignalSpy ready(&station, &Workstation::datasetReady);
        QSignalSpy moved(progress, &QProgressBar::valueChanged);
        panel.chooseFile(path);
        QVERIFY(ready.wait(60000));
        QVERIFY(station.window().findChild<QLabel*>("detectedLayout")->text().contains("matrix"));
        QVERIFY(moved.count() >= 2);
        QCOMPARE(station.window().dataset()->rows, 200000);
        QVERIFY(!progress->isVisible());

        // Reloaded and cancelled right away: the loader stops at its first progress report.
        QVERIFY(load->isEnabled());
        load->click();
        QVERIFY(progress->isVisible() && cancel->isVisible());
        cancel->click();
        QTRY_VERIFY_WITH_TIMEOUT(!progress->isVisible(), 60000);
        QCOMPARE(ready.count(), 1);  // no second dataset arrived
        QVERIFY(station.window().statusBar()->currentMessage().contains("cancelled"));
        QVERIFY(station.window().runAction()->isEnabled());  // the earlier dataset stays
    }

    void dockLayoutIsKeptBetweenSessions()
    {
        {
            ui::MainWindow window;
            window.show();
            auto* dock = window.findChild<QDockWidget*>("topologyPanelDock");
            QVERIFY(dock);
            window.addDockWidget(Qt::RightDockWidgetArea, dock);
            QCOMPARE(window.dockWidgetArea(dock), Qt::RightDockWidgetArea);
            window.close();
        }
        ui::MainWindow again;
        again.show();
        QCOMPARE(again.dockWidgetArea(again.findChild<QDockWidget*>("topologyPanelDock")), Qt::RightDockWidgetArea);
        QCOMPARE(again.dockWidgetArea(again.findChild<QDockWidget*>("dataPanelDock")), Qt::LeftDockWidgetArea);
    }

    void helpSaysVersionsAndShortcuts()
    {
        ui::MainWindow window;
        QVERIFY(window.menuBar()->findChild<QMenu*>("helpMenu"));
        const QString about = window.aboutText();
        for (const QString& part : {QString("ClusterDesk"), QString("OpenBLAS"), QString("GPUs (CUDA)"), QString("Qt</td><td>") + qVersion()})
            QVERIFY2(about.contains(part), qPrintable(about));
        const QString keys = window.shortcutsText();
        QVERIFY2(keys.contains("Ctrl+R, F5\tRun") && keys.contains("Ctrl+E\tExport report..."), qPrintable(keys));
    }

    void engineSettingsAreKeptBetweenSessions()
    {
        KMeansParams chosen;
        chosen.k = 13;
        chosen.mode = kernels::Mode::Exact;
        chosen.seed = 42;
        chosen.nInit = 5;
        {
            ui::MainWindow window;
            window.show();
            window.enginePanel().setParams(chosen);
            window.close();
        }
        ui::MainWindow again;
        again.show();
        const KMeansParams restored = again.enginePanel().params();
        QCOMPARE(restored.k, 13);
        QVERIFY(restored.mode == kernels::Mode::Exact);
        QCOMPARE(restored.seed, std::uint64_t{42});
        QCOMPARE(restored.nInit, 5);
        // Back to the defaults for the tests after this one.
        again.enginePanel().setParams(KMeansParams{});
        again.close();
    }

    void closingDuringRunCancelsIt()
    {
        CLUSTERDESK_REQUIRE_TEST_HOOKS();
        const testhooks::EndlessRuns endless;
        QElapsedTimer closing;
        {
            Workstation station;
            station.window().show();
            QVERIFY(test::prepareEndlessRun(station, "blobs:n=200000,d=8,k=64,spread=4", 64));
            station.window().runAction()->trigger();
            QTRY_VERIFY_WITH_TIMEOUT(station.window().liveRun().iterations().size() >= 1, 60000);
            closing.start();
            station.window().close();
        }  // the Workstation joins its threads here
        QVERIFY2(closing.elapsed() < 5000, qPrintable(QString::number(closing.elapsed())));
    }

private:
    QTemporaryDir m_settings;
};

QTEST_MAIN(TestGuiWindow)
#include "test_gui_window.moc"
