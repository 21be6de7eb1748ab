// The run store: every clustering run with its dataset, parameters, code version,
// per-iteration statistics, power telemetry, final labels and centroids, and the
// lineage between datasets, runs and reports, in one SQLite file (see store_path.h
// for where it lives). The CLI and the window write it; the window's history and lineage views read it.
//
// Life of a run: beginRun() inserts it as `running` (with its dataset and input
// edges) before the clustering starts; finishRun() writes everything it produced and
// its final status in one transaction. A process that dies in between leaves an honest
// `running` row; the next RunStore opened on this host marks it `failed` with reason
// "interrupted" unless the process that owns it is still alive (see process_owner.h).
//
// Tamper evidence: when a run leaves `running`, is deleted, or gets a lineage edge
// later, a record is appended to a chain sealed with a key kept outside the file
// (run_chain.h). verify() recomputes the chain and names the first record that does
// not match, and any row that no record covers.
//
// Deleting a run is a tombstone: the run is marked deleted (hidden from listRuns by
// default) and keeps its chained record, so the chain stays verifiable;
// collectGarbage() then drops the artifact bytes of deleted runs (their hashes stay).
//
// Every value that comes from a user (paths, specs, filters, ids) reaches SQLite as a
// bound parameter only. Thread safety: one RunStore per thread; any number of
// processes may use the same file at once.
#pragma once

#include "engine/cluster/params.h"
#include "engine/data/source_spec.h"
#include "store_error.h"

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace clusterdesk::store {

enum class RunStatus { Running, Ok, Failed, Cancelled };
std::string toString(RunStatus status);           // "running", "ok", "failed", "cancelled"
std::optional<RunStatus> parseRunStatus(const std::string& text);

inline constexpr const char* kInterrupted = "interrupted";  // failure reason of a run whose process died

// A dataset is identified by its content hash; spec says where it was first seen
// (each run also records what it read itself, see RunInfo).
struct DatasetInfo {
    std::string hash;         // Dataset::contentHash()
    SourceSpec spec;          // the source, its file or demo spec, every option
    std::string layout;       // "matrix", "prices", "ticks"
    std::int64_t rows = 0;
    std::int64_t cols = 0;
    std::string firstSeen;    // ISO 8601 UTC, set by the store
};

// Lineage: dataset -> run (input), run -> run (warm_start, rerun, compared_with),
// run -> report (report), run -> comparison (compared_in).
struct LineageEdge {
    std::string srcKind;   // "dataset" or "run"
    std::string src;       // dataset hash or run id
    std::string dstKind;   // "run", "report" or "comparison"
    std::string dst;       // run id or report name/path
    std::string relation;  // "input", "warm_start", "rerun", "compared_with", "report", "compared_in"
    std::string createdAt;
};

struct TelemetrySample {
    double seconds = 0;  // since the run's sampler started
    std::string device;  // "cpu package 0", "GPU 0 NVIDIA H200"
    double watts = 0;
    std::string kind;    // "measured" or "estimated"
};

// What a run list shows: the runs table row.
struct RunInfo {
    std::string id;                   // uuid
    std::string datasetHash;
    SourceSpec dataSource;            // what this run read: the source, its file or demo spec, every option
    std::string algorithm;
    std::string paramsJson;           // every KMeansParams field (run_codec.h)
    std::string mode, precision, seed, topology;
    int threads = 0;
    std::string backend;              // empty while running
    std::vector<std::string> devices;
    std::string engineVersion, gitCommit, host;
    std::string startedAt, endedAt;   // ISO 8601 UTC; endedAt empty while running
    RunStatus status = RunStatus::Running;
    std::string failure;              // why it failed or was cancelled
    std::string metricsJson;          // k, inertia, iterations, converged, ari, timings, ... ("{}" while running)
    std::optional<double> energyJ;
    std::string energySource;         // "measured", "estimated", "mixed" or empty
    bool deleted = false;
    std::optional<std::int64_t> chainSeq;  // position in the hash chain, once completed
    std::string recordHash;
};

// Everything recorded about one run.
struct RunRecord {
    RunInfo info;
    DatasetInfo dataset;
    std::vector<IterationStats> iterations;
    std::vector<TelemetrySample> telemetry;
    int k = 0;                          // rows of centroids
    std::int64_t cols = 0;
    std::vector<float> centroids;       // k x cols; empty when not recorded or collected
    std::vector<std::int32_t> labels;   // one per dataset row; empty likewise
    std::vector<float> initialCentroids;  // when the run started from given centroids
    std::string liveInput;              // a live update's input (NewRun::liveInput)
    bool artifactsCollected = false;    // a deleted run whose artifact bytes gc removed
    std::vector<LineageEdge> lineage;   // edges into and out of this run
};

// A run about to start.
struct NewRun {
    DatasetInfo dataset;
    KMeansParams params;           // initialCentroids are stored as an artifact
    std::string topology;
    int threads = 0;
    std::vector<LineageEdge> parents;  // run -> this run edges (rerun, warm_start); dst is filled in
    // A live update: what the session was fed since the previous update (JSON, see
    // stream/live_input.h), kept as an artifact so the session can be replayed.
    std::string liveInput;
};

// What a run produced, written by finishRun.
struct RunOutcome {
    RunStatus status = RunStatus::Ok;
    std::string failure;
    std::string backend;
    std::vector<std::string> devices;
    std::string metricsJson = "{}";
    std::optional<double> energyJ;
    std::string energySource;
    std::vector<IterationStats> iterations;
    std::vector<TelemetrySample> telemetry;
    int k = 0;
    std::int64_t cols = 0;
    std::vector<float> centroids;
    std::vector<std::int32_t> labels;
};

enum class RunSort { Started, Ended, Algorithm, Status, Energy, Duration };

struct RunFilter {
    std::string text;                  // substring of id, dataset source, algorithm, topology or host
    std::optional<RunStatus> status;
    std::string datasetHash;           // exact, or empty for any
    bool includeDeleted = false;
    RunSort sort = RunSort::Started;
    bool descending = true;
    int limit = 0;                     // 0 = all
};

struct VerifyReport {
    bool ok = true;
    std::int64_t records = 0;          // chained run records checked
    std::int64_t events = 0;           // chained events checked (deletions, later lineage edges, the keyed start)
    std::int64_t plainRecords = 0;     // of both, sealed with plain SHA-256 before keyed sealing (schema < 5)
    std::string firstBadRun;           // id of the first record that does not match
    std::string problem;               // what does not match, naming the record
};

// A place in the hash chain: a record's sequence number and its seal (hex).
struct ChainHead {
    std::int64_t seq = 0;
    std::string hash;
};

struct GcReport {
    int runs = 0;                      // deleted runs whose artifacts were removed
    std::int64_t bytes = 0;            // artifact bytes removed
};

class Database;

// ReadOnly: for commands that only read (list, show, diff, verify, export). The file is
// opened with SQLITE_OPEN_READONLY and nothing is written: no journal-mode switch, no
// migration, no interrupted runs marked; so a store on a read-only medium or without
// write permission can still be read. It must already exist.
enum class StoreAccess { ReadWrite, ReadOnly };

class RunStore {
public:
    static constexpr int kSchemaVersion = 7;  // PRAGMA user_version; migrations in schema.cpp

    // Opens or creates the file, migrates an older schema forward (one transaction per
    // version), and marks this host's runs whose process is gone as interrupted.
    // Throws StoreError (naming the file) when it cannot, or when the file was written
    // by a newer schema (or, read-only, by one too old to read without migrating).
    explicit RunStore(const std::filesystem::path& path, StoreAccess access = StoreAccess::ReadWrite);
    ~RunStore();
    RunStore(const RunStore&) = delete;
    RunStore& operator=(const RunStore&) = delete;

    const std::string& path() const;
    int schemaVersion() const;
    int interruptedOnOpen() const { return m_interruptedOnOpen; }
    // Empty, or which chained records the file lost since the last commit this machine
    // saw (a deleted -wal file); verify() reports it too.
    const std::string& lostOnOpen() const { return m_lostOnOpen; }

    // Writing a run. beginRun returns the new run's id. finishRun refuses to record as
    // ok a result that holds NaN or infinity (NonFiniteResult, naming the value) and
    // writes nothing then: the caller records the run as failed with that reason.
    std::string beginRun(const NewRun& run);
    void finishRun(const std::string& id, const RunOutcome& outcome);

    // Reading. resolveId accepts a unique prefix of an id (like git); UsageError for an
    // unknown or ambiguous one.
    std::vector<RunInfo> listRuns(const RunFilter& filter = {}) const;
    std::string resolveId(const std::string& prefix) const;
    RunRecord loadRun(const std::string& id) const;  // UsageError when there is no such run
    std::vector<LineageEdge> lineage(const std::string& runId) const;

    void addEdge(const LineageEdge& edge);
    // A report file citing these runs: one `report` edge from each run to the report's
    // SHA-256, chained like every later edge, in one transaction.
    void recordReport(const std::string& reportSha256, const std::vector<std::string>& runIds);
    // A what-if comparison: its document (JSON) kept under its SHA-256, which it returns,
    // and a chained `compared_in` edge from each run it measured, in one transaction.
    std::string recordComparison(const std::string& documentJson, const std::vector<std::string>& runIds);
    // The document of a recorded comparison (id or unique prefix); UsageError when none.
    std::string comparisonDocument(const std::string& idOrPrefix) const;
    // Ids of the runs a report (by its SHA-256) was recorded as citing; empty when none.
    std::vector<std::string> reportCitations(const std::string& reportSha256) const;

    // The newest record of the hash chain, and the seal of record `seq` (nullopt when
    // the chain holds none): what a report quotes and `runs verify --report` checks.
    ChainHead chainHead() const;
    std::optional<std::string> sealAt(std::int64_t seq) const;
    // Tombstones the run (chained once); false when it was deleted before.
    bool deleteRun(const std::string& id);
    GcReport collectGarbage();
    VerifyReport verify() const;

    // Marks running rows of this host whose owning process is gone as failed
    // (interrupted); returns how many. Called on open; the GUI may call it again.
    int markInterrupted();

private:
    std::unique_ptr<Database> m_db;
    int m_interruptedOnOpen = 0;
    std::string m_lostOnOpen;
};

}  // namespace clusterdesk::store
