// The hash chain over completed runs. A run's canonical content is a deterministic
// serialisation (sorted-key JSON) of what the store holds about it:
// - its runs row, minus the columns that are not part of the record: its place in
//   the chain (chain_seq, prev_hash, record_hash), the tombstone (deleted_at) and the
//   owning process (owner_pid, owner_token). NULL columns are left out, so a later
//   schema version that adds a nullable column keeps old hashes valid;
// - its iteration and telemetry rows in order;
// - its artifacts' kind, encoding, shape and SHA-256 (not the bytes: gc may remove
//   the bytes of a deleted run, and verify checks the bytes against the SHA-256
//   wherever they are still present);
// - the lineage edges that exist when it completes: its dataset input and the runs it
//   was re-run or warm-started from. Edges added later (compared_with, report) are
//   annotations and are not chained.
// record_hash = SHA-256(prev_hash + "\n" + canonical content), prev_hash of the first
// record is 64 zeros. The chain order is assigned inside the completing write
// transaction, so concurrent writers append one after the other and never fork it.
#pragma once

#include "run_store.h"

#include <string>

namespace clusterdesk::store {

class Database;

std::string canonicalRunContent(Database& db, const std::string& runId);

// Call inside a WriteTransaction, after the run's final state is written.
void appendToChain(Database& db, const std::string& runId);

VerifyReport verifyChain(Database& db);

}  // namespace clusterdesk::store
