// The run store on real SQLite files: schema creation, migration from a file written by
// each earlier schema version (fixtures/schema_v1.sql .. schema_v3.sql), a full round trip of a run with all its
// parts, interrupted runs (and owners that cannot be identified), orderings that tie on
// start time, results with NaN refused as ok, the read-only open, the chain (verify passes
// on a clean store and names the record behind each tampering: an edit, an edit re-sealed
// without the key, the datasets table, a deletion or edge made outside the store, a lost
// -wal file, a missing key), tombstones and gc, and user text that looks like SQL.
#include "engine/core/sha256.h"
#include "engine/store/process_owner.h"
#include "engine/store/run_chain.h"
#include "engine/store/run_codec.h"
#include "engine/store/run_store.h"
#include "engine/store/sqlite_db.h"
#include "engine/store/store_path.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <sqlite3.h>

#include <nlohmann/json.hpp>

#include <cstdlib>
#include <limits>

using namespace clusterdesk;
using namespace clusterdesk::store;

namespace {

const std::string kInjection = "'; DROP TABLE runs; --";

// Runs SQL on the file with the plain C API, outside the store (as another tool would).
void execSql(const QString& path, const QByteArray& sql)
{
    sqlite3* db = nullptr;
    QCOMPARE(sqlite3_open(path.toUtf8().constData(), &db), SQLITE_OK);
    char* error = nullptr;
    const int rc = sqlite3_exec(db, sql.constData(), nullptr, nullptr, &error);
    const QString message = error ? error : "";
    sqlite3_free(error);
    sqlite3_close(db);
    QVERIFY2(rc == SQLITE_OK, qPrintable(message));
}

QString queryText(const QString& path, const char* sql)
{
    sqlite3* db = nullptr;
    sqlite3_open(path.toUtf8().constData(), &db);
    sqlite3_stmt* stmt = nullptr;
    QString out;
    if (sqlite3_prepare_v2(db, sql, -1, &stmt, nullptr) == SQLITE_OK && sqlite3_step(stmt) == SQLITE_ROW)
        out = QString::fromUtf8(reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0)));
    sqlite3_finalize(stmt);
    sqlite3_close(db);
    return out;
}

NewRun newRun(const std::string& source = "blobs:n=6,d=2,k=2,seed=7,spread=1")
{
    NewRun run;
    run.dataset = {std::string(64, 'a'), {"demo", source, {}}, "matrix", 6, 2, ""};
    run.params.k = 2;
    run.params.mode = kernels::Mode::Exact;
    run.params.seed = 18446744073709551615ull;  // the largest seed survives the round trip
    run.topology = "shards:2";
    run.threads = 2;
    return run;
}

RunOutcome outcome()
{
    RunOutcome o;
    o.backend = "host";
    o.devices = {"host cpu (2 threads)"};
    o.metricsJson = R"({"inertia":1.25,"iterations":2,"k":2})";
    o.energyJ = 3.5;
    o.energySource = "estimated";
    IterationStats first;
    first.iteration = 1;
    first.k = 2;
    first.inertia = 4.0;
    first.assignMs = 0.25;
    first.rowsSearched = 6;
    first.sizes = {3, 3};
    IterationStats second = first;
    second.iteration = 2;
    second.inertia = 1.25;
    second.event = "converged";
    second.ranks = {{0.25, 0.5, 1.0}, {0.3, 0.4, 0.125}};  // a two-shard iteration
    o.iterations = {first, second};
    o.telemetry = {{0.0, "cpu package 0", 10.5, "estimated"}, {0.1, "cpu package 0", 11.0, "estimated"}};
    o.k = 2;
    o.cols = 2;
    o.centroids = {0.5f, 1.0f, 5.0f, 5.5f};
    o.labels = {0, 0, 0, 1, 1, 1};
    return o;
}

// Makes `path` a database as schema version `version` wrote it, from its fixture file.
void loadFixture(int version, const QString& path)
{
    QFile fixture(QString(CLUSTERDESK_SOURCE_DIR "/tests/engine/store/fixtures/schema_v%1.sql").arg(version));
    QVERIFY2(fixture.open(QIODevice::ReadOnly), qPrintable(fixture.fileName()));
    execSql(path, fixture.readAll());
    QCOMPARE(queryText(path, "PRAGMA user_version"), QString::number(version));
}

}  // namespace

class TestRunStore : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString file(const QString& name) const { return m_dir.filePath(name); }

private slots:
    void initTestCase()
    {
        // The chain key of these stores, in the test's own folder (never the user's).
        qputenv("CLUSTERDESK_CHAIN_KEY", file("keys/chain.key").toUtf8());
    }

    void freshFileHasTheLatestSchema()
    {
        const QString path = file("fresh/runs.sqlite");  // the directory is created too
        RunStore runStore(path.toStdString());
        QCOMPARE(runStore.schemaVersion(), RunStore::kSchemaVersion);
        QCOMPARE(queryText(path, "PRAGMA journal_mode"), QString("wal"));
        for (const char* table : {"datasets", "runs", "iterations", "telemetry", "artifacts", "lineage"}) {
            const QString sql = QString("SELECT name FROM sqlite_master WHERE type='table' AND name='%1'").arg(table);
            QCOMPARE(queryText(path, sql.toUtf8().constData()), QString(table));
        }
        QVERIFY(runStore.listRuns().empty());
        QVERIFY(runStore.verify().ok);
    }

    void migratesAVersion1File()
    {
        const QString path = file("v1.sqlite");
        loadFixture(1, path);
        if (QTest::currentTestFailed()) return;

        RunStore runStore(path.toStdString());
        QCOMPARE(runStore.schemaVersion(), RunStore::kSchemaVersion);
        QCOMPARE(runStore.interruptedOnOpen(), 1);  // the v1 row left running has no live owner
        RunFilter all;
        all.sort = RunSort::Started;
        all.descending = false;
        const std::vector<RunInfo> runs = runStore.listRuns(all);
        QCOMPARE(runs.size(), std::size_t(3));
        QVERIFY(runs[0].status == RunStatus::Ok);
        QCOMPARE(runs[1].failure, std::string("no CUDA device"));
        QVERIFY(runs[2].status == RunStatus::Failed);
        QCOMPARE(runs[2].failure, std::string(kInterrupted));

        const RunRecord first = runStore.loadRun("11111111-1111-4111-8111-111111111111");
        QCOMPARE(first.info.dataSource.location, "blobs:n=4,d=2,k=2,seed=7,spread=1" + kInjection);
        QCOMPARE(first.labels, (std::vector<std::int32_t>{0, 1, 1, 0}));
        QCOMPARE(first.centroids, (std::vector<float>{0.5f, 1.0f, 5.0f, 5.5f}));
        QCOMPARE(first.iterations.size(), std::size_t(2));
        QCOMPARE(first.iterations[1].sizes, (std::vector<std::int64_t>{2, 2}));
        QVERIFY(paramsFromJson(first.info.paramsJson).mode == kernels::Mode::Exact);
        QCOMPARE(first.lineage.size(), std::size_t(1));
        QCOMPARE(first.lineage[0].relation, std::string("input"));
        // Runs finished under v1 were chained by the migration, the interrupted one after.
        const VerifyReport report = runStore.verify();
        QVERIFY2(report.ok, report.problem.c_str());
        QCOMPARE(report.records, std::int64_t(3));
        // Records sealed before keyed sealing keep their plain SHA-256 and are counted as
        // such; the run interrupted on this open is sealed with the key.
        QCOMPARE(report.plainRecords, std::int64_t(2));
    }

    void migratesAVersion2File()
    {
        const QString path = file("v2.sqlite");
        loadFixture(2, path);
        if (QTest::currentTestFailed()) return;

        RunStore runStore(path.toStdString());
        QCOMPARE(runStore.schemaVersion(), RunStore::kSchemaVersion);
        // The killed run belongs to another host: its process table cannot be seen from
        // here, so it is never marked interrupted.
        QCOMPARE(runStore.interruptedOnOpen(), 0);
        RunFilter oldestFirst;
        oldestFirst.descending = false;
        const std::vector<RunInfo> runs = runStore.listRuns(oldestFirst);
        QCOMPARE(runs.size(), std::size_t(5));
        QVERIFY(runs[2].status == RunStatus::Failed);
        QVERIFY(runs[4].status == RunStatus::Running);
        QCOMPARE(runs[4].host, std::string("fixture-host"));

        const RunRecord exact = runStore.loadRun(runs[0].id);  // raw v2 artifacts still load
        QCOMPARE(exact.labels.size(), std::size_t(12));
        QCOMPARE(exact.k, 3);
        QVERIFY(!exact.telemetry.empty());
        const RunRecord warm = runStore.loadRun(runs[3].id);
        QCOMPARE(warm.initialCentroids, exact.centroids);
        QCOMPARE(warm.lineage[1].relation, std::string("warm_start"));
        QCOMPARE(warm.lineage[1].src, exact.info.id);
        VerifyReport report = runStore.verify();
        QVERIFY2(report.ok, report.problem.c_str());
        QCOMPARE(report.records, std::int64_t(4));
        QCOMPARE(report.plainRecords, std::int64_t(4));

        // New runs (compressed artifacts) continue the chain, sealed with the key.
        const std::string id = runStore.beginRun(newRun());
        runStore.finishRun(id, outcome());
        QCOMPARE(runStore.loadRun(id).labels, outcome().labels);
        report = runStore.verify();
        QVERIFY2(report.ok, report.problem.c_str());
        QCOMPARE(report.records, std::int64_t(5));
        QCOMPARE(report.plainRecords, std::int64_t(4));
    }

    void migratesAVersion3File()
    {
        const QString path = file("v3.sqlite");
        loadFixture(3, path);
        if (QTest::currentTestFailed()) return;

        RunStore runStore(path.toStdString());
        QCOMPARE(runStore.schemaVersion(), RunStore::kSchemaVersion);
        RunFilter oldestFirst;
        oldestFirst.descending = false;
        const std::vector<RunInfo> runs = runStore.listRuns(oldestFirst);
        QCOMPARE(runs.size(), std::size_t(3));
        QCOMPARE(runs[2].topology, std::string("pool:2"));
        const RunRecord exact = runStore.loadRun(runs[0].id);
        QCOMPARE(exact.labels.size(), std::size_t(12));
        QVERIFY(!exact.iterations.empty());
        QVERIFY(exact.iterations[0].ranks.empty());  // v3 kept no per-rank timings
        VerifyReport report = runStore.verify();
        QVERIFY2(report.ok, report.problem.c_str());
        QCOMPARE(report.records, std::int64_t(3));

        // A new run keeps its ranks' timings and continues the chain.
        const std::string id = runStore.beginRun(newRun());
        runStore.finishRun(id, outcome());
        QCOMPARE(runStore.loadRun(id).iterations[1].ranks.size(), std::size_t(2));
        report = runStore.verify();
        QVERIFY2(report.ok, report.problem.c_str());
        QCOMPARE(report.records, std::int64_t(4));
    }

    void refusesAFileFromANewerSchema()
    {
        const QString path = file("newer.sqlite");
        execSql(path, "PRAGMA user_version = 99;");
        try {
            RunStore runStore(path.toStdString());
            QFAIL("a newer schema was opened");
        } catch (const StoreError& e) {
            QVERIFY(QString(e.what()).contains("newer"));
            QVERIFY(QString(e.what()).contains("newer.sqlite"));
        }
    }

    void roundTripsARunWithAllItsParts()
    {
        RunStore runStore(file("roundtrip.sqlite").toStdString());
        const std::string parent = runStore.beginRun(newRun());
        runStore.finishRun(parent, outcome());

        NewRun run = newRun();
        run.params.init = InitMethod::Given;
        run.params.initialCentroids = {1, 2, 3, 4};
        run.parents = {{"run", parent, "", "", "warm_start", ""}};
        const std::string id = runStore.beginRun(run);
        QVERIFY(runStore.loadRun(id).info.status == RunStatus::Running);
        runStore.finishRun(id, outcome());
        runStore.addEdge({"run", id, "report", "committee-2026-12.pdf", "report", ""});

        const RunRecord r = runStore.loadRun(id);
        QVERIFY(r.info.status == RunStatus::Ok);
        QCOMPARE(r.info.seed, std::string("18446744073709551615"));
        QCOMPARE(paramsFromJson(r.info.paramsJson).seed, run.params.seed);
        QCOMPARE(r.info.topology, std::string("shards:2"));
        QCOMPARE(r.info.threads, 2);
        QCOMPARE(r.info.backend, std::string("host"));
        QCOMPARE(r.info.devices, outcome().devices);
        QCOMPARE(r.info.host, hostName());
        QVERIFY(!r.info.engineVersion.empty());
        QVERIFY(!r.info.endedAt.empty());
        QCOMPARE(r.info.metricsJson, outcome().metricsJson);
        QCOMPARE(*r.info.energyJ, 3.5);
        QCOMPARE(r.info.energySource, std::string("estimated"));
        QCOMPARE(r.dataset.rows, std::int64_t(6));
        QCOMPARE(r.iterations.size(), std::size_t(2));
        QCOMPARE(r.iterations[1].event, std::string("converged"));
        QCOMPARE(r.iterations[0].sizes, (std::vector<std::int64_t>{3, 3}));
        QCOMPARE(r.iterations[0].assignMs, 0.25);
        QVERIFY(r.iterations[0].ranks.empty());
        QCOMPARE(r.iterations[1].ranks.size(), std::size_t(2));
        QCOMPARE(r.iterations[1].ranks[1].updateMs, 0.4);
        QCOMPARE(r.iterations[1].ranks[1].reduceMs, 0.125);
        QCOMPARE(r.telemetry.size(), std::size_t(2));
        QCOMPARE(r.telemetry[1].watts, 11.0);
        QCOMPARE(r.labels, outcome().labels);
        QCOMPARE(r.centroids, outcome().centroids);
        QCOMPARE(r.k, 2);
        QCOMPARE(r.initialCentroids, (std::vector<float>{1, 2, 3, 4}));
        QCOMPARE(r.lineage.size(), std::size_t(3));  // input, warm_start, report
        QCOMPARE(r.lineage[1].src, parent);
        QCOMPARE(r.lineage[2].dst, std::string("committee-2026-12.pdf"));
        QCOMPARE(*r.info.chainSeq, std::int64_t(3));  // after the keyed start (#1) and the parent run (#2)

        // A run cannot be finished twice.
        QVERIFY_THROWS_EXCEPTION(StoreError, runStore.finishRun(id, outcome()));
        // Ids resolve from unique prefixes; unknown ones are a usage error.
        QCOMPARE(runStore.resolveId(id.substr(0, 8)), id);
        QVERIFY_THROWS_EXCEPTION(UsageError, runStore.resolveId("ffffffff-0000"));
        const VerifyReport report = runStore.verify();
        QVERIFY2(report.ok, report.problem.c_str());
        QCOMPARE(report.records, std::int64_t(2));
        QCOMPARE(report.events, std::int64_t(2));  // the keyed start, the report edge
        QCOMPARE(report.plainRecords, std::int64_t(0));
    }

    void listsWithFilterAndSort()
    {
        RunStore runStore(file("list.sqlite").toStdString());
        const std::string a = runStore.beginRun(newRun("blobs:n=6,d=2,k=2,seed=1"));
        runStore.finishRun(a, outcome());
        const std::string b = runStore.beginRun(newRun("market:assets=6"));
        RunOutcome failed;
        failed.status = RunStatus::Failed;
        failed.failure = "device lost";
        runStore.finishRun(b, failed);

        RunFilter filter;
        filter.status = RunStatus::Failed;
        QCOMPARE(runStore.listRuns(filter).size(), std::size_t(1));
        QCOMPARE(runStore.listRuns(filter)[0].failure, std::string("device lost"));
        filter = {};
        filter.text = "MARKET";  // case-insensitive substring
        QCOMPARE(runStore.listRuns(filter).size(), std::size_t(1));
        QCOMPARE(runStore.listRuns(filter)[0].id, b);
        // Both runs begun in the same millisecond (as on a fast machine): the order they
        // were begun in decides, both ways.
        execSql(file("list.sqlite"), "UPDATE runs SET started_at = '2026-01-02T03:04:05.678Z'");
        filter = {};
        filter.sort = RunSort::Started;
        filter.descending = false;
        QCOMPARE(runStore.listRuns(filter)[0].id, a);
        filter.descending = true;
        filter.limit = 1;
        const auto newest = runStore.listRuns(filter);
        QCOMPARE(newest.size(), std::size_t(1));
        QCOMPARE(newest[0].id, b);
    }

    void runsBegunInTheSameMillisecondKeepTheirOrder()
    {
        const QString path = file("ties.sqlite");
        RunStore runStore(path.toStdString());
        std::vector<std::string> begun;
        for (int i = 0; i < 6; ++i) begun.push_back(runStore.beginRun(newRun()));
        // Run ids are random, so an order that fell back to the id would shuffle these.
        execSql(path, "UPDATE runs SET started_at = '2026-01-02T03:04:05.678Z'");
        for (RunSort sort : {RunSort::Started, RunSort::Algorithm, RunSort::Status}) {
            RunFilter filter;
            filter.sort = sort;
            filter.descending = true;
            std::vector<std::string> listed;
            for (const RunInfo& run : runStore.listRuns(filter)) listed.push_back(run.id);
            QCOMPARE(listed, std::vector<std::string>(begun.rbegin(), begun.rend()));
        }
        RunFilter ascending;
        ascending.descending = false;
        std::vector<std::string> listed;
        for (const RunInfo& run : runStore.listRuns(ascending)) listed.push_back(run.id);
        QCOMPARE(listed, begun);
    }

    void userTextThatLooksLikeSqlIsOnlyData()
    {
        const QString path = file("injection.sqlite");
        RunStore runStore(path.toStdString());
        const std::string id = runStore.beginRun(newRun("/data/prices" + kInjection + ".csv"));
        runStore.finishRun(id, outcome());
        RunFilter filter;
        filter.text = kInjection;
        const auto found = runStore.listRuns(filter);
        QCOMPARE(found.size(), std::size_t(1));
        QCOMPARE(found[0].dataSource.location, "/data/prices" + kInjection + ".csv");
        QVERIFY_THROWS_EXCEPTION(UsageError, runStore.resolveId(kInjection));
        QVERIFY_THROWS_EXCEPTION(UsageError, runStore.loadRun(kInjection));
        QCOMPARE(queryText(path, "SELECT count(*) FROM runs"), QString("1"));
        QVERIFY(runStore.verify().ok);
    }

    void keepsALiveRunAndInterruptsADeadOne()
    {
        const QString path = file("interrupted.sqlite");
        std::string live;
        {
            RunStore runStore(path.toStdString());
            live = runStore.beginRun(newRun());
        }
        RunStore again(path.toStdString());
        QCOMPARE(again.interruptedOnOpen(), 0);  // this process still owns it
        QVERIFY(again.loadRun(live).info.status == RunStatus::Running);

        // The same row, owned by a process that has ended (a child that has exited).
        QProcess child;
        child.start("/bin/true", {});
        QVERIFY(child.waitForFinished());
        const ProcessOwner me = currentProcess();
        const QByteArray deadToken = QByteArray::fromStdString(me.token.substr(0, me.token.find(':'))) + ":1";
        execSql(path, "UPDATE runs SET owner_pid = " + QByteArray::number(child.processId() ? child.processId() : 999999) +
                          ", owner_token = '" + deadToken + "'");
        RunStore next(path.toStdString());
        QCOMPARE(next.interruptedOnOpen(), 1);
        const RunInfo info = next.loadRun(live).info;
        QVERIFY(info.status == RunStatus::Failed);
        QCOMPARE(info.failure, std::string(kInterrupted));
        QVERIFY(next.verify().ok);
    }

    void anOwnerThatCannotBeIdentifiedIsNeverInterrupted()
    {
        // Where the boot id cannot be read (a sandbox hiding /proc/sys), a process has no
        // token; its run must survive every later open while the process lives.
        const ProcessOwner unidentified = currentProcess(file("no-such-boot-id").toStdString());
        QVERIFY(unidentified.token.empty());
        QVERIFY(mayBeRunning(unidentified));
        QVERIFY(mayBeRunning(currentProcess(), file("no-such-boot-id").toStdString()));  // nor can the opener read it

        const QString path = file("unidentified.sqlite");
        std::string live;
        {
            RunStore runStore(path.toStdString());
            live = runStore.beginRun(newRun());
        }
        execSql(path, "UPDATE runs SET owner_token = ''");
        {
            RunStore again(path.toStdString());
            QCOMPARE(again.interruptedOnOpen(), 0);
            QVERIFY(again.loadRun(live).info.status == RunStatus::Running);
        }
        // The same unidentified owner whose pid is free is known to be gone.
        QProcess child;
        child.start("/bin/true", {});
        QVERIFY(child.waitForFinished());
        execSql(path, "UPDATE runs SET owner_pid = " + QByteArray::number(child.processId() ? child.processId() : 999999));
        RunStore next(path.toStdString());
        QCOMPARE(next.interruptedOnOpen(), 1);
        QCOMPARE(next.loadRun(live).info.failure, std::string(kInterrupted));
    }

    void refusesANonFiniteResultAsOk()
    {
        RunStore runStore(file("nan.sqlite").toStdString());
        const auto refused = [&](const RunOutcome& bad, const char* named) {
            const std::string id = runStore.beginRun(newRun());
            try {
                runStore.finishRun(id, bad);
                QFAIL("a non-finite result was recorded as ok");
            } catch (const NonFiniteResult& e) {
                QVERIFY2(QString(e.what()).contains(named), e.what());
                QVERIFY2(QString(e.what()).contains(QString::fromStdString(id)), e.what());
            }
            QVERIFY(runStore.loadRun(id).info.status == RunStatus::Running);  // nothing written
            RunOutcome failed;
            failed.status = RunStatus::Failed;
            failed.failure = "NaN";
            runStore.finishRun(id, failed);  // what the caller does with the refusal
        };
        RunOutcome nanCentroid = outcome();
        nanCentroid.centroids[3] = std::numeric_limits<float>::quiet_NaN();
        refused(nanCentroid, "centroid value 3");
        RunOutcome infInertia = outcome();
        infInertia.iterations[1].inertia = std::numeric_limits<double>::infinity();
        refused(infInertia, "inertia of iteration 2");
        RunOutcome nanMetric = outcome();
        nlohmann::json metrics = nlohmann::json::parse(nanMetric.metricsJson);
        metrics["bic"] = std::numeric_limits<double>::quiet_NaN();  // written as null, as the summary writes it
        nanMetric.metricsJson = metrics.dump();
        refused(nanMetric, "metric bic");
        // A failed run may hold anything it got to; a finite result is ok.
        RunOutcome failedWithNan = nanCentroid;
        failedWithNan.status = RunStatus::Failed;
        runStore.finishRun(runStore.beginRun(newRun()), failedWithNan);
        runStore.finishRun(runStore.beginRun(newRun()), outcome());
        RunFilter ok;
        ok.status = RunStatus::Ok;
        QCOMPARE(runStore.listRuns(ok).size(), std::size_t(1));
        QVERIFY(runStore.verify().ok);
    }

    void verifyNamesTheRecordEditedWithTheSqlite3Tool()
    {
        const QString sqlite3Tool = QStandardPaths::findExecutable("sqlite3");
        if (sqlite3Tool.isEmpty()) QSKIP("the sqlite3 command-line tool is not installed (scripts/install-deps.sh installs it)");
        const QString path = file("tamper.sqlite");
        std::vector<std::string> ids;
        {
            RunStore runStore(path.toStdString());
            for (int i = 0; i < 3; ++i) {
                ids.push_back(runStore.beginRun(newRun()));
                runStore.finishRun(ids.back(), outcome());
            }
            QVERIFY(runStore.verify().ok);
        }
        auto tamper = [&](const QString& sql) {
            QProcess tool;
            tool.start(sqlite3Tool, {path, sql});
            QVERIFY(tool.waitForFinished());
            QCOMPARE(tool.exitCode(), 0);
        };
        tamper(QString("UPDATE runs SET metrics = '{\"inertia\":0.5}' WHERE id = '%1'").arg(QString::fromStdString(ids[1])));
        {
            RunStore runStore(path.toStdString());
            const VerifyReport report = runStore.verify();
            QVERIFY(!report.ok);
            QCOMPARE(report.firstBadRun, ids[1]);
            QVERIFY(QString::fromStdString(report.problem).contains(QString::fromStdString(ids[1])));
        }
        // Put it back: the chain matches again. Then change the label bytes of the last run.
        tamper(QString("UPDATE runs SET metrics = '%1' WHERE id = '%2'")
                   .arg(QString::fromStdString(outcome().metricsJson), QString::fromStdString(ids[1])));
        QVERIFY(RunStore(path.toStdString()).verify().ok);
        tamper(QString("UPDATE artifacts SET data = X'00' WHERE run_id = '%1' AND kind = 'labels'").arg(QString::fromStdString(ids[2])));
        QCOMPARE(RunStore(path.toStdString()).verify().firstBadRun, ids[2]);
        // Dropping the bytes of a run that was never deleted is an edit too (only gc of a
        // deleted run may do that).
        tamper(QString("UPDATE artifacts SET data = NULL WHERE run_id = '%1'").arg(QString::fromStdString(ids[0])));
        QCOMPARE(RunStore(path.toStdString()).verify().firstBadRun, ids[0]);
    }

    // Three completed runs in a fresh store at `name`; returns their ids.
    std::vector<std::string> threeRuns(const QString& name)
    {
        RunStore runStore(file(name).toStdString());
        std::vector<std::string> ids;
        for (int i = 0; i < 3; ++i) {
            ids.push_back(runStore.beginRun(newRun()));
            runStore.finishRun(ids.back(), outcome());
        }
        return ids;
    }

    void verifyCatchesAnEditReSealedWithoutTheKey()
    {
        // What a script that knows the format but not the key can do: edit run 2, then
        // re-seal it and every later record, either with plain SHA-256 claiming the
        // records predate keyed sealing, or with a seal it makes up.
        for (const bool downgrade : {true, false}) {
            const QString name = downgrade ? "reseal-plain.sqlite" : "reseal-guess.sqlite";
            const std::vector<std::string> ids = threeRuns(name);
            execSql(file(name), QByteArray("UPDATE runs SET metrics = '{\"inertia\":0.5}' WHERE id = '") + ids[1].c_str() + "'");
            {
                Database db(file(name).toStdString());
                for (std::size_t i = 1; i < ids.size(); ++i) {
                    Statement prev(db, "SELECT record_hash FROM runs WHERE chain_seq = (SELECT chain_seq - 1 FROM runs WHERE id = ?1)");
                    prev.bindAll(ids[i]);
                    QVERIFY(prev.step());
                    const std::string sealed = sha256Hex(prev.text(0) + "\n" +
                                                         canonicalRunContent(db, ids[i], downgrade ? ChainFormat::PlainSha256 : ChainFormat::Keyed));
                    Statement update(db, downgrade ? "UPDATE runs SET record_hash = ?1, chain_kind = NULL WHERE id = ?2"
                                                   : "UPDATE runs SET record_hash = ?1 WHERE id = ?2");
                    update.bindAll(sealed, ids[i]).run();
                    if (i + 1 < ids.size()) {
                        Statement next(db, "UPDATE runs SET prev_hash = ?1 WHERE id = ?2");
                        next.bindAll(sealed, ids[i + 1]).run();
                    }
                }
            }
            const VerifyReport report = RunStore(file(name).toStdString()).verify();
            QVERIFY(!report.ok);
            QVERIFY2(report.firstBadRun == ids[1], report.problem.c_str());
            QVERIFY2(QString::fromStdString(report.problem).contains(downgrade ? "plain SHA-256 after keyed sealing" : "does not match its seal"),
                     report.problem.c_str());
        }
    }

    void verifyCatchesAnEditedDatasetRow()
    {
        const std::vector<std::string> ids = threeRuns("dataset-edit.sqlite");
        execSql(file("dataset-edit.sqlite"), "UPDATE datasets SET source = '/data/other.csv', rows = 7");
        const VerifyReport report = RunStore(file("dataset-edit.sqlite").toStdString()).verify();
        QVERIFY(!report.ok);
        QCOMPARE(report.firstBadRun, ids[0]);  // every run read it; the first is named
        QVERIFY2(QString::fromStdString(report.problem).contains("does not match its seal"), report.problem.c_str());
    }

    void verifyCatchesADeletionOutsideTheStore()
    {
        const QString path = file("forged-delete.sqlite");
        const std::vector<std::string> ids = threeRuns("forged-delete.sqlite");
        // Marked deleted and its artifacts dropped, as gc would after a real deletion.
        execSql(path, QByteArray("UPDATE runs SET deleted_at = '2026-01-01T00:00:00.000Z' WHERE id = '") + ids[1].c_str() +
                          "'; UPDATE artifacts SET data = NULL WHERE run_id = '" + ids[1].c_str() + "'");
        VerifyReport report = RunStore(path.toStdString()).verify();
        QVERIFY(!report.ok);
        QCOMPARE(report.firstBadRun, ids[1]);
        QVERIFY2(QString::fromStdString(report.problem).contains("no deletion of it is in the chain"), report.problem.c_str());

        // A real deletion is a chained event: undoing it or changing its time is an edit.
        execSql(path, "UPDATE runs SET deleted_at = NULL");
        {
            RunStore runStore(path.toStdString());
            runStore.deleteRun(ids[2]);
            runStore.collectGarbage();
            report = runStore.verify();
            QVERIFY2(!report.ok && report.firstBadRun == ids[1], report.problem.c_str());  // ids[1]'s bytes are still gone
        }
        execSql(path, QByteArray("UPDATE runs SET deleted_at = NULL WHERE id = '") + ids[2].c_str() + "'");
        report = RunStore(path.toStdString()).verify();
        QCOMPARE(report.firstBadRun, ids[1]);  // the first problem in chain order
        const QString restored = file("undelete.sqlite");
        const std::vector<std::string> kept = threeRuns("undelete.sqlite");
        {
            RunStore runStore(restored.toStdString());
            runStore.deleteRun(kept[0]);
            runStore.addEdge({"run", kept[1], "run", kept[2], "compared_with", ""});
            QVERIFY(runStore.verify().ok);
        }
        execSql(restored, "UPDATE runs SET deleted_at = NULL");
        report = RunStore(restored.toStdString()).verify();
        QCOMPARE(report.firstBadRun, kept[0]);
        QVERIFY2(QString::fromStdString(report.problem).contains("the deletion of run " + QString::fromStdString(kept[0])), report.problem.c_str());
        // An edge added after the runs completed is chained too.
        const QString edges = file("edge.sqlite");
        const std::vector<std::string> linked = threeRuns("edge.sqlite");
        RunStore(edges.toStdString()).addEdge({"run", linked[0], "run", linked[1], "compared_with", ""});
        execSql(edges, "UPDATE lineage SET src = 'ffffffff' WHERE relation = 'compared_with'");
        report = RunStore(edges.toStdString()).verify();
        QVERIFY2(!report.ok && QString::fromStdString(report.problem).contains("lineage edge"), report.problem.c_str());
        execSql(edges, "INSERT INTO lineage(src_kind, src, dst_kind, dst, relation, created_at) "
                       "VALUES ('run', 'a', 'report', 'forged.pdf', 'report', '2026-01-01')");
        execSql(edges, "UPDATE lineage SET src = '" + QByteArray(linked[0].c_str()) + "' WHERE relation = 'compared_with'");
        report = RunStore(edges.toStdString()).verify();
        QVERIFY2(!report.ok && QString::fromStdString(report.problem).contains("is not in the chain"), report.problem.c_str());
    }

    void aLostWalIsReportedOnTheNextOpen()
    {
        const QString path = file("wal/runs.sqlite");
        std::string second;
        {
            const std::vector<std::string> first = threeRuns("wal/runs.sqlite");  // checkpointed into the file on close
            RunStore holder(path.toStdString());  // keeps the next commit in the -wal file
            {
                RunStore other(path.toStdString());  // another process completes a run
                second = other.beginRun(newRun());
                other.finishRun(second, outcome());
            }
            QVERIFY(QFile::exists(path + "-wal"));
            // The file as it is without its -wal (deleted, or copied without it), beside
            // the remembered chain head.
            QDir().mkpath(file("lost"));
            QVERIFY(QFile::copy(path, file("lost/runs.sqlite")));
            QVERIFY(QFile::copy(path + ".chain-head", file("lost/runs.sqlite.chain-head")));
        }
        QVERIFY(RunStore(path.toStdString()).verify().ok);  // the original, with its -wal, lost nothing
        RunStore lost(file("lost/runs.sqlite").toStdString());
        QVERIFY2(QString::fromStdString(lost.lostOnOpen()).contains("1 chained record was lost"), lost.lostOnOpen().c_str());
        QVERIFY(lost.listRuns().size() == 3);
        const VerifyReport report = lost.verify();
        QVERIFY(!report.ok);
        QVERIFY2(QString::fromStdString(report.problem).contains("-wal file was deleted"), report.problem.c_str());
        // Runs recorded after the loss do not hide it.
        lost.finishRun(lost.beginRun(newRun()), outcome());
        QVERIFY(!RunStore(file("lost/runs.sqlite").toStdString()).verify().ok);
    }

    void aMissingChainKeyIsNamed()
    {
        const std::vector<std::string> ids = threeRuns("nokey.sqlite");
        const QByteArray key = qgetenv("CLUSTERDESK_CHAIN_KEY");
        qputenv("CLUSTERDESK_CHAIN_KEY", file("elsewhere/chain.key").toUtf8());
        const VerifyReport report = RunStore(file("nokey.sqlite").toStdString()).verify();
        QVERIFY(!report.ok);
        QVERIFY2(QString::fromStdString(report.problem).contains("the chain key " + file("elsewhere/chain.key") + " is missing"),
                 report.problem.c_str());
        bool refused = false;
        try {
            RunStore runStore(file("nokey.sqlite").toStdString());
            runStore.finishRun(runStore.beginRun(newRun()), outcome());
        } catch (const StoreError& e) {
            refused = QString(e.what()).contains("is missing");
        }
        QVERIFY(refused);  // never sealed with a new key that would orphan the old records
        QVERIFY(!QFile::exists(file("elsewhere/chain.key")));
        qputenv("CLUSTERDESK_CHAIN_KEY", key);
    }

    void aReadOnlyOpenChangesNothing()
    {
        const QString path = file("readonly/runs.sqlite");
        std::string done, dead;
        {
            RunStore runStore(path.toStdString());
            done = runStore.beginRun(newRun());
            runStore.finishRun(done, outcome());
            dead = runStore.beginRun(newRun());
        }
        // Its owner gone: a read-write open would mark it interrupted.
        execSql(path, "UPDATE runs SET owner_pid = 999999, owner_token = 'gone:1' WHERE status = 'running'");
        QFile before(path);
        QVERIFY(before.open(QIODevice::ReadOnly));
        const QByteArray bytes = before.readAll();
        {
            RunStore reader(path.toStdString(), StoreAccess::ReadOnly);
            QCOMPARE(reader.interruptedOnOpen(), 0);
            QCOMPARE(reader.listRuns().size(), std::size_t(2));
            QVERIFY(reader.loadRun(dead).info.status == RunStatus::Running);
            QCOMPARE(reader.loadRun(done).labels, outcome().labels);
            const VerifyReport report = reader.verify();
            QVERIFY2(report.ok, report.problem.c_str());
            QVERIFY_THROWS_EXCEPTION(StoreError, reader.finishRun(dead, outcome()));  // SQLite refuses every write
        }
        QFile after(path);
        QVERIFY(after.open(QIODevice::ReadOnly));
        QVERIFY(after.readAll() == bytes);
        QCOMPARE(QFileInfo(path + "-wal").size(), 0);  // SQLite may leave an empty one; nothing was written to it

        // A file from a schema too old to read without migrating is refused, not migrated.
        const QString old = file("readonly-v3.sqlite");
        loadFixture(3, old);
        try {
            RunStore reader(old.toStdString(), StoreAccess::ReadOnly);
            QFAIL("an old schema was opened read-only");
        } catch (const StoreError& e) {
            QVERIFY2(QString(e.what()).contains("older ClusterDesk (schema version 3)"), e.what());
        }
        QCOMPARE(queryText(old, "PRAGMA user_version"), QString("3"));
    }

    void aPathThatIsNotUtf8IsRecordedAndChained()
    {
        const QString path = file("latin1.sqlite");
        const std::string latin1Path = "/data/pr\xe9vision.csv";  // Latin-1, as an old file system may hold it
        {
            RunStore runStore(path.toStdString());
            const std::string id = runStore.beginRun(newRun(latin1Path));
            runStore.finishRun(id, outcome());
            QVERIFY(runStore.loadRun(id).info.status == RunStatus::Ok);
        }
        RunStore again(path.toStdString());  // opening re-reads the chain's tail
        QCOMPARE(again.listRuns().size(), std::size_t(1));
        QCOMPARE(again.listRuns()[0].dataSource.location, latin1Path);
        const VerifyReport report = again.verify();
        QVERIFY2(report.ok, report.problem.c_str());
    }

    void deleteKeepsTheChainAndGcRemovesArtifacts()
    {
        RunStore runStore(file("gc.sqlite").toStdString());
        const std::string a = runStore.beginRun(newRun());
        runStore.finishRun(a, outcome());
        const std::string b = runStore.beginRun(newRun());
        QVERIFY_THROWS_EXCEPTION(UsageError, runStore.deleteRun(b));  // still running
        runStore.finishRun(b, outcome());
        runStore.deleteRun(a);
        QCOMPARE(runStore.listRuns().size(), std::size_t(1));
        RunFilter all;
        all.includeDeleted = true;
        QCOMPARE(runStore.listRuns(all).size(), std::size_t(2));
        const GcReport gc = runStore.collectGarbage();
        QCOMPARE(gc.runs, 1);
        QVERIFY(gc.bytes > 0);
        const RunRecord deleted = runStore.loadRun(a);
        QVERIFY(deleted.info.deleted);
        QVERIFY(deleted.artifactsCollected);
        QVERIFY(deleted.labels.empty());
        QCOMPARE(runStore.loadRun(b).labels, outcome().labels);
        const VerifyReport report = runStore.verify();
        QVERIFY2(report.ok, report.problem.c_str());
        QCOMPARE(runStore.collectGarbage().runs, 0);
    }

    void defaultPathFollowsTheEnvironment()
    {
        const QByteArray db = qgetenv("CLUSTERDESK_DB"), xdg = qgetenv("XDG_DATA_HOME"), home = qgetenv("HOME");
        qputenv("CLUSTERDESK_DB", "/tmp/x/own.sqlite");
        QCOMPARE(defaultStorePath().string(), std::string("/tmp/x/own.sqlite"));
        qunsetenv("CLUSTERDESK_DB");
        qputenv("XDG_DATA_HOME", "/tmp/xdg");
        QCOMPARE(defaultStorePath().string(), std::string("/tmp/xdg/clusterdesk/runs.sqlite"));
        qputenv("XDG_DATA_HOME", "relative/ignored");
        qputenv("HOME", "/home/quant");
        QCOMPARE(defaultStorePath().string(), std::string("/home/quant/.local/share/clusterdesk/runs.sqlite"));
        qputenv("CLUSTERDESK_DB", db);
        qputenv("XDG_DATA_HOME", xdg);
        qputenv("HOME", home);
    }
};

QTEST_GUILESS_MAIN(TestRunStore)
#include "test_run_store.moc"
