// The store's schema and its forward migrations. The version lives in
// PRAGMA user_version: 0 = empty file, 1 = the first schema, 7 = the current one.
// A fresh file is built by running every migration from 0, so the path an old file
// takes is the path every new file takes too.
//
// v1: datasets, runs, iterations, artifacts, lineage.
// v2: telemetry samples; energy and its source, the owning process (for telling an
//     interrupted run from a live one), the tombstone and the hash chain on runs.
//     Runs completed under v1 are chained in the order they ended.
// v3: compressed artifacts (those written before stay raw: compression NULL).
// v4: every rank's phase latencies per iteration.
// v5: keyed sealing of the chain (run_chain.h), chained deletions and later lineage edges.
// v6: what-if comparisons, and lineage edges from runs to them.
// v7: a live update's input as an artifact (kind live_input, encoding utf8).
#pragma once

#include "run_store.h"

namespace clusterdesk::store {

class Database;

inline constexpr int kLatestSchemaVersion = RunStore::kSchemaVersion;

// Migrates to kLatestSchemaVersion, one write transaction per version; returns the
// version found. Throws StoreError for a file written by a newer schema.
int migrate(Database& db);

// For a file opened read-only, which is never migrated: throws StoreError unless its
// schema is one this build reads as it is (v4, whose columns every query names, or
// later up to the latest; verify treats a v4 chain as plain SHA-256 records).
void requireReadable(Database& db);

}  // namespace clusterdesk::store
