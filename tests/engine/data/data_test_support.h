// Helpers shared by the engine/data suites: files in a temporary directory and a check
// that an expression throws a DataError at a given place.
#pragma once

#include "engine/core/error.h"

#include "doctest_support.h"
#include "temp_dir.h"

#include <cstdint>
#include <fstream>
#include <string>

namespace clusterdesk::test {

// Writes bytes (exactly, binary) to dir/name and returns the path.
inline std::string writeFile(const test::TempDir& dir, const std::string& name, const std::string& bytes)
{
    const std::string path = dir.filePath(name);
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    return path;
}

}  // namespace clusterdesk::test

// Asserts that `expr` throws clusterdesk::DataError at (LINE, COLUMN) whose what()
// names PATH and whose message contains FRAGMENT.
#define CD_EXPECT_DATA_ERROR(expr, PATH, LINE, COLUMN, FRAGMENT)                             \
    do {                                                                                     \
        bool thrown_ = false;                                                                \
        try {                                                                                \
            (void)(expr);                                                                    \
        } catch (const clusterdesk::DataError& e_) {                                         \
            thrown_ = true;                                                                  \
            const std::string what_ = e_.what();                                             \
            REQUIRE_MESSAGE(what_.find(PATH) != std::string::npos, what_.c_str());                  \
            REQUIRE_MESSAGE(what_.find(FRAGMENT) != std::string::npos, what_.c_str());              \
            REQUIRE_MESSAGE(e_.line() == static_cast<std::int64_t>(LINE), \
                     (what_ + " (expected line " + std::to_string(LINE) + ")").c_str());     \
            REQUIRE_MESSAGE(e_.column() == static_cast<std::int64_t>(COLUMN), \
                     (what_ + " (expected column " + std::to_string(COLUMN) + ")").c_str()); \
        }                                                                                    \
        REQUIRE_MESSAGE(thrown_, "expected a DataError");                                           \
    } while (false)
