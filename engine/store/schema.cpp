#include "schema.h"

#include "run_chain.h"
#include "sqlite_db.h"

#include <string>

namespace clusterdesk::store {
namespace {

constexpr const char* kSchemaV1 = R"sql(
CREATE TABLE datasets (
  hash         TEXT PRIMARY KEY,
  source       TEXT NOT NULL,
  source_kind  TEXT NOT NULL CHECK (source_kind IN ('file', 'demo')),
  load_options TEXT NOT NULL,
  layout       TEXT NOT NULL,
  rows         INTEGER NOT NULL,
  cols         INTEGER NOT NULL,
  first_seen   TEXT NOT NULL
);
CREATE TABLE runs (
  id             TEXT PRIMARY KEY,
  dataset_hash   TEXT NOT NULL REFERENCES datasets(hash),
  algorithm      TEXT NOT NULL,
  source         TEXT NOT NULL,
  source_kind    TEXT NOT NULL CHECK (source_kind IN ('file', 'demo')),
  load_options   TEXT NOT NULL,
  params         TEXT NOT NULL,
  mode           TEXT NOT NULL,
  precision      TEXT NOT NULL,
  seed           TEXT NOT NULL,
  topology       TEXT NOT NULL,
  threads        INTEGER NOT NULL,
  backend        TEXT,
  devices        TEXT,
  engine_version TEXT NOT NULL,
  git_commit     TEXT NOT NULL,
  host           TEXT NOT NULL,
  started_at     TEXT NOT NULL,
  ended_at       TEXT,
  status         TEXT NOT NULL CHECK (status IN ('running', 'ok', 'failed', 'cancelled')),
  failure        TEXT,
  metrics        TEXT NOT NULL DEFAULT '{}'
);
CREATE INDEX runs_by_start ON runs(started_at);
CREATE INDEX runs_by_dataset ON runs(dataset_hash);
CREATE TABLE iterations (
  run_id        TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  seq           INTEGER NOT NULL,
  iteration     INTEGER NOT NULL,
  round         INTEGER NOT NULL,
  k             INTEGER NOT NULL,
  inertia       REAL,
  assign_ms     REAL,
  update_ms     REAL,
  reduce_ms     REAL,
  rows_searched INTEGER,
  sizes         TEXT,
  event         TEXT,
  PRIMARY KEY (run_id, seq)
);
CREATE TABLE artifacts (
  run_id   TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  kind     TEXT NOT NULL CHECK (kind IN ('labels', 'centroids', 'initial_centroids')),
  encoding TEXT NOT NULL CHECK (encoding IN ('int32le', 'float32le')),
  rows     INTEGER NOT NULL,
  cols     INTEGER NOT NULL,
  sha256   TEXT NOT NULL,
  data     BLOB,
  PRIMARY KEY (run_id, kind)
);
CREATE TABLE lineage (
  id         INTEGER PRIMARY KEY,
  src_kind   TEXT NOT NULL CHECK (src_kind IN ('dataset', 'run')),
  src        TEXT NOT NULL,
  dst_kind   TEXT NOT NULL CHECK (dst_kind IN ('run', 'report')),
  dst        TEXT NOT NULL,
  relation   TEXT NOT NULL CHECK (relation IN ('input', 'warm_start', 'rerun', 'compared_with', 'report')),
  created_at TEXT NOT NULL
);
CREATE INDEX lineage_by_src ON lineage(src);
CREATE INDEX lineage_by_dst ON lineage(dst);
)sql";

constexpr const char* kSchemaV2 = R"sql(
ALTER TABLE runs ADD COLUMN energy_j REAL;
ALTER TABLE runs ADD COLUMN energy_source TEXT;
ALTER TABLE runs ADD COLUMN owner_pid INTEGER;
ALTER TABLE runs ADD COLUMN owner_token TEXT;
ALTER TABLE runs ADD COLUMN deleted_at TEXT;
ALTER TABLE runs ADD COLUMN chain_seq INTEGER;
ALTER TABLE runs ADD COLUMN prev_hash TEXT;
ALTER TABLE runs ADD COLUMN record_hash TEXT;
CREATE UNIQUE INDEX runs_by_chain ON runs(chain_seq);
CREATE TABLE telemetry (
  run_id  TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  seq     INTEGER NOT NULL,
  seconds REAL NOT NULL,
  device  TEXT NOT NULL,
  watts   REAL NOT NULL,
  kind    TEXT NOT NULL CHECK (kind IN ('measured', 'estimated')),
  PRIMARY KEY (run_id, seq)
);
)sql";

constexpr const char* kSchemaV3 = R"sql(
ALTER TABLE artifacts ADD COLUMN compression TEXT;
)sql";

// Every rank's phase latencies per iteration (JSON, NULL for one-shard runs). Nullable,
// so records chained before it keep their hashes (run_chain.h leaves NULL columns out).
constexpr const char* kSchemaV4 = R"sql(
ALTER TABLE iterations ADD COLUMN ranks TEXT;
)sql";

// Keyed sealing (run_chain.h): which seal a run record has (NULL: plain SHA-256, as
// every record before this version), and the chained events: where keyed sealing began,
// deletions and lineage edges added after a run completed. Deletions and edges that
// happened before this version are chained now, after the marker.
constexpr const char* kSchemaV5 = R"sql(
ALTER TABLE runs ADD COLUMN chain_kind TEXT CHECK (chain_kind IN ('hmac-sha256'));
CREATE TABLE chain_events (
  seq         INTEGER PRIMARY KEY,
  kind        TEXT NOT NULL CHECK (kind IN ('keyed', 'tombstone', 'edge')),
  subject     TEXT NOT NULL,
  at          TEXT NOT NULL,
  prev_hash   TEXT NOT NULL,
  record_hash TEXT NOT NULL
);
)sql";

// Comparisons (what-if): the document, content-addressed by its SHA-256, and lineage
// edges from every run it measured to it. SQLite cannot widen a CHECK in place, so the
// lineage table is rebuilt with the same rows and ids (chained edges name them by id).
constexpr const char* kSchemaV6 = R"sql(
CREATE TABLE comparisons (
  id         TEXT PRIMARY KEY,
  created_at TEXT NOT NULL,
  document   TEXT NOT NULL
);
CREATE TABLE lineage_v6 (
  id         INTEGER PRIMARY KEY,
  src_kind   TEXT NOT NULL CHECK (src_kind IN ('dataset', 'run')),
  src        TEXT NOT NULL,
  dst_kind   TEXT NOT NULL CHECK (dst_kind IN ('run', 'report', 'comparison')),
  dst        TEXT NOT NULL,
  relation   TEXT NOT NULL CHECK (relation IN ('input', 'warm_start', 'rerun', 'compared_with', 'report', 'compared_in')),
  created_at TEXT NOT NULL
);
INSERT INTO lineage_v6 SELECT id, src_kind, src, dst_kind, dst, relation, created_at FROM lineage;
DROP TABLE lineage;
ALTER TABLE lineage_v6 RENAME TO lineage;
CREATE INDEX lineage_by_src ON lineage(src);
CREATE INDEX lineage_by_dst ON lineage(dst);
)sql";

// A live update's input (what the session was fed since the previous update) is an
// artifact of its own kind and encoding: the artifacts table is rebuilt with the wider
// CHECKs, the same rows and the same order.
constexpr const char* kSchemaV7 = R"sql(
CREATE TABLE artifacts_v7 (
  run_id      TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  kind        TEXT NOT NULL CHECK (kind IN ('labels', 'centroids', 'initial_centroids', 'live_input')),
  encoding    TEXT NOT NULL CHECK (encoding IN ('int32le', 'float32le', 'utf8')),
  rows        INTEGER NOT NULL,
  cols        INTEGER NOT NULL,
  sha256      TEXT NOT NULL,
  data        BLOB,
  compression TEXT,
  PRIMARY KEY (run_id, kind)
);
INSERT INTO artifacts_v7 SELECT run_id, kind, encoding, rows, cols, sha256, data, compression FROM artifacts;
DROP TABLE artifacts;
ALTER TABLE artifacts_v7 RENAME TO artifacts;
)sql";

void toV1(Database& db)
{
    db.exec(kSchemaV1);
}

void toV2(Database& db)
{
    db.exec(kSchemaV2);
    // Runs that finished under v1 join the chain in the order they ended.
    Statement finished(db, "SELECT id FROM runs WHERE status <> 'running' ORDER BY ended_at, started_at, id");
    std::vector<std::string> ids;
    while (finished.step()) ids.push_back(finished.text(0));
    for (const std::string& id : ids) appendRunToChain(db, id, ChainFormat::PlainSha256);
}

void toV3(Database& db)
{
    db.exec(kSchemaV3);
}

void toV4(Database& db)
{
    db.exec(kSchemaV4);
}

void toV5(Database& db)
{
    db.exec(kSchemaV5);
    startKeyedChain(db);
    std::vector<std::string> deleted, edges;
    {
        Statement select(db, "SELECT id FROM runs WHERE deleted_at IS NOT NULL ORDER BY deleted_at, rowid");
        while (select.step()) deleted.push_back(select.text(0));
        Statement later(db, "SELECT id FROM lineage WHERE NOT (dst_kind = 'run' AND relation IN ('input', 'rerun', 'warm_start')) ORDER BY id");
        while (later.step()) edges.push_back(later.text(0));
    }
    for (const std::string& id : deleted) appendEventToChain(db, "tombstone", id);
    for (const std::string& id : edges) appendEventToChain(db, "edge", id);
}

void toV6(Database& db)
{
    db.exec(kSchemaV6);
}

void toV7(Database& db)
{
    db.exec(kSchemaV7);
}

using Migration = void (*)(Database&);
constexpr Migration kMigrations[kLatestSchemaVersion] = {toV1, toV2, toV3, toV4, toV5, toV6, toV7};  // kMigrations[v] takes v to v + 1

int userVersion(Database& db)
{
    Statement version(db, "PRAGMA user_version");
    version.step();
    return static_cast<int>(version.integer(0));
}

// The oldest schema the reading queries work on without migrating: v4 added the last
// column they name (iterations.ranks).
constexpr int kOldestReadableVersion = 4;

int knownVersion(Database& db)
{
    const int found = userVersion(db);
    if (found > kLatestSchemaVersion)
        throw StoreError(db.path() + ": written by a newer ClusterDesk (schema version " + std::to_string(found) +
                         ", this build knows up to " + std::to_string(kLatestSchemaVersion) + ")");
    return found;
}

}  // namespace

void requireReadable(Database& db)
{
    const int found = knownVersion(db);
    if (found == 0) throw SchemaNeedsMigration(db.path() + ": not a run store yet (empty: being created, or not written by ClusterDesk)");
    if (found < kOldestReadableVersion)
        throw SchemaNeedsMigration(db.path() + ": written by an older ClusterDesk (schema version " + std::to_string(found) +
                         "); it is opened read-only here and cannot be brought up to date: run a command that writes "
                         "(e.g. runs gc) where the file is writable");
}

int migrate(Database& db)
{
    const int found = knownVersion(db);
    if (found == kLatestSchemaVersion) return found;
    while (true) {
        // The version is re-read under the write lock: another process may have
        // migrated the file meanwhile.
        WriteTransaction transaction(db);
        const int version = userVersion(db);
        if (version >= kLatestSchemaVersion) break;
        try {
            kMigrations[version](db);
        } catch (const StoreError& e) {
            // A new store runs every migration: that is its creation, not an upgrade.
            throw StoreError(std::string(e.what()) +
                             (found == 0 ? std::string(" (creating the store)") : " (migrating from schema version " + std::to_string(version) + ")"));
        }
        // user_version cannot be a bound parameter; the value is our own integer.
        db.exec(("PRAGMA user_version = " + std::to_string(version + 1)).c_str());
        transaction.commit();
    }
    return found;
}

}  // namespace clusterdesk::store
