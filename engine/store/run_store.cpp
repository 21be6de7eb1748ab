#include "run_store.h"

#include "artifact_codec.h"
#include "clusterdesk/version.h"
#include "process_owner.h"
#include "run_chain.h"
#include "run_codec.h"
#include "schema.h"
#include "engine/core/iso_time.h"
#include "engine/core/sha256.h"
#include "engine/cluster/cluster_codec.h"
#include "sqlite_db.h"

#include <nlohmann/json.hpp>
#include <openssl/rand.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>
#include <functional>
#include <type_traits>

namespace clusterdesk::store {
namespace {

// Random (version 4) UUID.
std::string newRunId()
{
    unsigned char bytes[16];
    if (RAND_bytes(bytes, sizeof bytes) != 1) throw StoreError("cannot draw random bytes for a run id (OpenSSL RAND_bytes)");
    bytes[6] = static_cast<unsigned char>((bytes[6] & 0x0f) | 0x40);
    bytes[8] = static_cast<unsigned char>((bytes[8] & 0x3f) | 0x80);
    static constexpr char hex[] = "0123456789abcdef";
    std::string id;
    for (int i = 0; i < 16; ++i) {
        if (i == 4 || i == 6 || i == 8 || i == 10) id += '-';
        id += hex[bytes[i] >> 4];
        id += hex[bytes[i] & 0xf];
    }
    return id;
}

template <class T>
std::vector<T> fromBytes(const std::vector<unsigned char>& bytes)
{
    std::vector<T> out(bytes.size() / sizeof(T));
    if (!out.empty()) std::memcpy(out.data(), bytes.data(), out.size() * sizeof(T));
    return out;
}

// Labels and centroids as their little-endian bytes (every supported host is
// little-endian), compressed, with the SHA-256 of the bytes for the chain.
template <class T>
void insertArtifact(Database& db, const std::string& runId, const char* kind, const std::vector<T>& values,
                    std::int64_t rows, std::int64_t cols)
{
    const char* encoding = std::is_same_v<T, float> ? "float32le" : "int32le";
    const std::size_t size = values.size() * sizeof(T);
    const std::vector<unsigned char> compressed = compressArtifact(values.data(), size);
    Statement insert(db, "INSERT INTO artifacts(run_id, kind, encoding, rows, cols, sha256, compression, data) "
                         "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)");
    insert.bindAll(runId, kind, encoding, rows, cols, sha256Hex(values.data(), size), kZlib);
    insert.bindBlob(8, compressed.data(), compressed.size()).run();
}

void insertEdge(Database& db, const LineageEdge& edge)
{
    Statement insert(db, "INSERT INTO lineage(src_kind, src, dst_kind, dst, relation, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)");
    insert.bindAll(edge.srcKind, edge.src, edge.dstKind, edge.dst, edge.relation,
                   edge.createdAt.empty() ? isoNowUtc() : edge.createdAt).run();
}

std::string devicesJson(const std::vector<std::string>& devices)
{
    return nlohmann::json(devices).dump();
}

std::vector<std::string> devicesFromJson(const std::string& text)
{
    if (text.empty()) return {};
    const nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
    return j.is_array() ? j.get<std::vector<std::string>>() : std::vector<std::string>{};
}

constexpr const char* kRunColumns =
    "SELECT id, dataset_hash, source, source_kind, load_options, algorithm, params, mode, precision, seed, topology, threads, "
    "backend, devices, engine_version, git_commit, host, started_at, ended_at, status, failure, metrics, energy_j, "
    "energy_source, deleted_at, chain_seq, record_hash FROM runs ";

RunInfo readRunInfo(const Statement& row)
{
    RunInfo info;
    info.id = row.text(0);
    info.datasetHash = row.text(1);
    info.dataSource = sourceSpecFromColumns({row.text(2), row.text(3), row.text(4)});
    info.algorithm = row.text(5);
    info.paramsJson = row.text(6);
    info.mode = row.text(7);
    info.precision = row.text(8);
    info.seed = row.text(9);
    info.topology = row.text(10);
    info.threads = static_cast<int>(row.integer(11));
    info.backend = row.text(12);
    info.devices = devicesFromJson(row.text(13));
    info.engineVersion = row.text(14);
    info.gitCommit = row.text(15);
    info.host = row.text(16);
    info.startedAt = row.text(17);
    info.endedAt = row.text(18);
    info.status = parseRunStatus(row.text(19)).value_or(RunStatus::Failed);
    info.failure = row.text(20);
    info.metricsJson = row.text(21);
    info.energyJ = row.optionalReal(22);
    info.energySource = row.text(23);
    info.deleted = !row.isNull(24);
    if (!row.isNull(25)) info.chainSeq = row.integer(25);
    info.recordHash = row.text(26);
    return info;
}

LineageEdge readEdge(const Statement& row)
{
    return {row.text(0), row.text(1), row.text(2), row.text(3), row.text(4), row.text(5)};
}

// A fixed ORDER BY clause per sort key: the user picks a key, never SQL text. Start
// times have millisecond resolution and two runs can begin in the same one, so every
// order ends on rowid, which SQLite assigns increasing with each insert (runs are never
// removed, only tombstoned, and VACUUM keeps the rows' relative order): runs that tie
// keep the order they were begun in.
const char* orderClause(RunSort sort, bool descending)
{
    switch (sort) {
        case RunSort::Started: return descending ? "ORDER BY started_at DESC, rowid DESC" : "ORDER BY started_at ASC, rowid ASC";
        case RunSort::Ended: return descending ? "ORDER BY ended_at DESC, rowid DESC" : "ORDER BY ended_at ASC, rowid ASC";
        case RunSort::Algorithm:
            return descending ? "ORDER BY algorithm DESC, started_at DESC, rowid DESC" : "ORDER BY algorithm ASC, started_at DESC, rowid DESC";
        case RunSort::Status:
            return descending ? "ORDER BY status DESC, started_at DESC, rowid DESC" : "ORDER BY status ASC, started_at DESC, rowid DESC";
        case RunSort::Energy:
            return descending ? "ORDER BY energy_j DESC, started_at DESC, rowid DESC" : "ORDER BY energy_j ASC, started_at DESC, rowid DESC";
        case RunSort::Duration:
            return descending ? "ORDER BY julianday(ended_at) - julianday(started_at) DESC, started_at DESC, rowid DESC"
                              : "ORDER BY julianday(ended_at) - julianday(started_at) ASC, started_at DESC, rowid DESC";
    }
    return "ORDER BY started_at DESC, rowid DESC";
}

// The first value in a result that is NaN or infinite, named (e.g. "centroid value 3"), or
// empty. nlohmann::json writes a non-finite double as null, so a null in the metrics
// (every metric is a number, a string or a flag) is one too.
std::string firstNonFinite(const RunOutcome& o)
{
    for (std::size_t i = 0; i < o.centroids.size(); ++i)
        if (!std::isfinite(o.centroids[i])) return "centroid value " + std::to_string(i) + " (" + std::to_string(o.centroids[i]) + ")";
    for (const IterationStats& s : o.iterations)
        if (!std::isfinite(s.inertia)) return "the inertia of iteration " + std::to_string(s.iteration);
    if (o.energyJ && !std::isfinite(*o.energyJ)) return "the energy";
    for (const TelemetrySample& t : o.telemetry)
        if (!std::isfinite(t.watts) || !std::isfinite(t.seconds)) return "a power sample of " + t.device;
    const nlohmann::json metrics = nlohmann::json::parse(o.metricsJson.empty() ? "{}" : o.metricsJson, nullptr, false);
    if (metrics.is_discarded()) return "";  // not ours to judge here: stored as given
    std::string found;
    const std::function<void(const nlohmann::json&, const std::string&)> walk = [&](const nlohmann::json& j, const std::string& at) {
        if (!found.empty()) return;
        if (j.is_null() || (j.is_number_float() && !std::isfinite(j.get<double>()))) found = "metric " + at;
        else if (j.is_object()) for (const auto& [key, value] : j.items()) walk(value, at.empty() ? key : at + "." + key);
        else if (j.is_array()) for (std::size_t i = 0; i < j.size(); ++i) walk(j[i], at + "[" + std::to_string(i) + "]");
    };
    walk(metrics, "");
    return found;
}

bool looksLikeIdPrefix(const std::string& text)
{
    if (text.empty() || text.size() > 36) return false;
    for (char c : text) {
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || c == '-')) return false;
    }
    return true;
}

}  // namespace

std::string toString(RunStatus status)
{
    switch (status) {
        case RunStatus::Running: return "running";
        case RunStatus::Ok: return "ok";
        case RunStatus::Failed: return "failed";
        case RunStatus::Cancelled: return "cancelled";
    }
    return "failed";
}

std::optional<RunStatus> parseRunStatus(const std::string& text)
{
    for (RunStatus status : {RunStatus::Running, RunStatus::Ok, RunStatus::Failed, RunStatus::Cancelled}) {
        if (toString(status) == text) return status;
    }
    return std::nullopt;
}

RunStore::RunStore(const std::filesystem::path& path, StoreAccess access)
    : m_db(std::make_unique<Database>(path.string(), access == StoreAccess::ReadOnly))
{
    if (access == StoreAccess::ReadOnly) {
        requireReadable(*m_db);
        m_lostOnOpen = lostChainRecords(*m_db);
        return;
    }
    const bool created = [this] {
        Statement tables(*m_db, "SELECT count(*) FROM sqlite_master");
        tables.step();
        return tables.integer(0) == 0;
    }();
    migrate(*m_db);
    // Before this open appends anything (a new store's migration does).
    m_lostOnOpen = created ? forgetPreviousStoresHead(*m_db) : lostChainRecords(*m_db);
    m_interruptedOnOpen = markInterrupted();
    rememberChainHead(*m_db);  // a migration may have appended records
}

RunStore::~RunStore() = default;

const std::string& RunStore::path() const
{
    return m_db->path();
}

int RunStore::schemaVersion() const
{
    Statement version(*m_db, "PRAGMA user_version");
    version.step();
    return static_cast<int>(version.integer(0));
}

std::string RunStore::beginRun(const NewRun& run)
{
    const std::string id = newRunId();
    const std::string now = isoNowUtc();
    const ProcessOwner owner = currentProcess();
    const KMeansParams& p = run.params;
    WriteTransaction transaction(*m_db);
    Statement dataset(*m_db, "INSERT OR IGNORE INTO datasets(hash, source, source_kind, load_options, layout, rows, cols, first_seen) "
                             "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)");
    const DatasetInfo& d = run.dataset;
    const SourceColumns source = toColumns(d.spec);
    dataset.bindAll(d.hash, source.location, source.kind, source.options, d.layout, d.rows, d.cols, now).run();
    Statement insert(*m_db,
                     "INSERT INTO runs(id, dataset_hash, source, source_kind, load_options, algorithm, params, mode, precision, seed, "
                     "topology, threads, engine_version, git_commit, host, started_at, status, metrics, owner_pid, owner_token) "
                     "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, 'running', '{}', ?17, ?18)");
    insert.bindAll(id, d.hash, source.location, source.kind, source.options, toString(p.algorithm), paramsToJson(p), kernels::toString(p.mode),
                   kernels::toString(p.precision), std::to_string(p.seed), run.topology, run.threads, CLUSTERDESK_VERSION,
                   CLUSTERDESK_GIT_COMMIT, owner.host, now, owner.pid, owner.token)
        .run();
    insertEdge(*m_db, {"dataset", d.hash, "run", id, "input", now});
    for (LineageEdge parent : run.parents) {
        parent.dstKind = "run";
        parent.dst = id;
        if (parent.createdAt.empty()) parent.createdAt = now;
        insertEdge(*m_db, parent);
    }
    if (p.init == InitMethod::Given && !p.initialCentroids.empty()) {
        const std::int64_t k = static_cast<std::int64_t>(p.initialCentroids.size()) / std::max<std::int64_t>(1, d.cols);
        insertArtifact(*m_db, id, "initial_centroids", p.initialCentroids, k, d.cols);
    }
    if (!run.liveInput.empty()) {
        const std::vector<unsigned char> compressed = compressArtifact(run.liveInput.data(), run.liveInput.size());
        Statement insert(*m_db, "INSERT INTO artifacts(run_id, kind, encoding, rows, cols, sha256, compression, data) "
                                "VALUES (?1, 'live_input', 'utf8', ?2, 1, ?3, ?4, ?5)");
        insert.bindAll(id, static_cast<std::int64_t>(run.liveInput.size()), sha256Hex(run.liveInput.data(), run.liveInput.size()), kZlib);
        insert.bindBlob(5, compressed.data(), compressed.size()).run();
    }
    transaction.commit();
    return id;
}

void RunStore::finishRun(const std::string& id, const RunOutcome& outcome)
{
    if (outcome.status == RunStatus::Running) throw UsageError("finishRun: a run cannot finish as running (run " + id + ")");
    // A NaN result is no result: recorded as ok it would pass verify and be cited.
    if (outcome.status == RunStatus::Ok)
        if (const std::string bad = firstNonFinite(outcome); !bad.empty())
            throw NonFiniteResult(path() + ": run " + id + " cannot be recorded as ok: " + bad + " is not a finite number");
    WriteTransaction transaction(*m_db);
    {
        Statement current(*m_db, "SELECT status, failure FROM runs WHERE id = ?1");
        current.bindAll(id);
        if (!current.step()) throw StoreError(path() + ": run " + id + " does not exist");
        if (current.text(0) != "running")
            throw StoreError(path() + ": run " + id + " is no longer running (" + current.text(0) +
                             (current.text(1).empty() ? "" : ": " + current.text(1)) + ")");
    }
    Statement update(*m_db, "UPDATE runs SET status = ?1, failure = ?2, ended_at = ?3, backend = ?4, devices = ?5, metrics = ?6, "
                            "energy_j = ?7, energy_source = ?8 WHERE id = ?9");
    update.bindAll(toString(outcome.status), outcome.failure, isoNowUtc(), outcome.backend, devicesJson(outcome.devices),
                   outcome.metricsJson.empty() ? "{}" : outcome.metricsJson, outcome.energyJ, outcome.energySource, id);
    if (outcome.failure.empty()) update.bindNull(2);
    if (outcome.energySource.empty()) update.bindNull(8);
    update.run();

    Statement iteration(*m_db, "INSERT INTO iterations(run_id, seq, iteration, round, k, inertia, assign_ms, update_ms, reduce_ms, "
                               "rows_searched, sizes, event, ranks) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)");
    for (std::size_t i = 0; i < outcome.iterations.size(); ++i) {
        const IterationStats& s = outcome.iterations[i];
        iteration.bindAll(id, static_cast<std::int64_t>(i), s.iteration, s.round, s.k, s.inertia, s.assignMs, s.updateMs, s.reduceMs,
                          s.rowsSearched, nlohmann::json(s.sizes).dump(), s.event, codec::toJson(s.ranks).dump());
        if (s.event.empty()) iteration.bindNull(12);
        if (s.ranks.empty()) iteration.bindNull(13);
        iteration.run();
        iteration.reset();
    }
    Statement sample(*m_db, "INSERT INTO telemetry(run_id, seq, seconds, device, watts, kind) VALUES (?1, ?2, ?3, ?4, ?5, ?6)");
    for (std::size_t i = 0; i < outcome.telemetry.size(); ++i) {
        const TelemetrySample& t = outcome.telemetry[i];
        sample.bindAll(id, static_cast<std::int64_t>(i), t.seconds, t.device, t.watts, t.kind).run();
        sample.reset();
    }
    if (!outcome.labels.empty())
        insertArtifact(*m_db, id, "labels", outcome.labels, static_cast<std::int64_t>(outcome.labels.size()), 1);
    if (!outcome.centroids.empty()) insertArtifact(*m_db, id, "centroids", outcome.centroids, outcome.k, outcome.cols);
    appendRunToChain(*m_db, id);
    transaction.commit();
    rememberChainHead(*m_db);
}

int RunStore::markInterrupted()
{
    // Judged outside the write lock first, so the common case (nothing to mark) does
    // not serialise every start behind the other writers.
    std::vector<std::string> gone;
    {
        Statement running(*m_db, "SELECT id, host, owner_pid, owner_token FROM runs WHERE status = 'running'");
        while (running.step()) {
            if (!mayBeRunning({running.text(1), running.integer(2), running.text(3)})) gone.push_back(running.text(0));
        }
    }
    if (gone.empty()) return 0;
    int marked = 0;
    WriteTransaction transaction(*m_db);
    Statement mark(*m_db, "UPDATE runs SET status = 'failed', failure = ?1, ended_at = ?2 WHERE id = ?3 AND status = 'running'");
    for (const std::string& id : gone) {
        mark.bindAll(kInterrupted, isoNowUtc(), id).run();
        mark.reset();
        if (sqlite3_changes(m_db->handle()) == 0) continue;  // its owner finished it meanwhile
        appendRunToChain(*m_db, id);
        ++marked;
    }
    transaction.commit();
    rememberChainHead(*m_db);
    return marked;
}

std::vector<RunInfo> RunStore::listRuns(const RunFilter& filter) const
{
    // One fixed statement: every filter is a bound parameter that is NULL when unused.
    const std::string sql = std::string(kRunColumns) +
                            "WHERE (?1 OR deleted_at IS NULL) AND (?2 IS NULL OR status = ?2) AND (?3 IS NULL OR dataset_hash = ?3) "
                            "AND (?4 IS NULL OR instr(lower(id || ' ' || source || ' ' || algorithm || ' ' || topology || ' ' || host), lower(?4)) > 0) " +
                            orderClause(filter.sort, filter.descending) + " LIMIT ?5";
    Statement select(*m_db, sql.c_str());
    select.bind(1, filter.includeDeleted ? 1 : 0);
    if (filter.status) select.bind(2, toString(*filter.status));
    if (!filter.datasetHash.empty()) select.bind(3, filter.datasetHash);
    if (!filter.text.empty()) select.bind(4, filter.text);
    select.bind(5, filter.limit > 0 ? static_cast<std::int64_t>(filter.limit) : std::int64_t{-1});
    std::vector<RunInfo> runs;
    while (select.step()) runs.push_back(readRunInfo(select));
    return runs;
}

std::string RunStore::resolveId(const std::string& typed) const
{
    // Ids are stored in lower case; one copied from elsewhere may come in upper case.
    std::string prefix = typed;
    std::transform(prefix.begin(), prefix.end(), prefix.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (!looksLikeIdPrefix(prefix))
        throw UsageError("'" + typed + "' is not a run id (a run id or its prefix: hex digits and dashes)");
    Statement select(*m_db, "SELECT id FROM runs WHERE substr(id, 1, length(?1)) = ?1 ORDER BY id LIMIT 2");
    select.bindAll(prefix);
    if (!select.step()) throw UsageError("no run " + prefix + " in " + path());
    const std::string id = select.text(0);
    if (select.step()) throw UsageError("run id prefix " + prefix + " is ambiguous (" + id + ", " + select.text(0) + ", ...)");
    return id;
}

RunRecord RunStore::loadRun(const std::string& id) const
{
    ReadTransaction snapshot(*m_db);
    RunRecord record;
    {
        Statement run(*m_db, (std::string(kRunColumns) + "WHERE id = ?1").c_str());
        run.bindAll(id);
        if (!run.step()) throw UsageError("no run " + id + " in " + path());
        record.info = readRunInfo(run);
    }
    {
        Statement dataset(*m_db, "SELECT hash, source, source_kind, load_options, layout, rows, cols, first_seen FROM datasets WHERE hash = ?1");
        dataset.bindAll(record.info.datasetHash);
        if (dataset.step())
            record.dataset = {dataset.text(0), sourceSpecFromColumns({dataset.text(1), dataset.text(2), dataset.text(3)}),
                              dataset.text(4), dataset.integer(5), dataset.integer(6), dataset.text(7)};
    }
    Statement iterations(*m_db, "SELECT iteration, round, k, inertia, assign_ms, update_ms, reduce_ms, rows_searched, sizes, event, ranks "
                                "FROM iterations WHERE run_id = ?1 ORDER BY seq");
    iterations.bindAll(id);
    while (iterations.step()) {
        IterationStats s;
        s.iteration = static_cast<int>(iterations.integer(0));
        s.round = static_cast<int>(iterations.integer(1));
        s.k = static_cast<int>(iterations.integer(2));
        s.inertia = iterations.real(3);
        s.assignMs = iterations.real(4);
        s.updateMs = iterations.real(5);
        s.reduceMs = iterations.real(6);
        s.rowsSearched = iterations.integer(7);
        const nlohmann::json sizes = nlohmann::json::parse(iterations.text(8), nullptr, false);
        if (sizes.is_array()) s.sizes = sizes.get<std::vector<std::int64_t>>();
        s.event = iterations.text(9);
        if (!iterations.isNull(10)) {
            const nlohmann::json ranks = nlohmann::json::parse(iterations.text(10), nullptr, false);
            try {
                if (ranks.is_array()) s.ranks = codec::rankTimingsFromJson(ranks);
            } catch (const CodecError& e) {
                throw StoreError("run " + id + " iteration " + std::to_string(s.iteration) + ": per-rank timings: " + e.what());
            }
        }
        record.iterations.push_back(std::move(s));
    }
    Statement telemetry(*m_db, "SELECT seconds, device, watts, kind FROM telemetry WHERE run_id = ?1 ORDER BY seq");
    telemetry.bindAll(id);
    while (telemetry.step())
        record.telemetry.push_back({telemetry.real(0), telemetry.text(1), telemetry.real(2), telemetry.text(3)});
    Statement artifacts(*m_db, "SELECT kind, rows, cols, compression, data, encoding, sha256 FROM artifacts WHERE run_id = ?1");
    artifacts.bindAll(id);
    while (artifacts.step()) {
        const std::string kind = artifacts.text(0);
        if (artifacts.isNull(4)) {
            record.artifactsCollected = true;
            continue;
        }
        // Checked against its SHA-256 on every load: bytes edited outside ClusterDesk
        // (NaN centroids, labels out of range) never reach a warm start or a report.
        const std::vector<unsigned char> bytes =
            artifactBytes({artifacts.blob(4), artifacts.text(3), artifacts.text(5), artifacts.integer(1), artifacts.integer(2), artifacts.text(6)},
                          path() + ": the " + kind + " of run " + id);
        if (kind == "labels") record.labels = fromBytes<std::int32_t>(bytes);
        else if (kind == "live_input") record.liveInput.assign(bytes.begin(), bytes.end());
        else if (kind == "initial_centroids") record.initialCentroids = fromBytes<float>(bytes);
        else if (kind == "centroids") {
            record.centroids = fromBytes<float>(bytes);
            record.k = static_cast<int>(artifacts.integer(1));
            record.cols = artifacts.integer(2);
        }
    }
    record.lineage = lineage(id);
    return record;
}

std::vector<LineageEdge> RunStore::lineage(const std::string& runId) const
{
    Statement select(*m_db, "SELECT src_kind, src, dst_kind, dst, relation, created_at FROM lineage "
                            "WHERE (src_kind = 'run' AND src = ?1) OR (dst_kind = 'run' AND dst = ?1) ORDER BY id");
    select.bindAll(runId);
    std::vector<LineageEdge> edges;
    while (select.step()) edges.push_back(readEdge(select));
    return edges;
}

void RunStore::addEdge(const LineageEdge& edge)
{
    WriteTransaction transaction(*m_db);
    insertEdge(*m_db, edge);
    appendEventToChain(*m_db, "edge", std::to_string(sqlite3_last_insert_rowid(m_db->handle())));
    transaction.commit();
    rememberChainHead(*m_db);
}

void RunStore::recordReport(const std::string& reportSha256, const std::vector<std::string>& runIds)
{
    WriteTransaction transaction(*m_db);
    const std::string now = isoNowUtc();
    for (const std::string& runId : runIds) {
        Statement exists(*m_db, "SELECT 1 FROM runs WHERE id = ?1");
        exists.bindAll(runId);
        if (!exists.step()) throw UsageError("no run " + runId + " in " + path() + " to record the report against");
        insertEdge(*m_db, {"run", runId, "report", reportSha256, "report", now});
        appendEventToChain(*m_db, "edge", std::to_string(sqlite3_last_insert_rowid(m_db->handle())));
    }
    transaction.commit();
    rememberChainHead(*m_db);
}

std::string RunStore::recordComparison(const std::string& documentJson, const std::vector<std::string>& runIds)
{
    const std::string id = sha256Hex(documentJson);
    WriteTransaction transaction(*m_db);
    const std::string now = isoNowUtc();
    Statement insert(*m_db, "INSERT OR IGNORE INTO comparisons(id, created_at, document) VALUES (?1, ?2, ?3)");
    insert.bindAll(id, now, documentJson).run();
    for (const std::string& runId : runIds) {
        Statement exists(*m_db, "SELECT 1 FROM runs WHERE id = ?1");
        exists.bindAll(runId);
        if (!exists.step()) throw UsageError("no run " + runId + " in " + path() + " to record the comparison against");
        insertEdge(*m_db, {"run", runId, "comparison", id, "compared_in", now});
        appendEventToChain(*m_db, "edge", std::to_string(sqlite3_last_insert_rowid(m_db->handle())));
    }
    transaction.commit();
    rememberChainHead(*m_db);
    return id;
}

std::string RunStore::comparisonDocument(const std::string& idOrPrefix) const
{
    Statement select(*m_db, "SELECT id, document FROM comparisons WHERE substr(id, 1, length(?1)) = ?1 LIMIT 2");
    select.bindAll(idOrPrefix);
    if (idOrPrefix.empty() || !select.step()) throw UsageError("no comparison " + idOrPrefix + " in " + path());
    std::string document = select.text(1);
    if (select.step()) throw UsageError("comparison id prefix " + idOrPrefix + " is ambiguous in " + path());
    return document;
}

std::vector<std::string> RunStore::reportCitations(const std::string& reportSha256) const
{
    Statement select(*m_db, "SELECT src FROM lineage WHERE dst_kind = 'report' AND dst = ?1 AND relation = 'report' ORDER BY id");
    select.bindAll(reportSha256);
    std::vector<std::string> ids;
    while (select.step()) ids.push_back(select.text(0));
    return ids;
}

ChainHead RunStore::chainHead() const
{
    return store::chainHead(*m_db);
}

std::optional<std::string> RunStore::sealAt(std::int64_t seq) const
{
    return store::sealAt(*m_db, seq);
}

bool RunStore::deleteRun(const std::string& id)
{
    WriteTransaction transaction(*m_db);
    Statement current(*m_db, "SELECT status FROM runs WHERE id = ?1");
    current.bindAll(id);
    if (!current.step()) throw UsageError("no run " + id + " in " + path());
    if (current.text(0) == "running") throw UsageError("run " + id + " is still running; it can be deleted once it has ended");
    Statement mark(*m_db, "UPDATE runs SET deleted_at = ?1 WHERE id = ?2 AND deleted_at IS NULL");
    mark.bindAll(isoNowUtc(), id).run();
    if (sqlite3_changes(m_db->handle()) == 0) return false;  // deleted before: its tombstone is chained already
    appendEventToChain(*m_db, "tombstone", id);
    transaction.commit();
    rememberChainHead(*m_db);
    return true;
}

GcReport RunStore::collectGarbage()
{
    GcReport report;
    {
        WriteTransaction transaction(*m_db);
        constexpr const char* deleted = "run_id IN (SELECT id FROM runs WHERE deleted_at IS NOT NULL) AND data IS NOT NULL";
        Statement count(*m_db, (std::string("SELECT count(DISTINCT run_id), coalesce(sum(length(data)), 0) FROM artifacts WHERE ") + deleted).c_str());
        count.step();
        report.runs = static_cast<int>(count.integer(0));
        report.bytes = count.integer(1);
        Statement drop(*m_db, (std::string("UPDATE artifacts SET data = NULL WHERE ") + deleted).c_str());
        drop.run();
        transaction.commit();
    }
    // Give the freed pages back to the file system.
    if (report.bytes > 0) m_db->exec("VACUUM");
    return report;
}

VerifyReport RunStore::verify() const
{
    return verifyChain(*m_db);
}

}  // namespace clusterdesk::store
