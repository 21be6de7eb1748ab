// The chain over everything the store holds about its runs, in one numbered sequence
// of records, each sealed over the previous record's seal:
// - a completed run (runs.chain_seq): its canonical content, a deterministic
//   serialisation (sorted-key JSON) of
//   - its runs row, minus the columns that are not part of the record: its place in
//     the chain (chain_seq, prev_hash, record_hash, chain_kind), the tombstone
//     (deleted_at, chained by its own event) and the owning process (owner_pid,
//     owner_token). NULL columns are left out, so a later schema version that adds a
//     nullable column keeps old seals valid;
//   - its dataset row (keyed records only: records sealed before schema v5 did not
//     cover it);
//   - its iteration and telemetry rows in order;
//   - its artifacts' kind, encoding, shape and SHA-256 (not the bytes: gc may remove
//     the bytes of a deleted run, and verify checks the bytes against the SHA-256
//     wherever they are still present);
//   - the lineage edges that exist when it completes: its dataset input and the runs it
//     was re-run or warm-started from;
// - an event (chain_events, schema v5): `keyed` where keyed sealing began, `tombstone`
//   when a run is deleted (covering its deleted_at), `edge` when a lineage edge is added
//   later (compared_with, report; covering the edge row).
// So everything `runs show` displays is sealed, and a row no record covers (a deleted_at
// or an edge without its event, a finished run without a record) is reported.
//
// Seal: from schema v5 on, HMAC-SHA-256(key, prev_seal + "\n" + content) with a secret
// key kept outside the store (store_path.h chainKeyPath()), so a script that edits a
// record cannot re-seal the chain from there on without the key. Records sealed before
// v5 keep their plain SHA-256(prev_seal + "\n" + content) (chain_kind NULL) and are
// reported as such; none may follow the `keyed` marker, and a v5 store without the
// marker was re-sealed. The first record's prev_seal is 64 zeros. The sequence number is
// assigned inside the writing transaction, so concurrent writers never fork the chain.
//
// A lost -wal file (committed transactions gone) is detected on the next open through a
// small file beside the store, STORE.chain-head, that holds the last record's number
// and seal, written after each commit: the file's own chain must still hold that record.
// Losing the newest records together with that file needs an anchor outside (not here).
#pragma once

#include "run_store.h"

#include <cstdint>
#include <optional>
#include <string>

namespace clusterdesk::store {

class Database;

enum class ChainFormat {
    PlainSha256,  // records sealed before schema v5
    Keyed,        // HMAC-SHA-256 with the chain key
};

// What a run record seals (see above), as the rows are now.
std::string canonicalRunContent(Database& db, const std::string& runId, ChainFormat format);

// Call inside a WriteTransaction, after the run's final state is written.
void appendRunToChain(Database& db, const std::string& runId, ChainFormat format = ChainFormat::Keyed);
// kind: "tombstone" (subject: the run id) or "edge" (subject: the lineage row id).
void appendEventToChain(Database& db, const std::string& kind, const std::string& subject);
// Migration to v5: creates the chain key if there is none yet and appends the marker.
void startKeyedChain(Database& db);

VerifyReport verifyChain(Database& db);

// The newest record (sequence number and seal; 0 and the genesis seal when empty), and
// the seal of record `seq` (nullopt when the chain holds no such record).
ChainHead chainHead(Database& db);
std::optional<std::string> sealAt(Database& db, std::int64_t seq);

// After a commit that appended records: remembers the chain head beside the store.
// Never moves the remembered head onto a chain that lost it (the evidence stays until
// the user has seen it in verify). Best effort: a head that cannot be written only
// weakens the detection.
void rememberChainHead(Database& db);
// Empty, or what the file lost since the head was last remembered.
std::string lostChainRecords(Database& db);
// For a store this open created: a chain head beside it remembers a store that was here
// before (deleted or moved away). Says so, once, and lets the head follow the new store,
// which otherwise could never verify. Empty when there was none.
std::string forgetPreviousStoresHead(Database& db);

}  // namespace clusterdesk::store
