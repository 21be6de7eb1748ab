#include "history_controller.h"

#include "cluster_projection.h"
#include "stored_run.h"

#include "app/report/report_writer.h"

#include "engine/cluster/metrics.h"
#include "engine/core/error.h"
#include "engine/session/run_record.h"
#include "engine/store/run_codec.h"
#include "engine/stream/recorded_data.h"
#include "ui/file_dialog.h"
#include "ui/history/compare_dialog.h"
#include "ui/history/history_view.h"
#include "ui/history/lineage_view.h"
#include "ui/main_window.h"
#include "ui/members/members_view.h"
#include "ui/panels/data_panel.h"
#include "ui/panels/engine_panel.h"

#include <QApplication>
#include <QFileDialog>
#include <QFileInfo>
#include <QStatusBar>
#include <QTabWidget>

namespace clusterdesk::gui {
namespace {

QString shortId(const std::string& id)
{
    return QString::fromStdString(id).left(8);
}

// The data a recorded run read: the window's dataset when it is the same (values and
// row names; no need to regenerate or reload), else regenerated, reloaded or (a live
// update's window) replayed from the record.
std::shared_ptr<const Dataset> datasetOf(const store::RunStore& store, const store::RunInfo& run,
                                         const std::shared_ptr<const Dataset>& current)
{
    if (current && session::whyNotTheData(run, *current).empty()) return current;
    return std::make_shared<const Dataset>(stream::openRecordedData(store, run));
}

// The Clusters graph and the Members table of a recorded run, or why there are none.
struct StoredClusters {
    std::optional<ui::ClusterProjection> projection;
    std::shared_ptr<const report::Membership> members;
    QString why;
};

StoredClusters clustersOf(const store::RunStore& store, const store::RunRecord& record, const std::shared_ptr<const Dataset>& current)
{
    if (record.labels.empty())
        return {std::nullopt, nullptr,
                record.artifactsCollected ? QObject::tr("its labels were removed by garbage collection")
                                          : QObject::tr("it ended %1 without labels").arg(QString::fromStdString(store::toString(record.info.status)))};
    try {
        const std::shared_ptr<const Dataset> data = datasetOf(store, record.info, current);
        if (static_cast<std::int64_t>(record.labels.size()) != data->rows)
            return {std::nullopt, nullptr, QObject::tr("it labelled %1 rows, the dataset has %2").arg(record.labels.size()).arg(data->rows)};
        ClusterResult result;
        result.k = record.k;
        result.cols = record.cols;
        result.centroids = record.centroids;
        result.labels = record.labels;
        return {projectClusters(*data, result),
                std::make_shared<const report::Membership>(report::membershipOf(*data, record.labels, record.centroids, record.k)), QString()};
    } catch (const std::exception& e) {
        return {std::nullopt, nullptr, QString::fromStdString(e.what())};
    }
}

}  // namespace

// Owns the store connection of the store thread (a RunStore belongs to one thread).
class HistoryController::Worker : public QObject {
public:
    explicit Worker(std::string path)
        : m_path(std::move(path))
    {
    }
    // lost: set, on the first open, to what the file lost since this machine last
    // wrote it (empty when nothing).
    store::RunStore& store(std::string* lost = nullptr)
    {
        if (!m_store) {
            m_store = std::make_unique<store::RunStore>(m_path);
            if (lost) *lost = m_store->lostOnOpen();
        }
        return *m_store;
    }

private:
    std::string m_path;
    std::unique_ptr<store::RunStore> m_store;
};

HistoryController::HistoryController(ui::MainWindow& window, const QString& storePath, QObject* parent)
    : QObject(parent)
    , m_window(window)
    , m_storePath(storePath)
{
    m_view = new ui::HistoryView;
    m_window.addTab(m_view, tr("History"));
    m_worker = new Worker(storePath.toStdString());
    m_worker->moveToThread(&m_thread);
    connect(&m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
    m_thread.setObjectName("store");
    m_thread.start();

    connect(m_view, &ui::HistoryView::refreshRequested, this, &HistoryController::refresh);
    connect(m_view, &ui::HistoryView::runSelected, this, &HistoryController::showRun);
    connect(m_view, &ui::HistoryView::rerunRequested, this, &HistoryController::rerun);
    connect(m_view, &ui::HistoryView::deleteRequested, this, &HistoryController::deleteRun);
    connect(m_view, &ui::HistoryView::compareRequested, this, &HistoryController::compare);
    connect(m_view, &ui::HistoryView::reportRequested, this, [this](const QStringList& ids) { exportReport(ids); });
    connect(&m_window, &ui::MainWindow::exportReportRequested, this, [this] {
        const QStringList ids = m_view->selectedRunIds();
        if (ids.isEmpty()) {
            m_window.tabs().setCurrentWidget(m_view);
            m_view->setDetail(tr("Select the runs to report (Ctrl+click for several), then Export report again."));
            return;
        }
        exportReport(ids);
    });
    connect(this, &HistoryController::failed, m_view, &ui::HistoryView::setDetail);
    // Runs recorded by the CLI meanwhile show up whenever the tab is opened.
    connect(&m_window.tabs(), &QTabWidget::currentChanged, this, [this] {
        if (m_window.tabs().currentWidget() == m_view) refresh();
    });
    refresh();
}

HistoryController::~HistoryController()
{
    m_thread.quit();
    m_thread.wait();
}

void HistoryController::post(std::function<void()> then)
{
    QMetaObject::invokeMethod(this, std::move(then));
}

void HistoryController::onStore(const QString& doing, std::function<void(store::RunStore&)> work)
{
    QMetaObject::invokeMethod(m_worker, [this, worker = m_worker, doing, work = std::move(work)] {
        try {
            work(worker->store());
        } catch (const std::exception& e) {
            const QString message = QString("%1: %2").arg(doing, QString::fromStdString(e.what()));
            post([this, message] { emit failed(message); });
        }
    });
}

void HistoryController::prepare(RunJob& job)
{
    job.storePath = m_storePath;
    if (m_pendingRerun && m_pendingRerun->data == job.data) {
        job.params = m_pendingRerun->params;
        job.topology = QString::fromStdString(m_pendingRerun->topology);
        job.threads = m_pendingRerun->threads;
        job.parents = {{"run", m_pendingRerun->fromRunId, "run", "", "rerun", ""}};
    }
    m_runningRerunOf = m_pendingRerun && m_pendingRerun->data == job.data ? QString::fromStdString(m_pendingRerun->fromRunId) : QString();
    m_pendingRerun.reset();
}

void HistoryController::refresh()
{
    // Opened first by this check, so what the file lost is shown once, before the list.
    if (!m_warnedLost) {
        m_warnedLost = true;
        QMetaObject::invokeMethod(m_worker, [this, worker = m_worker] {
            std::string lost;
            try {
                worker->store(&lost);
            } catch (const std::exception&) {
                return;  // the listing below says why the store cannot be opened
            }
            if (lost.empty()) return;
            const QString warning = tr("Warning: %1: %2").arg(m_storePath, QString::fromStdString(lost));
            post([this, warning] {
                m_view->setDetail(warning);
                m_window.statusBar()->showMessage(warning);
            });
        });
    }
    store::RunFilter filter;
    filter.includeDeleted = m_view->showsDeleted();
    onStore(tr("Cannot list the runs in %1").arg(m_storePath), [this, filter](store::RunStore& s) {
        auto runs = std::make_shared<std::vector<store::RunInfo>>(s.listRuns(filter));
        post([this, runs] {
            m_view->setRuns(std::move(*runs));
            emit refreshed();
        });
    });
}

void HistoryController::runRecorded(const QString& runId)
{
    refresh();
    const QString original = std::exchange(m_runningRerunOf, QString());
    if (original.isEmpty()) return;
    onStore(tr("Cannot compare the re-run with %1").arg(shortId(original.toStdString())), [this, runId, original](store::RunStore& s) {
        const store::RunRecord before = s.loadRun(original.toStdString());
        const store::RunRecord after = s.loadRun(runId.toStdString());
        QString message;
        if (after.info.status != store::RunStatus::Ok) {
            message = tr("The re-run of %1 did not finish (%2).").arg(shortId(before.info.id), QString::fromStdString(store::toString(after.info.status)));
        } else if (before.labels.empty() || before.labels.size() != after.labels.size()) {
            message = tr("The re-run of %1 cannot be compared: the original's labels are not stored.").arg(shortId(before.info.id));
        } else if (before.labels == after.labels && before.centroids == after.centroids) {
            message = tr("The re-run of %1 reproduced it bit for bit (labels and centroids).").arg(shortId(before.info.id));
        } else {
            const double ari = adjustedRandIndex(before.labels, after.labels);
            message = after.info.mode == "exact"
                          ? tr("The re-run of %1 did NOT reproduce it in exact mode: ARI %2 against the original.").arg(shortId(before.info.id)).arg(ari, 0, 'f', 6)
                          : tr("The re-run of %1 (fast mode): ARI %2 against the original.").arg(shortId(before.info.id)).arg(ari, 0, 'f', 6);
        }
        post([this, message] {
            m_view->setDetail(message);
            m_window.statusBar()->showMessage(message, 15000);
            emit rerunChecked(message);
        });
    });
}

void HistoryController::showRun(const QString& runId)
{
    if (m_window.liveRun().running()) {
        m_view->setDetail(tr("A run is in progress: select run %1 again when it has ended to see its graphs.").arg(runId.left(8)));
        return;
    }
    m_view->setDetail(tr("Loading run %1...").arg(runId.left(8)));
    onStore(tr("Cannot load run %1").arg(runId.left(8)), [this, runId, current = m_window.dataset()](store::RunStore& s) {
        auto record = std::make_shared<store::RunRecord>(s.loadRun(runId.toStdString()));
        auto [projection, members, why] = clustersOf(s, *record, current);
        record->labels = {};  // the window needs only the projection and the members
        post([this, runId, record, projection = std::move(projection), members = std::move(members), why] {
            m_view->lineage().showRun(record->info, record->lineage);
            if (m_window.liveRun().running()) {
                m_view->setDetail(tr("A run is in progress: select run %1 again when it has ended to see its graphs.").arg(runId.left(8)));
                return;
            }
            replayRun(m_window.liveRun(), *record, projection);
            m_window.membersView().setMembership(members, tr("Run %1").arg(shortId(record->info.id)));
            m_window.refreshAll();
            QString detail = tr("Run %1 (%2, %3 iterations) loaded from the store.")
                                 .arg(shortId(record->info.id), QString::fromStdString(store::toString(record->info.status)))
                                 .arg(record->iterations.size());
            if (!projection) {
                const QString clusters = tr("The Clusters tab cannot show run %1: %2.").arg(shortId(record->info.id), why);
                detail += " " + clusters;
                m_window.statusBar()->showMessage(clusters, 15000);
            }
            m_view->setDetail(detail);
            emit runShown(runId);
        });
    });
}

void HistoryController::rerun(const QString& runId)
{
    if (m_window.liveRun().running()) {
        m_view->setDetail(tr("A run is in progress: re-run %1 when it has ended.").arg(runId.left(8)));
        return;
    }
    m_view->setDetail(tr("Preparing the re-run of %1...").arg(runId.left(8)));
    onStore(tr("Cannot re-run %1").arg(runId.left(8)), [this, runId, current = m_window.dataset()](store::RunStore& s) {
        const store::RunRecord record = s.loadRun(runId.toStdString());
        const store::RunInfo& info = record.info;
        if (info.status == store::RunStatus::Running) throw UsageError("it is still running");
        // Its window can be rebuilt, but the update depended on the session before it.
        if (info.dataSource.source == kLiveSource)
            throw UsageError("it is an update of a live session, which `clusterdesk-cli runs rerun` replays from its first update");
        Rerun rerun{info.id, store::paramsFromJson(info.paramsJson), info.topology, info.threads, datasetOf(s, info, current)};
        if (rerun.params.init == InitMethod::Given) {
            if (record.initialCentroids.empty()) throw UsageError("it started from given centroids that are no longer stored");
            rerun.params.initialCentroids = record.initialCentroids;
        }
        post([this, rerun] {
            // The Engine panel stays as the user left it: the re-run takes the record's
            // parameters (prepare), not the panel's.
            if (m_window.dataset() != rerun.data) m_window.setDataset(rerun.data);
            m_pendingRerun = rerun;
            m_view->setDetail(tr("Re-running %1 on %2.").arg(shortId(rerun.fromRunId), QString::fromStdString(rerun.topology)));
            emit rerunReady();
        });
    });
}

void HistoryController::deleteRun(const QString& runId)
{
    onStore(tr("Cannot delete run %1").arg(runId.left(8)), [this, runId](store::RunStore& s) {
        s.deleteRun(runId.toStdString());
        post([this, runId] {
            m_view->setDetail(tr("Run %1 deleted.").arg(runId.left(8)));
            emit deleted(runId);
            refresh();
        });
    });
}

void HistoryController::compare(const QString& first, const QString& second)
{
    onStore(tr("Cannot compare %1 with %2").arg(first.left(8), second.left(8)), [this, first, second](store::RunStore& s) {
        auto a = std::make_shared<store::RunRecord>(s.loadRun(first.toStdString()));
        auto b = std::make_shared<store::RunRecord>(s.loadRun(second.toStdString()));
        std::optional<double> ari;
        const QString why = QString::fromStdString(session::whyLabelsNotComparable(*a, *b));
        if (why.isEmpty()) ari = adjustedRandIndex(a->labels, b->labels);
        s.addEdge({"run", a->info.id, "run", b->info.id, "compared_with", ""});
        a->labels = {};  // the window needs only the iterations and telemetry
        b->labels = {};
        post([this, first, second, a, b, ari, why] {
            if (!m_compare) m_compare = new ui::CompareDialog(&m_window);
            // The dialog's graph overlays the two stored runs, named as its table's columns.
            ui::RunSet& runs = m_compare->runs();
            while (runs.size() > 0) runs.remove(runs.at(0).id());
            replayRun(runs.add("first", tr("run %1").arg(shortId(a->info.id))), *a, std::nullopt);
            replayRun(runs.add("second", tr("run %1").arg(shortId(b->info.id))), *b, std::nullopt);
            m_compare->showRuns(a->info, b->info, ari, why);
            m_compare->show();
            m_compare->raise();
            emit compared(first, second);
        });
    });
}

void HistoryController::exportReport(const QStringList& runIds, const QString& path)
{
    QString out = path;
    if (out.isEmpty()) {
        QFileDialog* dialog = ui::makeFileDialog(&m_window, tr("Export report"), tr("HTML report (*.html);;PDF report (*.pdf)"));
        dialog->setAcceptMode(QFileDialog::AcceptSave);
        dialog->selectFile(QString("report-%1.html").arg(runIds.front().left(8)));
        if (dialog->exec() == QDialog::Accepted && !dialog->selectedFiles().isEmpty()) out = dialog->selectedFiles().front();
        const bool pdf = dialog->selectedNameFilter().contains("pdf");
        delete dialog;
        if (out.isEmpty()) return;
        if (QFileInfo(out).suffix().isEmpty()) out += pdf ? ".pdf" : ".html";
    }
    report::ReportRequest request;
    for (const QString& id : runIds) request.runs.push_back(id.toStdString());
    request.out = out.toStdString();
    m_window.statusBar()->showMessage(tr("Writing the report %1...").arg(out));
    QApplication::setOverrideCursor(Qt::WaitCursor);
    try {
        store::RunStore runStore(m_storePath.toStdString());
        const report::WrittenReport written = report::writeReport(runStore, request);
        QApplication::restoreOverrideCursor();
        m_window.statusBar()->showMessage(tr("Report written to %1 and recorded in the store (SHA-256 %2...)").arg(out, QString::fromStdString(written.sha256).left(16)), 15000);
        refresh();
        emit reportExported(out);
    } catch (const std::exception& e) {
        QApplication::restoreOverrideCursor();
        const QString message = tr("Cannot write the report %1: %2").arg(out, QString::fromStdString(e.what()));
        m_window.statusBar()->showMessage(message, 15000);
        emit failed(message);
    }
}

}  // namespace clusterdesk::gui
