// The window never breaks the run store it holds open. Closing any descriptor of a file
// drops every POSIX lock the process holds on it, and SQLite relies on those locks; so
// nothing in the GUI process but the store's own connections may open the store's
// files. Here the Open data dialog lists the store's folder while another process
// writes runs into the store, and inotify watches which files are opened meanwhile.
#include "cli_runner.h"
#include "gui_test_support.h"

#include "ui/error_banner.h"
#include "ui/plots/plot_view.h"

#include "app/gui/history_controller.h"
#include "app/gui/run_controller.h"
#include "ui/history/history_view.h"
#include "ui/history/run_table_model.h"
#include "ui/panels/data_panel.h"

#include <QFileDialog>
#include <QFileSystemModel>
#include <QLabel>
#include <QStatusBar>

#include <sys/inotify.h>
#include <unistd.h>

#include <sqlite3.h>

using namespace clusterdesk;
using namespace clusterdesk::gui;

namespace {

const QString kDemo = "blobs:n=3000,d=8,k=5,seed=3";

// The names of the files in one folder that were opened or closed since the watch began.
class OpenWatch {
public:
    explicit OpenWatch(const QString& folder)
        : m_fd(inotify_init1(IN_NONBLOCK | IN_CLOEXEC))
    {
        if (m_fd >= 0) inotify_add_watch(m_fd, QFile::encodeName(folder).constData(), IN_OPEN | IN_CLOSE);
    }
    ~OpenWatch()
    {
        if (m_fd >= 0) ::close(m_fd);
    }
    bool valid() const { return m_fd >= 0; }

    QStringList touched()
    {
        QStringList names;
        alignas(inotify_event) char buffer[8192];
        ssize_t n;
        while ((n = ::read(m_fd, buffer, sizeof buffer)) > 0) {
            for (char* p = buffer; p < buffer + n;) {
                const auto* event = reinterpret_cast<const inotify_event*>(p);
                if (event->len > 0) names << QString::fromUtf8(event->name);
                p += sizeof(inotify_event) + event->len;
            }
        }
        names.removeDuplicates();
        return names;
    }

private:
    int m_fd;
};

QStringList storeFilesIn(const QStringList& names)
{
    QStringList store;
    for (const QString& name : names)
        if (name.startsWith("runs.sqlite")) store << name;
    return store;
}

QString integrity(const QString& db)
{
    sqlite3* handle = nullptr;
    QString result = "cannot open";
    if (sqlite3_open_v2(db.toUtf8().constData(), &handle, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK) {
        sqlite3_stmt* statement = nullptr;
        if (sqlite3_prepare_v2(handle, "PRAGMA integrity_check", -1, &statement, nullptr) == SQLITE_OK && sqlite3_step(statement) == SQLITE_ROW)
            result = QString::fromUtf8(reinterpret_cast<const char*>(sqlite3_column_text(statement, 0)));
        sqlite3_finalize(statement);
    }
    sqlite3_close(handle);
    return result;
}

}  // namespace

class TestGuiStoreSafety : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { test::isolateSettings(m_settings); }

    void theOpenDialogOnTheStoresFolderLeavesTheStoreWhole()
    {
        QTemporaryDir dir;
        const QString db = dir.filePath("runs.sqlite");
        QFile data(dir.filePath("points.csv"));
        QVERIFY(data.open(QIODevice::WriteOnly));
        data.write("x,y\n1,2\n3,4\n5,6\n");
        data.close();

        Workstation station(db);
        station.window().show();
        QSignalSpy recordFailures(&station.controller(), &RunController::recordFailed);
        QSignalSpy listed(station.history(), &HistoryController::refreshed);
        QVERIFY(listed.wait(30000));
        QVERIFY(test::loadDemo(station, kDemo));
        const auto first = test::runToEnd(station);
        QVERIFY(first && first->error.isEmpty());
        QVERIFY(QFile::exists(db + "-wal") && QFile::exists(db + "-shm"));  // the window holds the store open
        // No graph of any tab is exported over the store, whatever name reaches it.
        QVERIFY(QFile::link(db, dir.filePath("store.png")));
        const QList<ui::PlotView*> plots = station.window().findChildren<ui::PlotView*>();
        QVERIFY(plots.size() >= 8);  // the run graphs, the live ones, the comparison's
        for (ui::PlotView* plot : plots) {
            QString error;
            QVERIFY(!plot->exportTo(dir.filePath("store.png"), &error));
            QVERIFY2(error.contains("would overwrite the run store"), qPrintable(plot->objectName() + ": " + error));
        }
        QVERIFY(QFile::remove(dir.filePath("store.png")));  // the link only; the dialog below lists the folder as it was
        // The member list is never exported over the store or one of its files.
        for (const QString& out : {db, db + "-wal"}) {
            QVERIFY(!station.exportMembers(out));
            QVERIFY2(station.window().errorBanner().message().contains("would overwrite the run store"),
                     qPrintable(station.window().errorBanner().message()));
        }

        // The dialog lists the folder, icons and types included, as a person sees it.
        OpenWatch watch(dir.path());
        QVERIFY(watch.valid());
        station.window().dataPanel().openDialog();
        auto* dialog = station.window().findChild<QFileDialog*>("openDataDialog");
        QVERIFY(dialog && dialog->isVisible());
        dialog->selectNameFilter("All files (*)");
        dialog->setDirectory(dir.path());
        auto* model = dialog->findChild<QFileSystemModel*>();
        QVERIFY(model);
        const QModelIndex folder = model->index(dir.path());
        QTRY_VERIFY_WITH_TIMEOUT(model->rowCount(folder) >= 4, 30000);  // points.csv and the store's three files
        for (int row = 0; row < model->rowCount(folder); ++row) {
            model->data(model->index(row, 0, folder), Qt::DecorationRole);
            model->data(model->index(row, 2, folder), Qt::DisplayRole);  // the Type column
        }
        // Typed by name (ui/file_dialog.cpp), not by sniffing the content.
        QTRY_COMPARE_WITH_TIMEOUT(model->data(model->index(db + "-wal", 2)).toString(), QString("SQLITE-WAL File"), 30000);
        QTest::qWait(300);
        QCOMPARE(storeFilesIn(watch.touched()), QStringList());

        // Choosing the store itself as data is refused without opening it.
        station.window().dataPanel().chooseFile(db + "-wal");
        auto* layout = station.window().dataPanel().findChild<QLabel*>("detectedLayout");
        QVERIFY(layout);
        QTRY_VERIFY_WITH_TIMEOUT(layout->text().contains("run store"), 30000);
        QCOMPARE(storeFilesIn(watch.touched()), QStringList());

        // With the dialog still open, another process writes runs into the store...
        for (int i = 0; i < 3; ++i) {
            const CliResult r = runCli({"run", "--demo", "blobs:n=300,d=2,k=3,seed=" + QString::number(i), "--k", "3", "--db", db});
            QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        }
        // ...and the window still records its own and reads every run.
        const auto last = test::runToEnd(station);
        QVERIFY(last && last->error.isEmpty());
        QVERIFY2(recordFailures.isEmpty(), qPrintable(recordFailures.isEmpty() ? QString() : recordFailures.front().front().toString()));
        QSignalSpy refreshed(station.history(), &HistoryController::refreshed);
        station.history()->refresh();
        QVERIFY(refreshed.wait(30000));
        QCOMPARE(station.history()->view().model().rowCount(), 5);
        dialog->reject();
        QCOMPARE(integrity(db), QString("ok"));
        const CliResult verify = runCli({"runs", "verify", "--db", db});
        QVERIFY2(verify.exitCode == 0, qPrintable(verify.out + verify.err));
    }

    // A store whose -wal file was lost (committed runs gone) says so when the window
    // opens it: in the History tab and the status bar, before anything is added to it.
    void aLostWalIsShownWhenTheWindowOpensTheStore()
    {
        QTemporaryDir dir;
        const QString db = dir.filePath("runs.sqlite");
        QCOMPARE(runCli({"run", "--demo", "blobs:n=200,d=2,k=2", "--k", "2", "--db", db}).exitCode, 0);
        // This process keeps the file open, so the next run's commit stays in the -wal.
        sqlite3* holder = nullptr;
        QCOMPARE(sqlite3_open(db.toUtf8().constData(), &holder), SQLITE_OK);
        QCOMPARE(sqlite3_exec(holder, "SELECT count(*) FROM runs", nullptr, nullptr, nullptr), SQLITE_OK);
        QCOMPARE(runCli({"run", "--demo", "blobs:n=200,d=2,k=2", "--k", "2", "--db", db}).exitCode, 0);
        const QString lost = dir.filePath("lost-wal.sqlite");
        const bool copied = QFile::copy(db, lost) && QFile::copy(db + ".chain-head", lost + ".chain-head");
        sqlite3_close(holder);
        QVERIFY(copied);

        Workstation station(lost);
        QVERIFY(station.history());
        QTRY_VERIFY_WITH_TIMEOUT(station.history()->view().detail().contains("1 chained record was lost"), 30000);
        QVERIFY(station.window().statusBar()->currentMessage().contains("lost"));
    }

private:
    QTemporaryDir m_settings;
};

QTEST_MAIN(TestGuiStoreSafety)
#include "test_gui_store_safety.moc"
