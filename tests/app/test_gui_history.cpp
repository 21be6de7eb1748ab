// The History tab and Lineage view against a real run store in a temporary folder:
// runs from the window are recorded and listed, a selected run's graphs come back from
// the store, re-run adds a run with a `rerun` edge the Lineage view shows, compare
// shows the ARI between two runs' labels and overlays their inertia curves, delete
// asks first and leaves a tombstone, a run recorded by clusterdesk-cli in the same file
// appears after a refresh, and a run on a file that changed since says why its
// Clusters graph cannot be shown; a cancelled run is recorded cancelled; a report of
// the selected runs is written through the file dialog and recorded in the store; an
// update of a live session shows its window, rebuilt from the session's recorded input.
// One window for the whole suite: each step builds on the runs the previous made.
#include "cli_runner.h"
#include "feed_process.h"
#include "gui_test_support.h"

#include "app/gui/history_controller.h"
#include "engine/store/run_store.h"
#include "ui/history/compare_dialog.h"
#include "ui/history/history_view.h"
#include "ui/history/lineage_view.h"
#include "ui/history/run_filter_proxy.h"
#include "ui/history/run_table_model.h"
#include "ui/panels/data_panel.h"
#include "ui/panels/engine_panel.h"
#include "ui/panels/topology_panel.h"
#include "ui/plots/clusters_plot.h"
#include "ui/plots/evolution_plot.h"
#include "ui/plots/latency_plot.h"
#include "ui/plots/power_plot.h"
#include "ui/run_status.h"
#include "ui/units.h"

#include <QApplication>
#include <QCheckBox>
#include <QDialogButtonBox>
#include <QFile>
#include <QFileDialog>
#include <QLineEdit>
#include <QRegularExpression>
#include <QJsonObject>
#include <QJsonDocument>
#include <QJsonArray>
#include <QFileInfo>
#include <QTextStream>
#include <QMessageBox>
#include <QPushButton>
#include <QTableView>
#include <QTimer>

#include <memory>

using namespace clusterdesk;
using namespace clusterdesk::gui;
using clusterdesk::test::FeedProcess;

namespace {

// A small demo so every run takes well under a second.
const QString kDemo = "blobs:n=3000,d=8,k=5,seed=3";

}  // namespace

class TestGuiHistory : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        gui::test::isolateSettings(m_settings);
        QVERIFY(m_dir.isValid());
        m_db = m_dir.filePath("runs.sqlite");
        m_station = std::make_unique<Workstation>(m_db);
        m_station->window().show();
        QVERIFY(m_station->history());
        QSignalSpy listed(m_station->history(), &HistoryController::refreshed);
        QVERIFY(listed.wait(30000));  // the first listing, of a new store
        QVERIFY(m_station->window().tabTitles().contains("History"));
        QVERIFY(gui::test::loadDemo(*m_station, kDemo));
    }

    void cleanupTestCase() { m_station.reset(); }

    void windowRunIsRecorded()
    {
        QCOMPARE(view().model().rowCount(), 0);
        std::optional<ui::RunOutcome> outcome;
        QVERIFY(waitRefreshed([&] { outcome = gui::test::runToEnd(*m_station); }));
        QVERIFY(outcome);
        QVERIFY2(outcome->error.isEmpty(), qPrintable(outcome->error));
        QCOMPARE(view().model().rowCount(), 1);
        QCOMPARE(cell(0, ui::RunTableModel::Status), QString("ok"));
        QCOMPARE(cell(0, ui::RunTableModel::K).toInt(), outcome->k);

        // The store holds what the run produced, like a CLI run.
        store::RunStore runs(m_db.toStdString());
        const std::vector<store::RunInfo> listed = runs.listRuns();
        QCOMPARE(listed.size(), std::size_t(1));
        m_first = QString::fromStdString(listed.front().id);
        const store::RunRecord record = runs.loadRun(listed.front().id);
        QVERIFY(record.info.status == store::RunStatus::Ok);
        QCOMPARE(record.k, outcome->k);
        QCOMPARE(int(record.iterations.size()), outcome->iterations);
        QCOMPARE(record.labels.size(), std::size_t(3000));
        QVERIFY(isGenerated(record.info.dataSource));
        QCOMPARE(record.dataset.rows, 3000);
    }

    // One run, four places that show its figures: the status bar, the History row, the
    // Power graph and `runs show --json`. They must say the same.
    void figuresAgreeEverywhere()
    {
        const CliResult show = runCli({"runs", "show", m_first, "--json", "--db", m_db});
        QVERIFY2(show.exitCode == 0, qPrintable(show.err));
        QJsonObject run = QJsonDocument::fromJson(show.out.toUtf8()).object();
        if (run.isEmpty()) run = QJsonDocument::fromJson(show.out.toUtf8()).array().first().toObject();
        const QJsonObject metrics = run["metrics"].toObject();
        const QString seconds = ui::formatSeconds(metrics["seconds_total"].toDouble());
        const QString joules = ui::formatJoules(run["energy_j"].toDouble());
        QVERIFY(metrics["seconds_total"].toDouble() > 0);
        QVERIFY(run["energy_j"].toDouble() > 0);
        // The live run's status line, still showing the run that just ended.
        const QString status = m_station->window().runStatus().text();
        QVERIFY2(status.contains(" in " + seconds + ":"), qPrintable(status + " / " + seconds));
        QCOMPARE(cell(0, ui::RunTableModel::Duration), seconds);
        QCOMPARE(cell(0, ui::RunTableModel::Energy), joules);
        auto* power = m_station->window().findChild<ui::PowerPlot*>();
        QVERIFY2(power->title().contains(joules), qPrintable(power->title() + " / " + joules));
        // Threads: the run's, in the store and the CLI; the Power legend names the
        // machine's hardware threads, not the run's.
        QCOMPARE(run["threads"].toInt(), m_station->window().topologyPanel().threads());
        QVERIFY(power->graphCount() >= 1);
        QVERIFY2(!power->graph(0)->name().contains(QRegularExpression("\\b\\d+ threads?\\b")) ||
                     power->graph(0)->name().contains("hardware threads"),
                 qPrintable(power->graph(0)->name()));
    }

    void selectingRunLoadsGraphsFromStore()
    {
        // Empty the graphs first, so what they show after the selection came from the store.
        m_station->window().liveRun().beginRun(0, 1);
        m_station->window().liveRun().finish({});
        QCOMPARE(m_station->window().findChild<ui::EvolutionPlot*>()->kGraph()->dataCount(), 0);
        QSignalSpy loaded(m_station->history(), &HistoryController::runShown);
        QVERIFY(view().selectRun(m_first));
        QVERIFY(loaded.wait(30000));
        const store::RunRecord record = store::RunStore(m_db.toStdString()).loadRun(m_first.toStdString());
        const int iterations = int(record.iterations.size());
        QVERIFY(iterations > 1);
        auto* evolution = m_station->window().findChild<ui::EvolutionPlot*>();
        QCOMPARE(evolution->kGraph()->dataCount(), iterations);
        QCOMPARE(evolution->inertiaGraph()->dataCount(), iterations);
        auto* latency = m_station->window().findChild<ui::LatencyPlot*>();
        QCOMPARE(latency->assignBars()->dataCount(), iterations);
        auto* power = m_station->window().findChild<ui::PowerPlot*>();
        QVERIFY(!record.telemetry.empty());
        QVERIFY(power->graphCount() >= 1);
        QVERIFY(power->graph(0)->dataCount() > 0);
        // The demo was regenerated (same content hash), so the Clusters graph is back too.
        auto* clusters = m_station->window().findChild<ui::ClustersPlot*>();
        QVERIFY(clusters->pointCount() > 0);
        QCOMPARE(clusters->centroidCount(), record.k);
        // Why AdaptGrow stopped, from the record's metrics: the sentence the run's summary holds.
        const QString why = QJsonDocument::fromJson(QByteArray::fromStdString(record.info.metricsJson))
                                .object()["growth"].toObject()["summary"].toString();
        QVERIFY2(why.startsWith("AdaptGrow stopped growing at k="), qPrintable(why));
        QVERIFY2(evolution->note().simplified().startsWith(why.simplified()), qPrintable(evolution->note()));
        QCOMPARE(clusters->note(), evolution->note());
        QVERIFY2(!view().detail().contains("cannot"), qPrintable(view().detail()));
        // The Lineage view shows the dataset by its short hash.
        QVERIFY(treeText().contains(QString::fromStdString(record.info.datasetHash).left(12)));
    }

    void rerunAddsRunWithLineageEdge()
    {
        QVERIFY(view().selectRun(m_first));
        QVERIFY(view().rerunButton().isEnabled());
        // The Engine panel holds something else: the re-run takes the record's parameters
        // and leaves the panel alone.
        KMeansParams elsewhere;
        elsewhere.algorithm = Algorithm::AdaptGrow;
        elsewhere.kMax = 9;
        m_station->window().enginePanel().setParams(elsewhere);
        QSignalSpy finished(m_station.get(), &Workstation::runFinished);
        QSignalSpy checked(m_station->history(), &HistoryController::rerunChecked);
        QVERIFY(waitRefreshed([&] {
            view().rerunButton().click();
            QVERIFY(finished.wait(60000));
        }));
        QVERIFY(m_station->window().enginePanel().params().algorithm == Algorithm::AdaptGrow);
        QCOMPARE(m_station->window().enginePanel().params().kMax, 9);
        // Fast mode on the same machine: the window reports the ARI against the original.
        QTRY_COMPARE_WITH_TIMEOUT(checked.size(), 1, 30000);
        const QString message = checked.front().front().toString();
        QVERIFY2(message.contains("reproduced it bit for bit") || message.contains("ARI 1.000000"), qPrintable(message));
        QVERIFY2(view().detail() == message, qPrintable(view().detail()));
        m_station->window().enginePanel().setParams(KMeansParams{});
        QCOMPARE(view().model().rowCount(), 2);
        store::RunStore runs(m_db.toStdString());
        const std::vector<store::RunInfo> listed = runs.listRuns();
        m_second = QString::fromStdString(listed.front().id);  // newest first
        QVERIFY(m_second != m_first);
        const std::vector<store::LineageEdge> edges = runs.lineage(m_second.toStdString());
        QVERIFY(std::any_of(edges.begin(), edges.end(), [&](const store::LineageEdge& e) {
            return e.relation == "rerun" && e.src == m_first.toStdString() && e.dst == m_second.toStdString();
        }));

        QSignalSpy loaded(m_station->history(), &HistoryController::runShown);
        QVERIFY(view().selectRun(m_second));
        QVERIFY(loaded.wait(30000));
        const QTreeWidgetItem* from = findItem("Derives from");
        QVERIFY2(from, qPrintable(treeText()));
        QCOMPARE(from->childCount(), 1);
        QCOMPARE(from->child(0)->data(0, ui::LineageView::kRunIdRole).toString(), m_first);
        QCOMPARE(from->child(0)->text(1), QString("rerun"));
        QCOMPARE(from->child(0)->text(2), m_first.left(8));
    }

    void compareShowsAri()
    {
        view().table().selectAll();
        QCOMPARE(view().selectedRunIds().size(), 2);
        QVERIFY(view().compareButton().isEnabled());
        QSignalSpy compared(m_station->history(), &HistoryController::compared);
        view().compareButton().click();
        QVERIFY(compared.wait(30000));
        ui::CompareDialog* dialog = m_station->history()->compareDialog();
        QVERIFY(dialog && dialog->isVisible());
        // Exact mode: the re-run reproduced the labels, so they agree completely.
        QCOMPARE(dialog->ariText(), QString("ARI between the labels: 1.0000"));
        QVERIFY(dialog->table().rowCount() > 10);
        // Its graph overlays both runs' inertia, every stored iteration of each.
        const ui::EvolutionPlot& evolution = dialog->evolution();
        QCOMPARE(evolution.runInertiaCount(), 2);
        for (const QString& id : {m_first, m_second}) {
            const QString name = "run " + id.left(8);
            const store::RunRecord record = store::RunStore(m_db.toStdString()).loadRun(id.toStdString());
            const int r = evolution.runInertia(0)->name() == name ? 0 : 1;
            QCOMPARE(evolution.runInertia(r)->name(), name);
            QCOMPARE(evolution.runInertia(r)->dataCount(), int(record.iterations.size()));
        }
        const auto edges = store::RunStore(m_db.toStdString()).lineage(m_first.toStdString());
        QVERIFY(std::any_of(edges.begin(), edges.end(), [](const store::LineageEdge& e) { return e.relation == "compared_with"; }));
        // Rows by name: the run ids differ and are highlighted, the algorithm does not.
        auto rowNamed = [&](const QString& title) {
            for (int r = 0; r < dialog->table().rowCount(); ++r)
                if (dialog->table().verticalHeaderItem(r)->text() == title) return r;
            return -1;
        };
        const int idRow = rowNamed("Run: Run"), algorithmRow = rowNamed("Parameters: Algorithm");
        QVERIFY(idRow >= 0 && algorithmRow >= 0);
        QVERIFY(dialog->highlighted(idRow));
        QVERIFY(!dialog->highlighted(algorithmRow));
        QVERIFY(rowNamed("Time and energy: Wall time") >= 0);
        // Latency and Power overlay the two runs beside Evolution.
        QCOMPARE(dialog->latency().runBarsCount(), 2);
        QStringList powerLines;
        for (int g = 0; g < dialog->power().graphCount(); ++g) powerLines << dialog->power().graph(g)->name();
        for (const QString& id : {m_first, m_second})
            QVERIFY2(!powerLines.filter("run " + id.left(8)).isEmpty(), qPrintable(powerLines.join(" | ")));
        // Its Close button closes it.
        auto* buttons = dialog->findChild<QDialogButtonBox*>();
        QVERIFY(buttons && buttons->button(QDialogButtonBox::Close));
        buttons->button(QDialogButtonBox::Close)->click();
        QVERIFY(!dialog->isVisible());
    }

    void reportOfSelectedRuns()
    {
        // File > Export report with nothing selected says what to do.
        view().table().clearSelection();
        QVERIFY(!view().reportButton().isEnabled());
        // It shows the History tab, which lists the runs again: wait for that listing.
        if (m_station->window().tabs().currentWidget() != &view())
            QVERIFY(waitRefreshed([&] { m_station->window().tabs().setCurrentWidget(&view()); }));
        m_station->window().exportReportAction()->trigger();
        QVERIFY2(view().detail().contains("Select the runs to report"), qPrintable(view().detail()));

        // Both runs, through the button and its file dialog, as a user would.
        view().table().selectAll();
        QVERIFY(view().reportButton().isEnabled());
        const QString path = m_dir.filePath("history-report.html");
        bool asked = false;
        QTimer::singleShot(200, this, [&] {
            auto* dialog = qobject_cast<QFileDialog*>(QApplication::activeModalWidget());
            if (!dialog) return;
            auto* name = dialog->findChild<QLineEdit*>("fileNameEdit");
            if (!name) return;
            asked = true;
            name->setText(path);  // typed by the user
            QMetaObject::invokeMethod(dialog, "accept");
        });
        QSignalSpy exported(m_station->history(), &HistoryController::reportExported);
        QSignalSpy refreshed(m_station->history(), &HistoryController::refreshed);
        view().reportButton().click();
        QVERIFY(asked);
        // The table is listed again (the runs gained a report edge): wait, so the next
        // step's refresh is its own.
        QVERIFY(refreshed.size() > 0 || refreshed.wait(30000));
        QCOMPARE(exported.size(), 1);
        QCOMPARE(exported.front().front().toString(), path);
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray html = file.readAll();
        QCOMPARE(html.count("<svg"), 8);  // Clusters, Evolution, Latency and Power of each run
        for (const QString& id : {m_first, m_second}) QVERIFY(html.contains(id.toUtf8()));
        // The store recorded it against both runs, and an auditor's check passes.
        const CliResult verify = runCli({"runs", "verify", "--report", path, "--db", m_db});
        QVERIFY2(verify.exitCode == 0, qPrintable(verify.out + verify.err));
        const auto edges = store::RunStore(m_db.toStdString()).lineage(m_second.toStdString());
        QVERIFY(std::any_of(edges.begin(), edges.end(), [](const store::LineageEdge& e) { return e.relation == "report"; }));
    }

    void deleteAsksThenTombstones()
    {
        QVERIFY(view().selectRun(m_second));
        // Accept the confirmation the way a user would: Yes on the message box.
        bool asked = false;
        QTimer::singleShot(200, this, [&] {
            auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
            if (!box) return;
            asked = true;
            box->button(QMessageBox::Yes)->click();
        });
        QSignalSpy deleted(m_station->history(), &HistoryController::deleted);
        QVERIFY(waitRefreshed([&] { view().deleteButton().click(); }));
        QVERIFY(asked);
        QCOMPARE(deleted.size(), 1);
        QCOMPARE(view().model().rowCount(), 1);
        QCOMPARE(view().model().rowOf(m_second), -1);
        store::RunFilter all;
        all.includeDeleted = true;
        const auto listed = store::RunStore(m_db.toStdString()).listRuns(all);
        QCOMPARE(listed.size(), std::size_t(2));
        for (const store::RunInfo& run : listed) QCOMPARE(run.deleted, run.id == m_second.toStdString());

        // Ticking Deleted lists it again, marked, and it can still be viewed.
        auto* showDeleted = view().findChild<QCheckBox*>("showDeleted");
        QVERIFY(showDeleted);
        QVERIFY(waitRefreshed([&] { showDeleted->setChecked(true); }));
        QCOMPARE(view().model().rowCount(), 2);
        const int row = view().model().rowOf(m_second);
        QVERIFY(row >= 0);
        QVERIFY(view().model().index(row, 0).data().toString().endsWith("(deleted)"));
        // Emptied first, so the graphs seen after the selection are the deleted run's.
        m_station->window().liveRun().beginRun(0, 1);
        m_station->window().liveRun().finish({});
        QSignalSpy shown(m_station->history(), &HistoryController::runShown);
        QVERIFY(view().selectRun(m_second));
        QVERIFY(shown.wait(30000));
        QCOMPARE(shown.front().front().toString(), m_second);
        QVERIFY(m_station->window().findChild<ui::EvolutionPlot*>()->kGraph()->dataCount() > 0);
        QVERIFY(waitRefreshed([&] { showDeleted->setChecked(false); }));
        QCOMPARE(view().model().rowCount(), 1);
    }

    void cliRunAppearsAfterRefresh()
    {
        const CliResult cli = runCli({"run", "--demo", kDemo, "--algo", "kmeans", "--k", "4", "--db", m_db});
        QVERIFY2(cli.exitCode == 0, qPrintable(cli.err));
        QVERIFY(waitRefreshed([&] { view().refreshButton().click(); }));
        QCOMPARE(view().model().rowCount(), 2);
        // Filtering by the algorithm finds it; k sorts as a number.
        view().proxy().setText("kmeans");
        QCOMPARE(view().proxy().rowCount(), 1);
        QCOMPARE(view().proxy().index(0, ui::RunTableModel::K).data().toInt(), 4);
        view().proxy().setText("");
    }

    void changedFileIsNamedNotShown()
    {
        // A run on a file records the file; once the file changes, its Clusters graph
        // cannot come back, and the History tab says why.
        const QString path = m_dir.filePath("points.csv");
        QVERIFY(writePoints(path, 1.0));
        QSignalSpy ready(m_station.get(), &Workstation::datasetReady);
        emit m_station->window().dataPanel().loadRequested(path, 0);
        QVERIFY(ready.wait(30000));
        QVERIFY(waitRefreshed([&] { QVERIFY(gui::test::runToEnd(*m_station)); }));
        const std::vector<store::RunInfo> listed = store::RunStore(m_db.toStdString()).listRuns();
        const auto onFile = std::find_if(listed.begin(), listed.end(), [](const store::RunInfo& r) { return !isGenerated(r.dataSource); });
        QVERIFY(onFile != listed.end());
        const store::RunInfo run = *onFile;
        QCOMPARE(QString::fromStdString(run.dataSource.location), QFileInfo(path).absoluteFilePath());

        QVERIFY(writePoints(path, 2.0));
        // The window's own copy of the old content would still do: replace it.
        QVERIFY(gui::test::loadDemo(*m_station, kDemo));
        m_station->window().liveRun().beginRun(0, 1);
        m_station->window().liveRun().finish({});
        QSignalSpy loaded(m_station->history(), &HistoryController::runShown);
        QVERIFY(view().selectRun(QString::fromStdString(run.id)));
        QVERIFY(loaded.wait(30000));
        QVERIFY2(view().detail().contains("cannot show") && view().detail().contains("changed"), qPrintable(view().detail()));
        QCOMPARE(m_station->window().findChild<ui::ClustersPlot*>()->pointCount(), 0);
        QVERIFY(m_station->window().findChild<ui::EvolutionPlot*>()->kGraph()->dataCount() > 0);
    }

    void cancelledRunIsRecordedCancelled()
    {
        CLUSTERDESK_REQUIRE_TEST_HOOKS();
        const testhooks::EndlessRuns endless;
        QVERIFY(gui::test::prepareEndlessRun(*m_station, "blobs:n=200000,d=8,k=64,spread=4", 64));
        QSignalSpy finished(m_station.get(), &Workstation::runFinished);
        QVERIFY(waitRefreshed([&] {
            m_station->window().runAction()->trigger();
            QTRY_VERIFY_WITH_TIMEOUT(m_station->window().liveRun().iterations().size() >= 2, 60000);
            m_station->window().cancelAction()->trigger();
            QVERIFY(finished.wait(30000));
        }));
        QVERIFY(finished.front().front().value<ui::RunOutcome>().cancelled);
        store::RunFilter cancelled;
        cancelled.status = store::RunStatus::Cancelled;
        const auto listed = store::RunStore(m_db.toStdString()).listRuns(cancelled);
        QCOMPARE(listed.size(), std::size_t(1));
        QVERIFY2(QString::fromStdString(listed.front().failure).contains("cancelled"), listed.front().failure.c_str());
        view().proxy().setStatus("cancelled");
        QCOMPARE(view().proxy().rowCount(), 1);
        view().proxy().setStatus("");
    }

    void liveUpdateShowsItsWindowFromTheRecord()
    {
        // An update of a live session recorded by the CLI: its window came from the feed,
        // and the History tab rebuilds it from the session's recorded input.
        FeedProcess feed({"--demo", "market:assets=40,sectors=4", "--speed", "20"});
        QVERIFY2(feed.started && feed.webSocketUrl().isValid(), qPrintable(feed.log()));
        const CliResult cli = runCli({"live", "--feed", feed.webSocketUrl().toString(), "--k", "4", "--window", "10",
                                      "--updates", "2", "--json", "-", "--db", m_db});
        QVERIFY2(cli.exitCode == 0, qPrintable(cli.err));
        const QString update = QJsonDocument::fromJson(cli.out.split('\n')[1].toUtf8()).object()["run"].toString();
        QVERIFY(!update.isEmpty());
        QVERIFY(waitRefreshed([&] { view().refreshButton().click(); }));
        m_station->window().liveRun().beginRun(0, 1);
        m_station->window().liveRun().finish({});
        QSignalSpy loaded(m_station->history(), &HistoryController::runShown);
        QVERIFY(view().selectRun(update));
        QVERIFY(loaded.wait(30000));
        QVERIFY2(!view().detail().contains("cannot"), qPrintable(view().detail()));
        auto* clusters = m_station->window().findChild<ui::ClustersPlot*>();
        QCOMPARE(clusters->pointCount(), 40);  // every asset of the demo has a full window
        QCOMPARE(clusters->centroidCount(), 4);
    }

private:
    // Three separated groups of 2-D points, scaled.
    static bool writePoints(const QString& path, double scale)
    {
        QFile file(path);
        if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate)) return false;
        QTextStream out(&file);
        out << "x,y\n";
        for (int i = 0; i < 300; ++i)
            out << scale * (10 * (i % 3) + (i % 7) * 0.1) << ',' << scale * (5 * (i % 3) + (i % 5) * 0.1) << '\n';
        return true;
    }

    ui::HistoryView& view() { return m_station->history()->view(); }

    QString cell(int row, int column) const
    {
        auto& model = m_station->history()->view().model();
        return model.index(row, column).data().toString();
    }

    // Does what, then waits for the History table's next refresh.
    template <typename F>
    bool waitRefreshed(F what)
    {
        QSignalSpy refreshed(m_station->history(), &HistoryController::refreshed);
        what();
        return !refreshed.isEmpty() || refreshed.wait(60000);
    }

    QString treeText()
    {
        QStringList lines;
        ui::LineageView& tree = view().lineage();
        for (QTreeWidgetItemIterator it(&tree); *it; ++it) lines << (*it)->text(0) + " | " + (*it)->text(1) + " | " + (*it)->text(2);
        return lines.join('\n');
    }

    const QTreeWidgetItem* findItem(const QString& text)
    {
        ui::LineageView& tree = view().lineage();
        for (QTreeWidgetItemIterator it(&tree); *it; ++it)
            if ((*it)->text(0) == text) return *it;
        return nullptr;
    }

    QTemporaryDir m_settings;
    QTemporaryDir m_dir;
    QString m_db;
    std::unique_ptr<Workstation> m_station;
    QString m_first, m_second;
};

QTEST_MAIN(TestGuiHistory)
#include "test_gui_history.moc"
