#include "run_chain.h"

#include "artifact_codec.h"
#include "engine/core/error.h"
#include "engine/core/sha256.h"
#include "engine/core/file_bytes.h"
#include "sqlite_db.h"
#include "store_path.h"

#include <nlohmann/json.hpp>
#include <openssl/hmac.h>
#include <openssl/rand.h>

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <optional>
#include <set>
#include <sstream>

namespace clusterdesk::store {
namespace {

const std::string kGenesisHash(64, '0');
constexpr const char* kKeyed = "hmac-sha256";  // runs.chain_kind of a keyed record
constexpr std::size_t kKeyBytes = 32;

// Relations known when a run completes, chained with it; the rest are added later and
// chained by their own `edge` event.
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

nlohmann::json rows(Database& db, const char* sql, const std::string& key, const std::set<std::string>& skip = {})
{
    Statement select(db, sql);
    select.bindAll(key);
    nlohmann::json out = nlohmann::json::array();
    while (select.step()) out.push_back(rowObject(select, skip));
    return out;
}

// Paths and messages may hold bytes that are not UTF-8: replaced, never thrown on.
std::string dump(const nlohmann::json& content)
{
    return content.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

// What an event covers, read from the rows as they are now.
std::string eventContent(Database& db, const std::string& kind, const std::string& subject, const std::string& at)
{
    nlohmann::json content = {{"event", kind}, {"at", at}};
    if (kind == "tombstone") {
        Statement run(db, "SELECT deleted_at FROM runs WHERE id = ?1");
        run.bindAll(subject);
        content["run"] = subject;
        content["deleted_at"] = run.step() && !run.isNull(0) ? nlohmann::json(run.text(0)) : nlohmann::json();
    } else if (kind == "edge") {
        const nlohmann::json edge = rows(db, "SELECT * FROM lineage WHERE CAST(id AS TEXT) = ?1", subject);
        content["edge"] = edge.empty() ? nlohmann::json() : edge[0];
    }
    return dump(content);
}

bool hasTable(Database& db, const char* name)
{
    Statement table(db, "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?1");
    table.bindAll(std::string(name));
    return table.step();
}

bool hasColumn(Database& db, const char* table, const char* column)
{
    Statement columns(db, "SELECT 1 FROM pragma_table_info(?1) WHERE name = ?2");
    columns.bindAll(std::string(table), std::string(column));
    return columns.step();
}

// ---- the chain key: 32 random bytes as 64 hex digits in a file only its owner reads.

std::string hexOf(const unsigned char* bytes, std::size_t size)
{
    static constexpr char hex[] = "0123456789abcdef";
    std::string out;
    for (std::size_t i = 0; i < size; ++i) {
        out += hex[bytes[i] >> 4];
        out += hex[bytes[i] & 0xf];
    }
    return out;
}

// The key, or nullopt when the file does not exist. Throws for a file that exists but
// cannot be read or holds no key: a wrong key must never seal or judge anything.
std::optional<std::string> readKey(const std::filesystem::path& file)
{
    std::error_code ec;
    if (!std::filesystem::exists(file, ec) && !ec) return std::nullopt;
    std::string hex;
    try {
        hex = readFirstLine(file.string());
    } catch (const DataError& e) {
        throw StoreError(std::string("cannot read the run store's chain key: ") + e.what());
    }
    if (hex.size() != 2 * kKeyBytes || hex.find_first_not_of("0123456789abcdef") != std::string::npos)
        throw StoreError(file.string() + ": not a chain key (one line of 64 hex digits expected)");
    return hex;
}

std::string keyMissing(const std::filesystem::path& file)
{
    return "the chain key " + file.string() +
           " is missing: the store's records are sealed with it (restore it from where this store was written, or point "
           "CLUSTERDESK_CHAIN_KEY at it)";
}

// Created once, atomically: written to a private temporary file and linked into place,
// so two processes creating it at once end up sharing the first one.
std::string createKey(const std::filesystem::path& file)
{
    std::error_code ec;
    std::filesystem::create_directories(file.parent_path(), ec);
    if (ec) throw StoreError(file.string() + ": cannot create the directory of the chain key: " + ec.message());
    unsigned char bytes[kKeyBytes];
    if (RAND_bytes(bytes, sizeof bytes) != 1) throw StoreError("cannot draw random bytes for the chain key (OpenSSL RAND_bytes)");
    const std::string hex = hexOf(bytes, sizeof bytes);
    const std::string temporary = file.string() + ".new-" + std::to_string(getpid());
    const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0) throw StoreError(temporary + ": cannot create the chain key: " + std::strerror(errno));
    const std::string line = hex + "\n";
    const bool written = ::write(fd, line.data(), line.size()) == static_cast<ssize_t>(line.size()) && ::fsync(fd) == 0;
    ::close(fd);
    const int linked = written ? ::link(temporary.c_str(), file.c_str()) : -1;
    const int linkError = errno;
    ::unlink(temporary.c_str());
    if (!written) throw StoreError(temporary + ": cannot write the chain key");
    if (linked != 0 && linkError != EEXIST) throw StoreError(file.string() + ": cannot create the chain key: " + std::strerror(linkError));
    if (const std::optional<std::string> key = readKey(file)) return *key;
    throw StoreError(keyMissing(file));
}

std::string requireKey()
{
    const std::filesystem::path file = chainKeyPath();
    if (const std::optional<std::string> key = readKey(file)) return *key;
    throw StoreError(keyMissing(file));
}

std::string seal(ChainFormat format, const std::string& prevHash, const std::string& content, const std::string& hexKey)
{
    const std::string message = prevHash + "\n" + content;
    if (format == ChainFormat::PlainSha256) return sha256Hex(message);
    unsigned char key[kKeyBytes];
    for (std::size_t i = 0; i < kKeyBytes; ++i) key[i] = static_cast<unsigned char>(std::stoi(hexKey.substr(2 * i, 2), nullptr, 16));
    unsigned char mac[EVP_MAX_MD_SIZE];
    unsigned int size = 0;
    if (!HMAC(EVP_sha256(), key, sizeof key, reinterpret_cast<const unsigned char*>(message.data()), message.size(), mac, &size))
        throw StoreError("cannot compute the chain's HMAC-SHA-256 (OpenSSL)");
    return hexOf(mac, size);
}

}  // namespace

ChainHead chainHead(Database& db)
{
    const bool events = hasTable(db, "chain_events");
    Statement last(db, events ? "SELECT seq, hash FROM (SELECT chain_seq AS seq, record_hash AS hash FROM runs WHERE chain_seq IS NOT NULL "
                                "UNION ALL SELECT seq, record_hash FROM chain_events) ORDER BY seq DESC LIMIT 1"
                              : "SELECT chain_seq, record_hash FROM runs WHERE chain_seq IS NOT NULL ORDER BY chain_seq DESC LIMIT 1");
    ChainHead head{0, kGenesisHash};
    if (last.step()) head = {last.integer(0), last.text(1)};
    return head;
}

std::optional<std::string> sealAt(Database& db, std::int64_t seq)
{
    const bool events = hasTable(db, "chain_events");
    Statement at(db, events ? "SELECT record_hash FROM runs WHERE chain_seq = ?1 UNION ALL SELECT record_hash FROM chain_events WHERE seq = ?1"
                            : "SELECT record_hash FROM runs WHERE chain_seq = ?1");
    at.bind(1, seq);
    if (!at.step()) return std::nullopt;
    return at.text(0);
}

namespace {

std::string headFile(Database& db)
{
    return db.path() + ".chain-head";
}

std::optional<ChainHead> rememberedHead(Database& db)
{
    std::istringstream in;
    try {
        in.str(readFirstLine(headFile(db)));  // not waited on if a FIFO stands there
    } catch (const DataError&) {
        return std::nullopt;  // none yet (a new store), or nothing a store wrote
    }
    ChainHead head;
    if (!(in >> head.seq >> head.hash)) return std::nullopt;
    return head;
}

std::string lostRecords(Database& db, const std::optional<ChainHead>& remembered)
{
    if (!remembered) return "";
    const ChainHead head = chainHead(db);
    if (head.seq < remembered->seq)
        return std::to_string(remembered->seq - head.seq) + " chained record" + (remembered->seq - head.seq == 1 ? " was" : "s were") +
               " lost (completed runs, deletions or edges up to record #" + std::to_string(remembered->seq) + ", which " +
               headFile(db) + " remembers; the chain now ends at #" + std::to_string(head.seq) +
               "): the -wal file was deleted, or the store replaced by an older copy?";
    if (sealAt(db, remembered->seq) != remembered->hash)
        return "record #" + std::to_string(remembered->seq) + " is not the one that was written (" + headFile(db) +
               " remembers another seal): it was re-sealed, or records were lost (a deleted -wal file?) and others written in their place";
    return "";
}

}  // namespace

std::string canonicalRunContent(Database& db, const std::string& runId, ChainFormat format)
{
    nlohmann::json content;
    Statement run(db, "SELECT * FROM runs WHERE id = ?1");
    run.bindAll(runId);
    if (!run.step()) throw StoreError(db.path() + ": run " + runId + " does not exist");
    content["run"] = rowObject(run, {"chain_seq", "prev_hash", "record_hash", "chain_kind", "deleted_at", "owner_pid", "owner_token"});
    if (format == ChainFormat::Keyed) {
        const nlohmann::json dataset = rows(db, "SELECT d.* FROM datasets d JOIN runs r ON r.dataset_hash = d.hash WHERE r.id = ?1", runId);
        content["dataset"] = dataset.empty() ? nlohmann::json() : dataset[0];
    }
    content["iterations"] = rows(db, "SELECT * FROM iterations WHERE run_id = ?1 ORDER BY seq", runId, {"run_id"});
    content["telemetry"] = rows(db, "SELECT * FROM telemetry WHERE run_id = ?1 ORDER BY seq", runId, {"run_id"});
    content["artifacts"] = rows(db, "SELECT kind, encoding, rows, cols, sha256 FROM artifacts WHERE run_id = ?1 ORDER BY kind", runId);
    content["lineage"] = rows(db, kChainedEdges, runId);
    return dump(content);
}

void appendRunToChain(Database& db, const std::string& runId, ChainFormat format)
{
    const ChainHead head = chainHead(db);
    const std::string hash = seal(format, head.hash, canonicalRunContent(db, runId, format), format == ChainFormat::Keyed ? requireKey() : "");
    Statement update(db, format == ChainFormat::Keyed
                             ? "UPDATE runs SET chain_seq = ?1, prev_hash = ?2, record_hash = ?3, chain_kind = ?5 WHERE id = ?4"
                             : "UPDATE runs SET chain_seq = ?1, prev_hash = ?2, record_hash = ?3 WHERE id = ?4");
    update.bindAll(head.seq + 1, head.hash, hash, runId);
    if (format == ChainFormat::Keyed) update.bind(5, kKeyed);
    update.run();
}

void appendEventToChain(Database& db, const std::string& kind, const std::string& subject)
{
    const ChainHead head = chainHead(db);
    // Milliseconds, as every time the store writes; the sequence number orders events.
    Statement now(db, "SELECT strftime('%Y-%m-%dT%H:%M:%fZ', 'now')");
    now.step();
    const std::string at = now.text(0);
    const std::string hash = seal(ChainFormat::Keyed, head.hash, eventContent(db, kind, subject, at), requireKey());
    Statement insert(db, "INSERT INTO chain_events(seq, kind, subject, at, prev_hash, record_hash) VALUES (?1, ?2, ?3, ?4, ?5, ?6)");
    insert.bindAll(head.seq + 1, kind, subject, at, head.hash, hash).run();
}

void startKeyedChain(Database& db)
{
    const std::filesystem::path file = chainKeyPath();
    if (!readKey(file)) createKey(file);
    appendEventToChain(db, "keyed", "");
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
    // Read before the snapshot starts: the remembered head is always of a committed
    // state, so a snapshot taken after it holds that state (read later, it could be
    // ahead of the snapshot and look like a loss).
    const std::optional<ChainHead> remembered = rememberedHead(db);
    ReadTransaction snapshot(db);
    // A store not yet migrated to v5 (opened read-only) has plain records only.
    const bool events = hasTable(db, "chain_events");
    const bool kinds = hasColumn(db, "runs", "chain_kind");
    Statement chain(db, events && kinds
                            ? "SELECT 'run', id, chain_seq, prev_hash, record_hash, chain_kind, NULL FROM runs WHERE chain_seq IS NOT NULL "
                              "UNION ALL SELECT kind, subject, seq, prev_hash, record_hash, 'hmac-sha256', at FROM chain_events ORDER BY 3"
                            : "SELECT 'run', id, chain_seq, prev_hash, record_hash, NULL, NULL FROM runs WHERE chain_seq IS NOT NULL ORDER BY 3");
    std::optional<std::string> key;
    bool keyedStarted = false;
    std::string prevHash = kGenesisHash;
    std::int64_t expectedSeq = 1;
    while (chain.step()) {
        const std::string kind = chain.text(0);
        const std::string id = chain.text(1);
        const std::int64_t seq = chain.integer(2);
        const bool run = kind == "run";
        const std::string label = (run ? "run " + id : kind == "tombstone" ? "the deletion of run " + id
                                                     : kind == "edge"      ? "lineage edge " + id
                                                                           : "the start of keyed sealing") +
                                  " (record #" + std::to_string(seq) + ")";
        const std::string badId = run || kind == "tombstone" ? id : "";
        if (seq != expectedSeq) return bad(badId, label + ": record #" + std::to_string(expectedSeq) + " before it is missing");
        if (chain.text(3) != prevHash) return bad(badId, label + ": its previous-record seal does not match record #" + std::to_string(seq - 1));
        const ChainFormat format = chain.isNull(5) ? ChainFormat::PlainSha256 : ChainFormat::Keyed;
        if (kind == "keyed") {
            if (keyedStarted) return bad("", label + ": keyed sealing begins twice");
            keyedStarted = true;
        } else if (format == ChainFormat::Keyed && !keyedStarted) {
            return bad(badId, label + ": sealed with the key before keyed sealing began");
        } else if (format == ChainFormat::PlainSha256 && keyedStarted) {
            return bad(badId, label + ": sealed with plain SHA-256 after keyed sealing began (re-sealed by someone without the key?)");
        }
        if (format == ChainFormat::Keyed && !key) {
            const std::filesystem::path file = chainKeyPath();
            key = readKey(file);
            if (!key) return bad(badId, "cannot check " + label + " and what follows: " + keyMissing(file));
        }
        const std::string content = run ? canonicalRunContent(db, id, format) : eventContent(db, kind, id, chain.text(6));
        if (chain.text(4) != seal(format, prevHash, content, key.value_or("")))
            return bad(badId, label + ": its content does not match its seal (edited after it was recorded" +
                                  std::string(format == ChainFormat::Keyed ? ", or sealed with another chain key)" : ")"));
        if (run) {
            // Only gc of a deleted run may drop artifact bytes: bytes missing from a live
            // run were removed behind the store's back.
            Statement artifacts(db, "SELECT a.kind, a.sha256, a.compression, a.data, a.rows, a.cols, a.data IS NULL, r.deleted_at IS NOT NULL, a.encoding "
                                    "FROM artifacts a JOIN runs r ON r.id = a.run_id WHERE a.run_id = ?1 ORDER BY a.kind");
            artifacts.bindAll(id);
            while (artifacts.step()) {
                const std::string what = label + ": its " + artifacts.text(0);
                if (artifacts.integer(6) != 0) {
                    if (artifacts.integer(7) != 0) continue;  // collected after deletion
                    return bad(id, what + " bytes are missing, but the run was never deleted");
                }
                try {
                    artifactBytes({artifacts.blob(3), artifacts.text(2), artifacts.text(8), artifacts.integer(4), artifacts.integer(5), artifacts.text(1)},
                                  what);
                } catch (const StoreError& e) {
                    return bad(id, e.what());
                }
            }
        }
        if (format == ChainFormat::PlainSha256) ++report.plainRecords;
        ++(run ? report.records : report.events);
        prevHash = chain.text(4);
        ++expectedSeq;
    }
    // After the records: a re-sealed record is named as such before it shows as a
    // head that differs from the one remembered.
    if (const std::string lost = lostRecords(db, remembered); !lost.empty()) return bad("", lost);
    if (events && !keyedStarted)
        return bad("", "the record where keyed sealing began is missing (the chain was re-sealed by someone without the key?)");
    // Rows that no record covers were written or edited behind the store's back.
    Statement unchained(db, "SELECT id, status FROM runs WHERE chain_seq IS NULL AND status <> 'running' ORDER BY started_at, rowid LIMIT 1");
    if (unchained.step())
        return bad(unchained.text(0), "run " + unchained.text(0) + " is " + unchained.text(1) + " but has no record in the chain");
    if (!events) return report;
    Statement deleted(db, "SELECT id FROM runs WHERE deleted_at IS NOT NULL AND id NOT IN "
                          "(SELECT subject FROM chain_events WHERE kind = 'tombstone') ORDER BY rowid LIMIT 1");
    if (deleted.step())
        return bad(deleted.text(0), "run " + deleted.text(0) + " is marked deleted, but no deletion of it is in the chain");
    Statement edges(db, "SELECT id, relation FROM lineage WHERE NOT (dst_kind = 'run' AND relation IN ('input', 'rerun', 'warm_start')) "
                        "AND CAST(id AS TEXT) NOT IN (SELECT subject FROM chain_events WHERE kind = 'edge') ORDER BY id LIMIT 1");
    if (edges.step())
        return bad("", "lineage edge " + edges.text(0) + " (" + edges.text(1) + ") is not in the chain");
    return report;
}

void rememberChainHead(Database& db)
{
    const std::optional<ChainHead> remembered = rememberedHead(db);
    const ChainHead head = chainHead(db);
    if (remembered && (remembered->seq >= head.seq || sealAt(db, remembered->seq) != remembered->hash)) return;
    const std::string file = headFile(db);
    const std::string temporary = file + ".new-" + std::to_string(getpid());
    {
        std::ofstream out(temporary, std::ios::trunc);
        out << head.seq << ' ' << head.hash << '\n';
        if (!out.flush()) return;
    }
    // Renamed into place: a reader sees the old head or the new one, never half a line.
    if (std::rename(temporary.c_str(), file.c_str()) != 0) std::remove(temporary.c_str());
}

std::string lostChainRecords(Database& db)
{
    // The file first: what lostRecords then reads of the database is at least as new.
    return lostRecords(db, rememberedHead(db));
}

std::string forgetPreviousStoresHead(Database& db)
{
    const std::optional<ChainHead> remembered = rememberedHead(db);
    if (!remembered) return "";
    // Kept aside, not deleted: it is the evidence of what was here.
    const std::string previous = headFile(db) + ".previous";
    std::error_code ignored;
    std::filesystem::rename(headFile(db), previous, ignored);
    return "a new store, but its chain head remembered record #" + std::to_string(remembered->seq) +
           " of a store that was here before (deleted or moved away, or its -wal file lost before the first checkpoint); "
           "that head is kept as " + previous + ", and the chain head now follows this store";
}

}  // namespace clusterdesk::store
