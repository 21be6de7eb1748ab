#include "run_chain.h"

#include "artifact_codec.h"
#include "engine/core/sha256.h"
#include "sqlite_db.h"

#include <nlohmann/json.hpp>

#include <set>

namespace clusterdesk::store {
namespace {

const std::string kGenesisHash(64, '0');

// Relations known when a run completes; the rest are added later and not chained.
constexpr const char* kChainedEdges = "SELECT src_kind, src, dst_kind, dst, relation, created_at FROM lineage "
                                      "WHERE dst_kind = 'run' AND dst = ?1 AND relation IN ('input', 'rerun', 'warm_start') "
                                      "ORDER BY id";

nlohmann::json columnValue(const Statement& row, int column)
{
    switch (row.columnType(column)) {
        case SQLITE_INTEGER: return row.integer(column);
        case SQLITE_FLOAT: return row.real(column);
        case SQLITE_TEXT: return row.text(column);
        case SQLITE_BLOB: {
            const std::vector<unsigned char> bytes = row.blob(column);
            return "sha256:" + sha256Hex(bytes.data(), bytes.size());
        }
        default: return nullptr;
    }
}

// Every non-NULL column of the current row except `skip`, keyed by column name.
nlohmann::json rowObject(const Statement& row, const std::set<std::string>& skip = {})
{
    nlohmann::json object = nlohmann::json::object();
    for (int c = 0; c < row.columnCount(); ++c) {
        const std::string name = row.columnName(c);
        if (skip.count(name) || row.isNull(c)) continue;
        object[name] = columnValue(row, c);
    }
    return object;
}

nlohmann::json rows(Database& db, const char* sql, const std::string& runId, const std::set<std::string>& skip = {})
{
    Statement select(db, sql);
    select.bindAll(runId);
    nlohmann::json out = nlohmann::json::array();
    while (select.step()) out.push_back(rowObject(select, skip));
    return out;
}

std::string recordHash(const std::string& prevHash, const std::string& canonical)
{
    return sha256Hex(prevHash + "\n" + canonical);
}

}  // namespace

std::string canonicalRunContent(Database& db, const std::string& runId)
{
    nlohmann::json content;
    Statement run(db, "SELECT * FROM runs WHERE id = ?1");
    run.bindAll(runId);
    if (!run.step()) throw StoreError(db.path() + ": run " + runId + " does not exist");
    content["run"] = rowObject(run, {"chain_seq", "prev_hash", "record_hash", "deleted_at", "owner_pid", "owner_token"});
    content["iterations"] = rows(db, "SELECT * FROM iterations WHERE run_id = ?1 ORDER BY seq", runId, {"run_id"});
    content["telemetry"] = rows(db, "SELECT * FROM telemetry WHERE run_id = ?1 ORDER BY seq", runId, {"run_id"});
    content["artifacts"] = rows(db, "SELECT kind, encoding, rows, cols, sha256 FROM artifacts WHERE run_id = ?1 ORDER BY kind", runId);
    content["lineage"] = rows(db, kChainedEdges, runId);
    // Paths and messages may hold bytes that are not UTF-8: replaced, never thrown on.
    return content.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

void appendToChain(Database& db, const std::string& runId)
{
    std::int64_t seq = 1;
    std::string prevHash = kGenesisHash;
    {
        Statement last(db, "SELECT chain_seq, record_hash FROM runs WHERE chain_seq IS NOT NULL ORDER BY chain_seq DESC LIMIT 1");
        if (last.step()) {
            seq = last.integer(0) + 1;
            prevHash = last.text(1);
        }
    }
    const std::string hash = recordHash(prevHash, canonicalRunContent(db, runId));
    Statement update(db, "UPDATE runs SET chain_seq = ?1, prev_hash = ?2, record_hash = ?3 WHERE id = ?4");
    update.bindAll(seq, prevHash, hash, runId).run();
}

VerifyReport verifyChain(Database& db)
{
    VerifyReport report;
    auto bad = [&](const std::string& id, const std::string& problem) {
        report.ok = false;
        report.firstBadRun = id;
        report.problem = problem;
        return report;
    };
    ReadTransaction snapshot(db);
    std::string prevHash = kGenesisHash;
    std::int64_t expectedSeq = 1;
    Statement chain(db, "SELECT id, chain_seq, prev_hash, record_hash FROM runs WHERE chain_seq IS NOT NULL ORDER BY chain_seq");
    while (chain.step()) {
        const std::string id = chain.text(0);
        const std::int64_t seq = chain.integer(1);
        const std::string label = "run " + id + " (record #" + std::to_string(seq) + ")";
        if (seq != expectedSeq)
            return bad(id, label + ": record #" + std::to_string(expectedSeq) + " before it is missing");
        if (chain.text(2) != prevHash) return bad(id, label + ": its previous-record hash does not match record #" + std::to_string(seq - 1));
        if (chain.text(3) != recordHash(prevHash, canonicalRunContent(db, id)))
            return bad(id, label + ": its content does not match its record hash (edited after it completed)");
        // Only gc of a deleted run may drop artifact bytes: bytes missing from a live run
        // were removed behind the store's back.
        Statement artifacts(db, "SELECT a.kind, a.sha256, a.compression, a.data, a.rows, a.cols, a.data IS NULL, r.deleted_at IS NOT NULL "
                                "FROM artifacts a JOIN runs r ON r.id = a.run_id WHERE a.run_id = ?1 ORDER BY a.kind");
        artifacts.bindAll(id);
        while (artifacts.step()) {
            const std::string what = label + ": its " + artifacts.text(0);
            if (artifacts.integer(6) != 0) {
                if (artifacts.integer(7) != 0) continue;  // collected after deletion
                return bad(id, what + " bytes are missing, but the run was never deleted");
            }
            std::vector<unsigned char> bytes;
            try {
                bytes = decompressArtifact(artifacts.blob(3), artifacts.text(2), static_cast<std::size_t>(artifacts.integer(4) * artifacts.integer(5)) * 4, what);
            } catch (const StoreError& e) {
                return bad(id, e.what());
            }
            if (sha256Hex(bytes.data(), bytes.size()) != artifacts.text(1)) return bad(id, what + " bytes do not match their SHA-256");
        }
        prevHash = chain.text(3);
        ++expectedSeq;
        ++report.records;
    }
    // A finished run outside the chain was written or edited behind the store's back.
    Statement unchained(db, "SELECT id, status FROM runs WHERE chain_seq IS NULL AND status <> 'running' ORDER BY started_at LIMIT 1");
    if (unchained.step())
        return bad(unchained.text(0), "run " + unchained.text(0) + " is " + unchained.text(1) + " but has no record in the chain");
    return report;
}

}  // namespace clusterdesk::store
