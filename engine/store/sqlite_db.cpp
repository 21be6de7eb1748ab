#include "sqlite_db.h"

#include "engine/core/file_kind.h"

#include <sys/stat.h>

#include <cctype>
#include <chrono>
#include <filesystem>
#include <thread>

namespace clusterdesk::store {
namespace {

// Long enough for 4 processes x 25 runs racing for the write lock, and for a reader
// waiting on a checkpoint; a writer holds the lock for milliseconds.
constexpr int kBusyTimeoutMs = 60000;

}  // namespace

namespace {

// file: URI of a path (RFC 3986: every byte outside the unreserved set and '/' escaped).
std::string fileUri(const std::string& path)
{
    static constexpr char hex[] = "0123456789ABCDEF";
    std::string uri = "file:";
    for (const unsigned char c : std::filesystem::absolute(path).string()) {
        if (std::isalnum(c) || c == '/' || c == '-' || c == '.' || c == '_' || c == '~') uri += static_cast<char>(c);
        else uri += std::string("%") + hex[c >> 4] + hex[c & 0xf];
    }
    return uri + "?immutable=1";
}

}  // namespace

Database::Database(const std::string& path, bool readOnly) : m_path(path)
{
    // SQLite would say "unable to open database file" or "disk I/O error".
    struct stat st {};
    if (::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode))
        throw StoreError(path + ": it is " + fileKindName(st.st_mode) + ", not a run store file (--db names the store's file)");
    if (readOnly) {
        openReadOnly();
        return;
    }
    const std::filesystem::path parent = std::filesystem::path(path).parent_path();
    std::error_code ec;
    if (!parent.empty()) std::filesystem::create_directories(parent, ec);
    if (ec) throw StoreError(path + ": cannot create the directory " + parent.string() + ": " + ec.message());
    open(path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
    try {
        // Switching to WAL needs a moment of exclusive access and may answer SQLITE_BUSY
        // while several processes create the file at once: retried up to the busy timeout.
        for (int attempt = 0;; ++attempt) {
            char* error = nullptr;
            const int wal = sqlite3_exec(m_db, "PRAGMA journal_mode=WAL", nullptr, nullptr, &error);
            sqlite3_free(error);
            if (wal == SQLITE_OK) break;
            if ((wal & 0xff) != SQLITE_BUSY || attempt * 10 > kBusyTimeoutMs) fail("switch to WAL");
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
        exec("PRAGMA foreign_keys=ON");
        exec("PRAGMA synchronous=NORMAL");  // WAL + NORMAL: durable on commit except on power loss, never corrupt
    } catch (...) {
        sqlite3_close(m_db);
        throw;
    }
}

void Database::open(const std::string& name, int flags)
{
    const int rc = sqlite3_open_v2(name.c_str(), &m_db, flags | SQLITE_OPEN_NOMUTEX, nullptr);
    if (rc != SQLITE_OK) {
        const std::string message = m_db ? sqlite3_errmsg(m_db) : sqlite3_errstr(rc);
        sqlite3_close(m_db);
        m_db = nullptr;
        throw StoreError(m_path + ": cannot open the run store: " + message);
    }
    sqlite3_extended_result_codes(m_db, 1);
    sqlite3_busy_timeout(m_db, kBusyTimeoutMs);
}

void Database::openReadOnly()
{
    open(m_path, SQLITE_OPEN_READONLY);
    // The first read sets up the -shm index of the WAL file. A writer recovering or
    // restarting the WAL answers SQLITE_BUSY for a moment: retried up to the busy
    // timeout, as the switch to WAL is. In a directory nobody may write the index cannot
    // be created (SQLITE_CANTOPEN, or SQLITE_READONLY_* when it cannot be set up).
    int probe = SQLITE_BUSY;
    for (int attempt = 0; (probe & 0xff) == SQLITE_BUSY && attempt * 10 <= kBusyTimeoutMs; ++attempt) {
        if (attempt > 0) std::this_thread::sleep_for(std::chrono::milliseconds(10));
        probe = sqlite3_exec(m_db, "SELECT count(*) FROM sqlite_master", nullptr, nullptr, nullptr);
    }
    if (probe == SQLITE_OK) return;
    const std::string message = sqlite3_errmsg(m_db);
    sqlite3_close(m_db);
    m_db = nullptr;
    std::error_code ec;
    // Immutable skips the -wal file: only right when there is none holding commits.
    const bool noIndex = (probe & 0xff) == SQLITE_CANTOPEN || (probe & 0xff) == SQLITE_READONLY;
    const std::uintmax_t walBytes = std::filesystem::file_size(m_path + "-wal", ec);  // an error: there is none
    if (!noIndex || (!ec && walBytes > 0))
        throw StoreError(m_path + ": cannot read the run store: " + message);
    open(fileUri(m_path), SQLITE_OPEN_READONLY | SQLITE_OPEN_URI);
}

Database::~Database()
{
    sqlite3_close(m_db);
}

void Database::exec(const char* sql)
{
    char* error = nullptr;
    if (sqlite3_exec(m_db, sql, nullptr, nullptr, &error) != SQLITE_OK) {
        sqlite3_free(error);
        fail(std::string(sql).substr(0, 60));
    }
}

void Database::fail(const std::string& what) const
{
    // SQLite opens a write-protected store read-only without a word: reading works, and
    // the first write fails. Said as the user's problem, not as the SQL that met it.
    const int code = sqlite3_extended_errcode(m_db);
    if (code == SQLITE_READONLY || code == SQLITE_READONLY_DIRECTORY)
        throw StoreError(m_path + ": the run store is read-only (its file or folder cannot be written): recording or deleting "
                                  "needs write access; runs list, show, diff, verify and export read it as it is (" + what + ")");
    throw StoreError(m_path + ": " + what + ": " + sqlite3_errmsg(m_db));
}

Statement::Statement(Database& db, const char* sql) : m_db(db), m_sql(sql)
{
    if (sqlite3_prepare_v2(db.handle(), sql, -1, &m_stmt, nullptr) != SQLITE_OK)
        db.fail("prepare '" + m_sql.substr(0, 60) + "'");
}

Statement::~Statement()
{
    sqlite3_finalize(m_stmt);
}

Statement& Statement::bind(int index, std::int64_t value)
{
    if (sqlite3_bind_int64(m_stmt, index, value) != SQLITE_OK) m_db.fail("bind");
    return *this;
}

Statement& Statement::bind(int index, double value)
{
    if (sqlite3_bind_double(m_stmt, index, value) != SQLITE_OK) m_db.fail("bind");
    return *this;
}

Statement& Statement::bind(int index, const std::string& value)
{
    if (sqlite3_bind_text(m_stmt, index, value.data(), static_cast<int>(value.size()), SQLITE_TRANSIENT) != SQLITE_OK)
        m_db.fail("bind");
    return *this;
}

Statement& Statement::bind(int index, std::optional<double> value)
{
    return value ? bind(index, *value) : bindNull(index);
}

Statement& Statement::bindBlob(int index, const void* data, std::size_t size)
{
    if (sqlite3_bind_blob64(m_stmt, index, size ? data : "", size, SQLITE_TRANSIENT) != SQLITE_OK) m_db.fail("bind");
    return *this;
}

Statement& Statement::bindNull(int index)
{
    if (sqlite3_bind_null(m_stmt, index) != SQLITE_OK) m_db.fail("bind");
    return *this;
}

bool Statement::step()
{
    const int rc = sqlite3_step(m_stmt);
    if (rc == SQLITE_ROW) return true;
    if (rc == SQLITE_DONE) return false;
    m_db.fail("'" + m_sql.substr(0, 60) + "'");
}

void Statement::run()
{
    while (step()) {
    }
}

void Statement::reset()
{
    sqlite3_reset(m_stmt);
    sqlite3_clear_bindings(m_stmt);
}

int Statement::columnCount() const { return sqlite3_column_count(m_stmt); }
std::string Statement::columnName(int column) const { return sqlite3_column_name(m_stmt, column); }
int Statement::columnType(int column) const { return sqlite3_column_type(m_stmt, column); }
bool Statement::isNull(int column) const { return columnType(column) == SQLITE_NULL; }
std::int64_t Statement::integer(int column) const { return sqlite3_column_int64(m_stmt, column); }
double Statement::real(int column) const { return sqlite3_column_double(m_stmt, column); }

std::optional<double> Statement::optionalReal(int column) const
{
    if (isNull(column)) return std::nullopt;
    return real(column);
}

std::string Statement::text(int column) const
{
    const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(m_stmt, column));
    return text ? std::string(text, static_cast<std::size_t>(sqlite3_column_bytes(m_stmt, column))) : std::string();
}

std::vector<unsigned char> Statement::blob(int column) const
{
    const auto* data = static_cast<const unsigned char*>(sqlite3_column_blob(m_stmt, column));
    const int size = sqlite3_column_bytes(m_stmt, column);
    return data ? std::vector<unsigned char>(data, data + size) : std::vector<unsigned char>();
}

WriteTransaction::WriteTransaction(Database& db) : m_db(db)
{
    m_db.exec("BEGIN IMMEDIATE");
}

WriteTransaction::~WriteTransaction()
{
    if (m_open) sqlite3_exec(m_db.handle(), "ROLLBACK", nullptr, nullptr, nullptr);
}

void WriteTransaction::commit()
{
    m_db.exec("COMMIT");
    m_open = false;
}

ReadTransaction::ReadTransaction(Database& db) : m_db(db)
{
    m_db.exec("BEGIN");
}

ReadTransaction::~ReadTransaction()
{
    sqlite3_exec(m_db.handle(), "COMMIT", nullptr, nullptr, nullptr);
}

}  // namespace clusterdesk::store
