// The run store on real SQLite files: schema creation, migration from a file written by
// each earlier schema version (fixtures/schema_v1.sql .. schema_v3.sql), a full round trip of a run with all its
// parts, interrupted runs (and owners that cannot be identified), orderings that tie on
// start time, results with NaN refused as ok, the read-only open, the chain (verify passes
// on a clean store and names the record behind each tampering: an edit, an edit re-sealed
// without the key, the datasets table, a deletion or edge made outside the store, a lost
// -wal file, a missing key), tombstones and gc, and user text that looks like SQL.
#include "engine/core/sha256.h"
#include "engine/store/artifact_codec.h"
#include "engine/store/process_owner.h"
#include "engine/store/run_chain.h"
#include "engine/store/run_codec.h"
#include "engine/store/run_store.h"
#include "engine/store/sqlite_db.h"
#include "engine/store/store_path.h"

#include "doctest_support.h"
#include "run_process.h"
#include "temp_dir.h"

#include <cstdint>
#include <string>
#include <vector>

#include <sqlite3.h>

#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <limits>

#include <sys/wait.h>
#include <unistd.h>

using namespace clusterdesk;
using namespace clusterdesk::store;

namespace {

const std::string kInjection = "'; DROP TABLE runs; --";

// Runs SQL on the file with the plain C API, outside the store (as another tool would).
void execSql(const std::string& path, const std::string& sql)
{
    sqlite3* db = nullptr;
    REQUIRE_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    char* error = nullptr;
    const int rc = sqlite3_exec(db, sql.data(), nullptr, nullptr, &error);
    const std::string message = error ? error : "";
    sqlite3_free(error);
    sqlite3_close(db);
    REQUIRE_MESSAGE(rc == SQLITE_OK, std::string(message).c_str());
}

std::string queryText(const std::string& path, const char* sql)
{
    sqlite3* db = nullptr;
    sqlite3_open(path.c_str(), &db);
    sqlite3_stmt* stmt = nullptr;
    std::string out;
    if (sqlite3_prepare_v2(db, sql, -1, &stmt, nullptr) == SQLITE_OK && sqlite3_step(stmt) == SQLITE_ROW)
        out = std::string(reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0)));
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

// The pid of a child process that has exited and been reaped: an owner that is gone.
pid_t exitedChild()
{
    const pid_t pid = ::fork();
    if (pid == 0) ::_exit(0);
    int status = 0;
    ::waitpid(pid, &status, 0);
    return pid;
}

std::string readAll(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    REQUIRE_MESSAGE(in.good(), "cannot read " << path);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Makes `path` a database as schema version `version` wrote it, from its fixture file.
void loadFixture(int version, const std::string& path)
{
    const std::string fixture = CLUSTERDESK_SOURCE_DIR "/tests/engine/store/fixtures/schema_v" + std::to_string(version) + ".sql";
    execSql(path, readAll(fixture));
    REQUIRE_EQ(queryText(path, "PRAGMA user_version"), std::to_string(version));
}

}  // namespace

namespace {

// One folder for the whole suite; the stores' chain key lives in it (never the user's).
const test::TempDir& suiteDir()
{
    static const test::TempDir dir;
    static const bool keyed = ::setenv("CLUSTERDESK_CHAIN_KEY", (dir.path() + "/keys/chain.key").c_str(), 1) == 0;
    (void)keyed;
    return dir;
}

std::string file(const std::string& name)
{
    return suiteDir().filePath(name);
}

// Three completed runs in a fresh store at `name`; returns their ids.
std::vector<std::string> threeRuns(const std::string& name)
{
    RunStore runStore(file(name));
    std::vector<std::string> ids;
    for (int i = 0; i < 3; ++i) {
        ids.push_back(runStore.beginRun(newRun()));
        runStore.finishRun(ids.back(), outcome());
    }
    return ids;
}
}  // namespace

TEST_CASE("freshFileHasTheLatestSchema")
{
    const std::string path = file("fresh/runs.sqlite");  // the directory is created too
    RunStore runStore(path);
    REQUIRE_EQ(runStore.schemaVersion(), RunStore::kSchemaVersion);
    REQUIRE_EQ(queryText(path, "PRAGMA journal_mode"), std::string("wal"));
    for (const char* table : {"datasets", "runs", "iterations", "telemetry", "artifacts", "lineage"}) {
        const std::string sql = std::string("SELECT name FROM sqlite_master WHERE type='table' AND name='") + table + "'";
        REQUIRE_EQ(queryText(path, sql.c_str()), std::string(table));
    }
    REQUIRE(runStore.listRuns().empty());
    REQUIRE(runStore.verify().ok);
}

TEST_CASE("migratesAVersion1File")
{
    const std::string path = file("v1.sqlite");
    loadFixture(1, path);

    RunStore runStore(path);
    REQUIRE_EQ(runStore.schemaVersion(), RunStore::kSchemaVersion);
    REQUIRE_EQ(runStore.interruptedOnOpen(), 1);  // the v1 row left running has no live owner
    RunFilter all;
    all.sort = RunSort::Started;
    all.descending = false;
    const std::vector<RunInfo> runs = runStore.listRuns(all);
    REQUIRE_EQ(runs.size(), std::size_t(3));
    REQUIRE(runs[0].status == RunStatus::Ok);
    REQUIRE_EQ(runs[1].failure, std::string("no CUDA device"));
    REQUIRE(runs[2].status == RunStatus::Failed);
    REQUIRE_EQ(runs[2].failure, std::string(kInterrupted));

    const RunRecord first = runStore.loadRun("11111111-1111-4111-8111-111111111111");
    REQUIRE_EQ(first.info.dataSource.location, "blobs:n=4,d=2,k=2,seed=7,spread=1" + kInjection);
    REQUIRE_EQ(first.labels, (std::vector<std::int32_t>{0, 1, 1, 0}));
    REQUIRE_EQ(first.centroids, (std::vector<float>{0.5f, 1.0f, 5.0f, 5.5f}));
    REQUIRE_EQ(first.iterations.size(), std::size_t(2));
    REQUIRE_EQ(first.iterations[1].sizes, (std::vector<std::int64_t>{2, 2}));
    REQUIRE(paramsFromJson(first.info.paramsJson).mode == kernels::Mode::Exact);
    REQUIRE_EQ(first.lineage.size(), std::size_t(1));
    REQUIRE_EQ(first.lineage[0].relation, std::string("input"));
    // Runs finished under v1 were chained by the migration, the interrupted one after.
    const VerifyReport report = runStore.verify();
    REQUIRE_MESSAGE(report.ok, report.problem.c_str());
    REQUIRE_EQ(report.records, std::int64_t(3));
    // Records sealed before keyed sealing keep their plain SHA-256 and are counted as
    // such; the run interrupted on this open is sealed with the key.
    REQUIRE_EQ(report.plainRecords, std::int64_t(2));
}

TEST_CASE("migratesAVersion2File")
{
    const std::string path = file("v2.sqlite");
    loadFixture(2, path);

    RunStore runStore(path);
    REQUIRE_EQ(runStore.schemaVersion(), RunStore::kSchemaVersion);
    // The killed run belongs to another host: its process table cannot be seen from
    // here, so it is never marked interrupted.
    REQUIRE_EQ(runStore.interruptedOnOpen(), 0);
    RunFilter oldestFirst;
    oldestFirst.descending = false;
    const std::vector<RunInfo> runs = runStore.listRuns(oldestFirst);
    REQUIRE_EQ(runs.size(), std::size_t(5));
    REQUIRE(runs[2].status == RunStatus::Failed);
    REQUIRE(runs[4].status == RunStatus::Running);
    REQUIRE_EQ(runs[4].host, std::string("fixture-host"));

    const RunRecord exact = runStore.loadRun(runs[0].id);  // raw v2 artifacts still load
    REQUIRE_EQ(exact.labels.size(), std::size_t(12));
    REQUIRE_EQ(exact.k, 3);
    REQUIRE(!exact.telemetry.empty());
    const RunRecord warm = runStore.loadRun(runs[3].id);
    REQUIRE_EQ(warm.initialCentroids, exact.centroids);
    REQUIRE_EQ(warm.lineage[1].relation, std::string("warm_start"));
    REQUIRE_EQ(warm.lineage[1].src, exact.info.id);
    VerifyReport report = runStore.verify();
    REQUIRE_MESSAGE(report.ok, report.problem.c_str());
    REQUIRE_EQ(report.records, std::int64_t(4));
    REQUIRE_EQ(report.plainRecords, std::int64_t(4));

    // New runs (compressed artifacts) continue the chain, sealed with the key.
    const std::string id = runStore.beginRun(newRun());
    runStore.finishRun(id, outcome());
    REQUIRE_EQ(runStore.loadRun(id).labels, outcome().labels);
    report = runStore.verify();
    REQUIRE_MESSAGE(report.ok, report.problem.c_str());
    REQUIRE_EQ(report.records, std::int64_t(5));
    REQUIRE_EQ(report.plainRecords, std::int64_t(4));
}

TEST_CASE("migratesAVersion3File")
{
    const std::string path = file("v3.sqlite");
    loadFixture(3, path);

    RunStore runStore(path);
    REQUIRE_EQ(runStore.schemaVersion(), RunStore::kSchemaVersion);
    RunFilter oldestFirst;
    oldestFirst.descending = false;
    const std::vector<RunInfo> runs = runStore.listRuns(oldestFirst);
    REQUIRE_EQ(runs.size(), std::size_t(3));
    REQUIRE_EQ(runs[2].topology, std::string("pool:2"));
    const RunRecord exact = runStore.loadRun(runs[0].id);
    REQUIRE_EQ(exact.labels.size(), std::size_t(12));
    REQUIRE(!exact.iterations.empty());
    REQUIRE(exact.iterations[0].ranks.empty());  // v3 kept no per-rank timings
    VerifyReport report = runStore.verify();
    REQUIRE_MESSAGE(report.ok, report.problem.c_str());
    REQUIRE_EQ(report.records, std::int64_t(3));

    // A new run keeps its ranks' timings and continues the chain.
    const std::string id = runStore.beginRun(newRun());
    runStore.finishRun(id, outcome());
    REQUIRE_EQ(runStore.loadRun(id).iterations[1].ranks.size(), std::size_t(2));
    report = runStore.verify();
    REQUIRE_MESSAGE(report.ok, report.problem.c_str());
    REQUIRE_EQ(report.records, std::int64_t(4));
}

TEST_CASE("refusesAFileFromANewerSchema")
{
    const std::string path = file("newer.sqlite");
    execSql(path, "PRAGMA user_version = 99;");
    try {
        RunStore runStore(path);
        FAIL("a newer schema was opened");
    } catch (const StoreError& e) {
        REQUIRE(test::contains(std::string(e.what()), "newer"));
        REQUIRE(test::contains(std::string(e.what()), "newer.sqlite"));
    }
}

TEST_CASE("roundTripsARunWithAllItsParts")
{
    RunStore runStore(file("roundtrip.sqlite"));
    const std::string parent = runStore.beginRun(newRun());
    runStore.finishRun(parent, outcome());

    NewRun run = newRun();
    run.params.init = InitMethod::Given;
    run.params.initialCentroids = {1, 2, 3, 4};
    run.parents = {{"run", parent, "", "", "warm_start", ""}};
    const std::string id = runStore.beginRun(run);
    REQUIRE(runStore.loadRun(id).info.status == RunStatus::Running);
    runStore.finishRun(id, outcome());
    runStore.addEdge({"run", id, "report", "committee-2026-12.pdf", "report", ""});

    const RunRecord r = runStore.loadRun(id);
    REQUIRE(r.info.status == RunStatus::Ok);
    REQUIRE_EQ(r.info.seed, std::string("18446744073709551615"));
    REQUIRE_EQ(paramsFromJson(r.info.paramsJson).seed, run.params.seed);
    REQUIRE_EQ(r.info.topology, std::string("shards:2"));
    REQUIRE_EQ(r.info.threads, 2);
    REQUIRE_EQ(r.info.backend, std::string("host"));
    REQUIRE_EQ(r.info.devices, outcome().devices);
    REQUIRE_EQ(r.info.host, hostName());
    REQUIRE(!r.info.engineVersion.empty());
    REQUIRE(!r.info.endedAt.empty());
    REQUIRE_EQ(r.info.metricsJson, outcome().metricsJson);
    REQUIRE_EQ(*r.info.energyJ, 3.5);
    REQUIRE_EQ(r.info.energySource, std::string("estimated"));
    REQUIRE_EQ(r.dataset.rows, std::int64_t(6));
    REQUIRE_EQ(r.iterations.size(), std::size_t(2));
    REQUIRE_EQ(r.iterations[1].event, std::string("converged"));
    REQUIRE_EQ(r.iterations[0].sizes, (std::vector<std::int64_t>{3, 3}));
    REQUIRE_EQ(r.iterations[0].assignMs, 0.25);
    REQUIRE(r.iterations[0].ranks.empty());
    REQUIRE_EQ(r.iterations[1].ranks.size(), std::size_t(2));
    REQUIRE_EQ(r.iterations[1].ranks[1].updateMs, 0.4);
    REQUIRE_EQ(r.iterations[1].ranks[1].reduceMs, 0.125);
    REQUIRE_EQ(r.telemetry.size(), std::size_t(2));
    REQUIRE_EQ(r.telemetry[1].watts, 11.0);
    REQUIRE_EQ(r.labels, outcome().labels);
    REQUIRE_EQ(r.centroids, outcome().centroids);
    REQUIRE_EQ(r.k, 2);
    REQUIRE_EQ(r.initialCentroids, (std::vector<float>{1, 2, 3, 4}));
    REQUIRE_EQ(r.lineage.size(), std::size_t(3));  // input, warm_start, report
    REQUIRE_EQ(r.lineage[1].src, parent);
    REQUIRE_EQ(r.lineage[2].dst, std::string("committee-2026-12.pdf"));
    REQUIRE_EQ(*r.info.chainSeq, std::int64_t(3));  // after the keyed start (#1) and the parent run (#2)

    // A run cannot be finished twice.
    REQUIRE_THROWS_AS(runStore.finishRun(id, outcome()), StoreError);
    // Ids resolve from unique prefixes; unknown ones are a usage error.
    REQUIRE_EQ(runStore.resolveId(id.substr(0, 8)), id);
    REQUIRE_THROWS_AS(runStore.resolveId("ffffffff-0000"), UsageError);
    const VerifyReport report = runStore.verify();
    REQUIRE_MESSAGE(report.ok, report.problem.c_str());
    REQUIRE_EQ(report.records, std::int64_t(2));
    REQUIRE_EQ(report.events, std::int64_t(2));  // the keyed start, the report edge
    REQUIRE_EQ(report.plainRecords, std::int64_t(0));
}

TEST_CASE("listsWithFilterAndSort")
{
    RunStore runStore(file("list.sqlite"));
    const std::string a = runStore.beginRun(newRun("blobs:n=6,d=2,k=2,seed=1"));
    runStore.finishRun(a, outcome());
    const std::string b = runStore.beginRun(newRun("market:assets=6"));
    RunOutcome failed;
    failed.status = RunStatus::Failed;
    failed.failure = "device lost";
    runStore.finishRun(b, failed);

    RunFilter filter;
    filter.status = RunStatus::Failed;
    REQUIRE_EQ(runStore.listRuns(filter).size(), std::size_t(1));
    REQUIRE_EQ(runStore.listRuns(filter)[0].failure, std::string("device lost"));
    filter = {};
    filter.text = "MARKET";  // case-insensitive substring
    REQUIRE_EQ(runStore.listRuns(filter).size(), std::size_t(1));
    REQUIRE_EQ(runStore.listRuns(filter)[0].id, b);
    // Both runs begun in the same millisecond (as on a fast machine): the order they
    // were begun in decides, both ways.
    execSql(file("list.sqlite"), "UPDATE runs SET started_at = '2026-01-02T03:04:05.678Z'");
    filter = {};
    filter.sort = RunSort::Started;
    filter.descending = false;
    REQUIRE_EQ(runStore.listRuns(filter)[0].id, a);
    filter.descending = true;
    filter.limit = 1;
    const auto newest = runStore.listRuns(filter);
    REQUIRE_EQ(newest.size(), std::size_t(1));
    REQUIRE_EQ(newest[0].id, b);
}

TEST_CASE("runsBegunInTheSameMillisecondKeepTheirOrder")
{
    const std::string path = file("ties.sqlite");
    RunStore runStore(path);
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
        REQUIRE_EQ(listed, std::vector<std::string>(begun.rbegin(), begun.rend()));
    }
    RunFilter ascending;
    ascending.descending = false;
    std::vector<std::string> listed;
    for (const RunInfo& run : runStore.listRuns(ascending)) listed.push_back(run.id);
    REQUIRE_EQ(listed, begun);
}

TEST_CASE("userTextThatLooksLikeSqlIsOnlyData")
{
    const std::string path = file("injection.sqlite");
    RunStore runStore(path);
    const std::string id = runStore.beginRun(newRun("/data/prices" + kInjection + ".csv"));
    runStore.finishRun(id, outcome());
    RunFilter filter;
    filter.text = kInjection;
    const auto found = runStore.listRuns(filter);
    REQUIRE_EQ(found.size(), std::size_t(1));
    REQUIRE_EQ(found[0].dataSource.location, "/data/prices" + kInjection + ".csv");
    REQUIRE_THROWS_AS(runStore.resolveId(kInjection), UsageError);
    REQUIRE_THROWS_AS(runStore.loadRun(kInjection), UsageError);
    REQUIRE_EQ(queryText(path, "SELECT count(*) FROM runs"), std::string("1"));
    REQUIRE(runStore.verify().ok);
}

TEST_CASE("keepsALiveRunAndInterruptsADeadOne")
{
    const std::string path = file("interrupted.sqlite");
    std::string live;
    {
        RunStore runStore(path);
        live = runStore.beginRun(newRun());
    }
    RunStore again(path);
    REQUIRE_EQ(again.interruptedOnOpen(), 0);  // this process still owns it
    REQUIRE(again.loadRun(live).info.status == RunStatus::Running);

    // The same row, owned by a process that has ended (a child that has exited).
    const pid_t child = exitedChild();
    const ProcessOwner me = currentProcess();
    const std::string deadToken = me.token.substr(0, me.token.find(':')) + ":1";
    execSql(path, "UPDATE runs SET owner_pid = " + std::to_string(child) +
                      ", owner_token = '" + deadToken + "'");
    RunStore next(path);
    REQUIRE_EQ(next.interruptedOnOpen(), 1);
    const RunInfo info = next.loadRun(live).info;
    REQUIRE(info.status == RunStatus::Failed);
    REQUIRE_EQ(info.failure, std::string(kInterrupted));
    REQUIRE(next.verify().ok);
}

TEST_CASE("anOwnerThatCannotBeIdentifiedIsNeverInterrupted")
{
    // Where the boot id cannot be read (a sandbox hiding /proc/sys), a process has no
    // token; its run must survive every later open while the process lives.
    const ProcessOwner unidentified = currentProcess(file("no-such-boot-id"));
    REQUIRE(unidentified.token.empty());
    REQUIRE(mayBeRunning(unidentified));
    REQUIRE(mayBeRunning(currentProcess(), file("no-such-boot-id")));  // nor can the opener read it

    const std::string path = file("unidentified.sqlite");
    std::string live;
    {
        RunStore runStore(path);
        live = runStore.beginRun(newRun());
    }
    execSql(path, "UPDATE runs SET owner_token = ''");
    {
        RunStore again(path);
        REQUIRE_EQ(again.interruptedOnOpen(), 0);
        REQUIRE(again.loadRun(live).info.status == RunStatus::Running);
    }
    // The same unidentified owner whose pid is free is known to be gone.
    execSql(path, "UPDATE runs SET owner_pid = " + std::to_string(exitedChild()));
    RunStore next(path);
    REQUIRE_EQ(next.interruptedOnOpen(), 1);
    REQUIRE_EQ(next.loadRun(live).info.failure, std::string(kInterrupted));
}

TEST_CASE("refusesANonFiniteResultAsOk")
{
    RunStore runStore(file("nan.sqlite"));
    const auto refused = [&](const RunOutcome& bad, const char* named) {
        const std::string id = runStore.beginRun(newRun());
        try {
            runStore.finishRun(id, bad);
            FAIL("a non-finite result was recorded as ok");
        } catch (const NonFiniteResult& e) {
            CHECK_MESSAGE(test::contains(std::string(e.what()), named), e.what());
            CHECK_MESSAGE(test::contains(std::string(e.what()), id), e.what());
        }
        CHECK(runStore.loadRun(id).info.status == RunStatus::Running);  // nothing written
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
    REQUIRE_EQ(runStore.listRuns(ok).size(), std::size_t(1));
    REQUIRE(runStore.verify().ok);
}

TEST_CASE("keepsALiveUpdatesInputChained")
{
    const std::string path = file("live-input.sqlite");
    NewRun run = newRun();
    // Bytes of every kind, and longer than a multiple of 4 (it is text, not 4-byte values).
    run.liveInput = std::string("{\"calls\":[]}") + std::string(1, '\0') + "\xff\x01 end";
    std::string id;
    {
        RunStore runStore(path);
        id = runStore.beginRun(run);
        runStore.finishRun(id, outcome());
        REQUIRE_EQ(runStore.loadRun(id).liveInput, run.liveInput);
        REQUIRE(runStore.loadRun(runStore.beginRun(newRun())).liveInput.empty());
        const VerifyReport report = runStore.verify();
        REQUIRE_MESSAGE(report.ok, report.problem.c_str());
    }
    // The input is sealed with the run: changing it is an edit verify names.
    const std::vector<unsigned char> other = compressArtifact("{\"calls\":[{}]}", 14);
    {
        Database db(path);
        Statement edit(db, "UPDATE artifacts SET data = ?1 WHERE run_id = ?2 AND kind = 'live_input'");
        edit.bindBlob(1, other.data(), other.size()).bind(2, id).run();
    }
    const VerifyReport report = RunStore(path).verify();
    REQUIRE(!report.ok);
    REQUIRE_EQ(report.firstBadRun, id);
    REQUIRE(test::contains(report.problem, "live_input"));
}

TEST_CASE("aLoadChecksEachArtifactAgainstItsSha256AndShape")
{
    const std::string path = file("edited-artifacts.sqlite");
    std::string id;
    {
        RunStore runStore(path);
        id = runStore.beginRun(newRun());
        runStore.finishRun(id, outcome());
    }
    // Centroids edited to other values (NaN, say) no longer match their SHA-256: a warm
    // start or a report from them would use what the run never produced.
    const std::vector<float> nan(outcome().centroids.size(), std::numeric_limits<float>::quiet_NaN());
    const std::vector<unsigned char> other = compressArtifact(nan.data(), nan.size() * sizeof(float));
    {
        Database db(path);
        Statement edit(db, "UPDATE artifacts SET data = ?1 WHERE run_id = ?2 AND kind = 'centroids'");
        edit.bindBlob(1, other.data(), other.size()).bind(2, id).run();
    }
    const std::string mismatch = "the centroids of run " + id + " bytes do not match their SHA-256";
    REQUIRE_THROWS_WITH_AS(RunStore(path).loadRun(id), doctest::Contains(mismatch.c_str()), StoreError);
    // A shape the stored bytes cannot hold is refused before anything is allocated for it.
    for (const char* shape : {"rows = -5", "rows = 300000000, cols = 300000000"}) {
        CAPTURE(shape);
        execSql(path, std::string("UPDATE artifacts SET ") + shape + " WHERE run_id = '" + id + "' AND kind = 'centroids'");
        REQUIRE_THROWS_WITH_AS(RunStore(path).loadRun(id), doctest::Contains("cannot come from"), StoreError);
    }
}

TEST_CASE("verifyNamesTheRecordEditedWithTheSqlite3Tool")
{
    const std::string sqlite3Tool = "/usr/bin/sqlite3";
    if (access(sqlite3Tool.c_str(), X_OK) != 0) CLUSTERDESK_SKIP("the sqlite3 command-line tool is not installed (scripts/install-deps.sh installs it)");
    const std::string path = file("tamper.sqlite");
    std::vector<std::string> ids;
    {
        RunStore runStore(path);
        for (int i = 0; i < 3; ++i) {
            ids.push_back(runStore.beginRun(newRun()));
            runStore.finishRun(ids.back(), outcome());
        }
        REQUIRE(runStore.verify().ok);
    }
    auto tamper = [&](const std::string& sql) {
        const test::ProcessResult tool = test::runProcess({sqlite3Tool, path, sql});
        CHECK_MESSAGE(tool.succeeded(), tool.error << tool.err);
    };
    tamper("UPDATE runs SET metrics = '{\"inertia\":0.5}' WHERE id = '" + ids[1] + "'");
    {
        RunStore runStore(path);
        const VerifyReport report = runStore.verify();
        REQUIRE(!report.ok);
        REQUIRE_EQ(report.firstBadRun, ids[1]);
        REQUIRE(test::contains(report.problem, ids[1]));
    }
    // Put it back: the chain matches again. Then change the label bytes of the last run.
    tamper("UPDATE runs SET metrics = '" + outcome().metricsJson + "' WHERE id = '" + ids[1] + "'");
    REQUIRE(RunStore(path).verify().ok);
    tamper("UPDATE artifacts SET data = X'00' WHERE run_id = '" + ids[2] + "' AND kind = 'labels'");
    REQUIRE_EQ(RunStore(path).verify().firstBadRun, ids[2]);
    // Dropping the bytes of a run that was never deleted is an edit too (only gc of a
    // deleted run may do that).
    tamper("UPDATE artifacts SET data = NULL WHERE run_id = '" + ids[0] + "'");
    REQUIRE_EQ(RunStore(path).verify().firstBadRun, ids[0]);
}

TEST_CASE("verifyCatchesAnEditReSealedWithoutTheKey")
{
    // What a script that knows the format but not the key can do: edit run 2, then
    // re-seal it and every later record, either with plain SHA-256 claiming the
    // records predate keyed sealing, or with a seal it makes up.
    for (const bool downgrade : {true, false}) {
        const std::string name = downgrade ? "reseal-plain.sqlite" : "reseal-guess.sqlite";
        const std::vector<std::string> ids = threeRuns(name);
        execSql(file(name), std::string("UPDATE runs SET metrics = '{\"inertia\":0.5}' WHERE id = '") + ids[1].c_str() + "'");
        {
            Database db(file(name));
            for (std::size_t i = 1; i < ids.size(); ++i) {
                Statement prev(db, "SELECT record_hash FROM runs WHERE chain_seq = (SELECT chain_seq - 1 FROM runs WHERE id = ?1)");
                prev.bindAll(ids[i]);
                REQUIRE(prev.step());
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
        const VerifyReport report = RunStore(file(name)).verify();
        REQUIRE(!report.ok);
        REQUIRE_MESSAGE(report.firstBadRun == ids[1], report.problem.c_str());
        REQUIRE_MESSAGE(test::contains(report.problem, downgrade ? "plain SHA-256 after keyed sealing" : "does not match its seal"), report.problem.c_str());
    }
}

TEST_CASE("verifyCatchesAnEditedDatasetRow")
{
    const std::vector<std::string> ids = threeRuns("dataset-edit.sqlite");
    execSql(file("dataset-edit.sqlite"), "UPDATE datasets SET source = '/data/other.csv', rows = 7");
    const VerifyReport report = RunStore(file("dataset-edit.sqlite")).verify();
    REQUIRE(!report.ok);
    REQUIRE_EQ(report.firstBadRun, ids[0]);  // every run read it; the first is named
    REQUIRE_MESSAGE(test::contains(report.problem, "does not match its seal"), report.problem.c_str());
}

TEST_CASE("verifyCatchesADeletionOutsideTheStore")
{
    const std::string path = file("forged-delete.sqlite");
    const std::vector<std::string> ids = threeRuns("forged-delete.sqlite");
    // Marked deleted and its artifacts dropped, as gc would after a real deletion.
    execSql(path, std::string("UPDATE runs SET deleted_at = '2026-01-01T00:00:00.000Z' WHERE id = '") + ids[1].c_str() +
                      "'; UPDATE artifacts SET data = NULL WHERE run_id = '" + ids[1].c_str() + "'");
    VerifyReport report = RunStore(path).verify();
    REQUIRE(!report.ok);
    REQUIRE_EQ(report.firstBadRun, ids[1]);
    REQUIRE_MESSAGE(test::contains(report.problem, "no deletion of it is in the chain"), report.problem.c_str());

    // A real deletion is a chained event: undoing it or changing its time is an edit.
    execSql(path, "UPDATE runs SET deleted_at = NULL");
    {
        RunStore runStore(path);
        runStore.deleteRun(ids[2]);
        runStore.collectGarbage();
        report = runStore.verify();
        REQUIRE_MESSAGE((!report.ok && report.firstBadRun == ids[1]), report.problem.c_str());  // ids[1]'s bytes are still gone
    }
    execSql(path, std::string("UPDATE runs SET deleted_at = NULL WHERE id = '") + ids[2].c_str() + "'");
    report = RunStore(path).verify();
    REQUIRE_EQ(report.firstBadRun, ids[1]);  // the first problem in chain order
    const std::string restored = file("undelete.sqlite");
    const std::vector<std::string> kept = threeRuns("undelete.sqlite");
    {
        RunStore runStore(restored);
        REQUIRE(runStore.deleteRun(kept[0]));
        const std::int64_t seq = runStore.chainHead().seq;
        REQUIRE_FALSE(runStore.deleteRun(kept[0]));  // deleted before: nothing changes, nothing is chained
        REQUIRE_EQ(runStore.chainHead().seq, seq);
        runStore.addEdge({"run", kept[1], "run", kept[2], "compared_with", ""});
        REQUIRE(runStore.verify().ok);
    }
    execSql(restored, "UPDATE runs SET deleted_at = NULL");
    report = RunStore(restored).verify();
    REQUIRE_EQ(report.firstBadRun, kept[0]);
    REQUIRE_MESSAGE(test::contains(report.problem, "the deletion of run " + kept[0]), report.problem.c_str());
    // An edge added after the runs completed is chained too.
    const std::string edges = file("edge.sqlite");
    const std::vector<std::string> linked = threeRuns("edge.sqlite");
    RunStore(edges).addEdge({"run", linked[0], "run", linked[1], "compared_with", ""});
    execSql(edges, "UPDATE lineage SET src = 'ffffffff' WHERE relation = 'compared_with'");
    report = RunStore(edges).verify();
    REQUIRE_MESSAGE((!report.ok && test::contains(report.problem, "lineage edge")), report.problem.c_str());
    execSql(edges, "INSERT INTO lineage(src_kind, src, dst_kind, dst, relation, created_at) "
                   "VALUES ('run', 'a', 'report', 'forged.pdf', 'report', '2026-01-01')");
    execSql(edges, "UPDATE lineage SET src = '" + std::string(linked[0].c_str()) + "' WHERE relation = 'compared_with'");
    report = RunStore(edges).verify();
    REQUIRE_MESSAGE((!report.ok && test::contains(report.problem, "is not in the chain")), report.problem.c_str());
}

TEST_CASE("aLostWalIsReportedOnTheNextOpen")
{
    const std::string path = file("wal/runs.sqlite");
    std::string second;
    {
        const std::vector<std::string> first = threeRuns("wal/runs.sqlite");  // checkpointed into the file on close
        RunStore holder(path);  // keeps the next commit in the -wal file
        {
            RunStore other(path);  // another process completes a run
            second = other.beginRun(newRun());
            other.finishRun(second, outcome());
        }
        REQUIRE(std::filesystem::exists(path + "-wal"));
        // The file as it is without its -wal (deleted, or copied without it), beside
        // the remembered chain head.
        std::filesystem::create_directories(file("lost"));
        REQUIRE(std::filesystem::copy_file(path, file("lost/runs.sqlite")));
        REQUIRE(std::filesystem::copy_file(path + ".chain-head", file("lost/runs.sqlite.chain-head")));
    }
    REQUIRE(RunStore(path).verify().ok);  // the original, with its -wal, lost nothing
    RunStore lost(file("lost/runs.sqlite"));
    REQUIRE_MESSAGE(test::contains(lost.lostOnOpen(), "1 chained record was lost"), lost.lostOnOpen().c_str());
    REQUIRE(lost.listRuns().size() == 3);
    const VerifyReport report = lost.verify();
    REQUIRE(!report.ok);
    REQUIRE_MESSAGE(test::contains(report.problem, "-wal file was deleted"), report.problem.c_str());
    // Runs recorded after the loss do not hide it.
    lost.finishRun(lost.beginRun(newRun()), outcome());
    REQUIRE(!RunStore(file("lost/runs.sqlite")).verify().ok);
}

TEST_CASE("aStoreMadeWhereOneWasDeletedStartsItsOwnChain")
{
    const std::string path = file("again/runs.sqlite");
    threeRuns("again/runs.sqlite");
    REQUIRE(std::filesystem::exists(path + ".chain-head"));
    // The user deletes the store (not its chain head) and starts afresh at the same path.
    for (const std::string& f : {path, path + "-wal", path + "-shm"}) std::filesystem::remove(f);
    {
        RunStore fresh(path);
        REQUIRE_MESSAGE(test::contains(fresh.lostOnOpen(), "of a store that was here before"), fresh.lostOnOpen().c_str());
        REQUIRE(std::filesystem::exists(path + ".chain-head.previous"));  // the evidence kept aside
        fresh.finishRun(fresh.beginRun(newRun()), outcome());
        const VerifyReport report = fresh.verify();
        REQUIRE_MESSAGE(report.ok, report.problem.c_str());
    }
    // Said once: the head follows the new store, and a lost -wal is caught on it again.
    RunStore again(path);
    REQUIRE_MESSAGE(again.lostOnOpen().empty(), again.lostOnOpen().c_str());
    REQUIRE(again.verify().ok);
    REQUIRE_EQ(again.listRuns().size(), std::size_t{1});
}

TEST_CASE("aMissingChainKeyIsNamed")
{
    const std::vector<std::string> ids = threeRuns("nokey.sqlite");
    const std::string key = std::getenv("CLUSTERDESK_CHAIN_KEY");
    ::setenv("CLUSTERDESK_CHAIN_KEY", file("elsewhere/chain.key").c_str(), 1);
    const VerifyReport report = RunStore(file("nokey.sqlite")).verify();
    REQUIRE(!report.ok);
    REQUIRE_MESSAGE(test::contains(report.problem, "the chain key " + file("elsewhere/chain.key") + " is missing"), report.problem.c_str());
    bool refused = false;
    try {
        RunStore runStore(file("nokey.sqlite"));
        runStore.finishRun(runStore.beginRun(newRun()), outcome());
    } catch (const StoreError& e) {
        refused = test::contains(std::string(e.what()), "is missing");
    }
    REQUIRE(refused);  // never sealed with a new key that would orphan the old records
    REQUIRE(!std::filesystem::exists(file("elsewhere/chain.key")));
    ::setenv("CLUSTERDESK_CHAIN_KEY", key.c_str(), 1);
}

TEST_CASE("aReadOnlyOpenChangesNothing")
{
    const std::string path = file("readonly/runs.sqlite");
    std::string done, dead;
    {
        RunStore runStore(path);
        done = runStore.beginRun(newRun());
        runStore.finishRun(done, outcome());
        dead = runStore.beginRun(newRun());
    }
    // Its owner gone: a read-write open would mark it interrupted.
    execSql(path, "UPDATE runs SET owner_pid = 999999, owner_token = 'gone:1' WHERE status = 'running'");
    const std::string bytes = readAll(path);
    {
        RunStore reader(path, StoreAccess::ReadOnly);
        REQUIRE_EQ(reader.interruptedOnOpen(), 0);
        REQUIRE_EQ(reader.listRuns().size(), std::size_t(2));
        REQUIRE(reader.loadRun(dead).info.status == RunStatus::Running);
        REQUIRE_EQ(reader.loadRun(done).labels, outcome().labels);
        const VerifyReport report = reader.verify();
        REQUIRE_MESSAGE(report.ok, report.problem.c_str());
        REQUIRE_THROWS_AS(reader.finishRun(dead, outcome()), StoreError);  // SQLite refuses every write
    }
    REQUIRE(readAll(path) == bytes);
    REQUIRE_EQ(std::filesystem::file_size(path + "-wal"), std::uintmax_t{0});  // SQLite may leave an empty one; nothing was written to it

    // A file from a schema too old to read without migrating is refused, not migrated.
    const std::string old = file("readonly-v3.sqlite");
    loadFixture(3, old);
    try {
        RunStore reader(old, StoreAccess::ReadOnly);
        FAIL("an old schema was opened read-only");
    } catch (const StoreError& e) {
        REQUIRE_MESSAGE(test::contains(std::string(e.what()), "older ClusterDesk (schema version 3)"), e.what());
    }
    REQUIRE_EQ(queryText(old, "PRAGMA user_version"), std::string("3"));
}

TEST_CASE("aPathThatIsNotUtf8IsRecordedAndChained")
{
    const std::string path = file("latin1.sqlite");
    const std::string latin1Path = "/data/pr\xe9vision.csv";  // Latin-1, as an old file system may hold it
    {
        RunStore runStore(path);
        const std::string id = runStore.beginRun(newRun(latin1Path));
        runStore.finishRun(id, outcome());
        REQUIRE(runStore.loadRun(id).info.status == RunStatus::Ok);
    }
    RunStore again(path);  // opening re-reads the chain's tail
    REQUIRE_EQ(again.listRuns().size(), std::size_t(1));
    REQUIRE_EQ(again.listRuns()[0].dataSource.location, latin1Path);
    const VerifyReport report = again.verify();
    REQUIRE_MESSAGE(report.ok, report.problem.c_str());
}

TEST_CASE("deleteKeepsTheChainAndGcRemovesArtifacts")
{
    RunStore runStore(file("gc.sqlite"));
    const std::string a = runStore.beginRun(newRun());
    runStore.finishRun(a, outcome());
    const std::string b = runStore.beginRun(newRun());
    REQUIRE_THROWS_AS(runStore.deleteRun(b), UsageError);  // still running
    runStore.finishRun(b, outcome());
    runStore.deleteRun(a);
    REQUIRE_EQ(runStore.listRuns().size(), std::size_t(1));
    RunFilter all;
    all.includeDeleted = true;
    REQUIRE_EQ(runStore.listRuns(all).size(), std::size_t(2));
    const GcReport gc = runStore.collectGarbage();
    REQUIRE_EQ(gc.runs, 1);
    REQUIRE(gc.bytes > 0);
    const RunRecord deleted = runStore.loadRun(a);
    REQUIRE(deleted.info.deleted);
    REQUIRE(deleted.artifactsCollected);
    REQUIRE(deleted.labels.empty());
    REQUIRE_EQ(runStore.loadRun(b).labels, outcome().labels);
    const VerifyReport report = runStore.verify();
    REQUIRE_MESSAGE(report.ok, report.problem.c_str());
    REQUIRE_EQ(runStore.collectGarbage().runs, 0);
}

TEST_CASE("defaultPathFollowsTheEnvironment")
{
    const auto get = [](const char* name) { const char* v = std::getenv(name); return std::string(v ? v : ""); };
    const auto put = [](const char* name, const std::string& value) { ::setenv(name, value.c_str(), 1); };
    const std::string db = get("CLUSTERDESK_DB"), xdg = get("XDG_DATA_HOME"), home = get("HOME");
    put("CLUSTERDESK_DB", "/tmp/x/own.sqlite");
    REQUIRE_EQ(defaultStorePath().string(), std::string("/tmp/x/own.sqlite"));
    ::unsetenv("CLUSTERDESK_DB");
    put("XDG_DATA_HOME", "/tmp/xdg");
    REQUIRE_EQ(defaultStorePath().string(), std::string("/tmp/xdg/clusterdesk/runs.sqlite"));
    put("XDG_DATA_HOME", "relative/ignored");
    put("HOME", "/home/quant");
    REQUIRE_EQ(defaultStorePath().string(), std::string("/home/quant/.local/share/clusterdesk/runs.sqlite"));
    put("CLUSTERDESK_DB", db);
    put("XDG_DATA_HOME", xdg);
    put("HOME", home);
}

TEST_CASE("noOutputMayReplaceTheStoreItsCompanionsOrItsKey")
{
    const std::string store = file("guarded/runs.sqlite");
    std::filesystem::create_directories(file("guarded"));
    const std::vector<ProtectedFile> parts = storeFiles(store);
    for (const std::string& path : {store, store + "-wal", store + "-shm", store + "-journal", store + ".chain-head", chainKeyPath().string()}) {
        std::string message;
        try {
            checkOutputPath("--labels-out", path, parts);
        } catch (const UsageError& e) {
            message = e.what();
        }
        REQUIRE_MESSAGE(message.find("would overwrite the run store") != std::string::npos, (path + ": " + message).c_str());
    }
    checkOutputPath("--labels-out", file("guarded/labels.csv"), parts);  // anything else is fine
}

TEST_CASE("aStorePathThatIsNotAFileIsNamed")
{
    // SQLite says "unable to open database file" or "disk I/O error" for these.
    std::filesystem::create_directories(file("a-folder"));
    for (const std::string& path : {file("a-folder"), std::string("/dev/null")}) {
        for (StoreAccess access : {StoreAccess::ReadWrite, StoreAccess::ReadOnly})
            CHECK_THROWS_WITH_AS(RunStore(path, access), doctest::Contains((path + ": it is a").c_str()), StoreError);
    }
}
