// A thin RAII layer over the SQLite C API, private to the store: one connection,
// prepared statements whose values are always bound parameters (nothing a user typed
// is ever spliced into SQL text), and write transactions that take the write lock up
// front.
#pragma once

#include "store_error.h"

#include <sqlite3.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace clusterdesk::store {

class Database {
public:
    // Opens (creating it and its directory if needed) with WAL, foreign keys on and a
    // busy timeout, so concurrent writers wait for each other instead of failing.
    // readOnly: opens an existing file with SQLITE_OPEN_READONLY and changes nothing, not
    // even the journal mode, so a file on a read-only medium or without write permission
    // can be read; where SQLite cannot create the -shm file beside it and there is no
    // -wal file to read, the file is opened as immutable.
    explicit Database(const std::string& path, bool readOnly = false);
    ~Database();
    Database(const Database&) = delete;
    Database& operator=(const Database&) = delete;

    sqlite3* handle() const { return m_db; }
    const std::string& path() const { return m_path; }

    // Fixed SQL text only (schema, pragmas); never anything built from user input.
    void exec(const char* sql);
    // Throws StoreError "PATH: what: sqlite's message".
    [[noreturn]] void fail(const std::string& what) const;

private:
    void open(const std::string& name, int flags);  // name: the path, or a file: URI
    void openReadOnly();

    sqlite3* m_db = nullptr;
    std::string m_path;
};

class Statement {
public:
    Statement(Database& db, const char* sql);
    ~Statement();
    Statement(const Statement&) = delete;
    Statement& operator=(const Statement&) = delete;

    // Parameters are 1-based, in the order of the ?s.
    Statement& bind(int index, std::int64_t value);
    Statement& bind(int index, int value) { return bind(index, static_cast<std::int64_t>(value)); }
    Statement& bind(int index, double value);
    Statement& bind(int index, const std::string& value);
    Statement& bind(int index, const char* value) { return bind(index, std::string(value)); }
    Statement& bind(int index, std::optional<double> value);
    Statement& bindBlob(int index, const void* data, std::size_t size);
    Statement& bindNull(int index);
    template <class... Values>
    Statement& bindAll(const Values&... values)
    {
        int index = 0;
        (bind(++index, values), ...);
        return *this;
    }

    bool step();  // true: a row is ready; false: done
    void run();   // steps a statement that returns no rows
    void reset();

    int columnCount() const;
    std::string columnName(int column) const;
    bool isNull(int column) const;
    int columnType(int column) const;  // SQLITE_INTEGER, SQLITE_FLOAT, SQLITE_TEXT, SQLITE_BLOB, SQLITE_NULL
    std::int64_t integer(int column) const;
    double real(int column) const;
    std::optional<double> optionalReal(int column) const;
    std::string text(int column) const;  // "" for NULL
    std::vector<unsigned char> blob(int column) const;

private:
    Database& m_db;
    sqlite3_stmt* m_stmt = nullptr;
    std::string m_sql;
};

// BEGIN IMMEDIATE: the write lock is taken (waiting through the busy timeout) before
// anything is read, so a transaction never has to upgrade a read lock to a write lock
// (an upgrade that fails with SQLITE_BUSY is not retried by the busy handler).
// Rolls back unless commit() was called.
class WriteTransaction {
public:
    explicit WriteTransaction(Database& db);
    ~WriteTransaction();
    WriteTransaction(const WriteTransaction&) = delete;
    WriteTransaction& operator=(const WriteTransaction&) = delete;
    void commit();

private:
    Database& m_db;
    bool m_open = true;
};

// Read snapshot: every SELECT inside sees the same state of the database.
class ReadTransaction {
public:
    explicit ReadTransaction(Database& db);
    ~ReadTransaction();
    ReadTransaction(const ReadTransaction&) = delete;
    ReadTransaction& operator=(const ReadTransaction&) = delete;

private:
    Database& m_db;
};

}  // namespace clusterdesk::store
