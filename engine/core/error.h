// Engine errors: thrown with context, caught only at the Qt/CLI boundary.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace clusterdesk {

// Base of every error the engine throws on purpose.
class Error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// Bad input data. what() reads "FILE:LINE:COLUMN: message" (line/column omitted when
// they do not apply, e.g. a binary header), so terminals and editors can jump to it.
class DataError : public Error {
public:
    DataError(std::string file, std::int64_t line, std::int64_t column, const std::string& message);

    const std::string& file() const { return m_file; }
    std::int64_t line() const { return m_line; }      // 1-based; 0 when not applicable
    std::int64_t column() const { return m_column; }  // 1-based; 0 when not applicable
    const std::string& message() const { return m_message; }

private:
    std::string m_file;
    std::int64_t m_line;
    std::int64_t m_column;
    std::string m_message;
};

// Invalid parameters (k larger than rows, unknown topology, ...).
class UsageError : public Error {
public:
    using Error::Error;
};

// A backend or device failed (no GPU usable, CUDA error, communicator failure).
class DeviceError : public Error {
public:
    using Error::Error;
};

// An output file could not be written (disk full, I/O error); what it held before is kept.
class OutputError : public Error {
public:
    using Error::Error;
};

// A serialised record (JSON written by a codec) is malformed: what() names the field.
class CodecError : public Error {
public:
    using Error::Error;
};

// A long operation stopped because its progress callback asked it to.
class Cancelled : public Error {
public:
    using Error::Error;
};

}  // namespace clusterdesk
