// doctest for the engine and kernel suites (tests/engine, tests/kernels), and what they
// use beyond it:
// skipping with a reason, printf-style row names, and the few string queries Qt's
// QString offered (std::string has no contains() before C++23).
#pragma once

// doctest names a value by an unqualified toString(value), which finds ClusterDesk's own
// toString(enum) (returning std::string) by argument-dependent lookup and fails to
// compile; doctest's own, qualified, prints enums as numbers. Suites include this
// header instead of doctest.h, so the definition comes first.
#define DOCTEST_STRINGIFY(...) doctest::toString(__VA_ARGS__)
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

// Ends the current test case (or data row) as skipped, saying why. doctest 2.4 has no
// run-time skip, so the reason is printed as a message, which every reporter shows.
#define CLUSTERDESK_SKIP(reason)                    \
    do {                                            \
        MESSAGE("SKIPPED: " << std::string(reason)); \
        return;                                     \
    } while (false)

namespace clusterdesk::test {

// printf into a std::string: row names and messages like Qt's addRow and qInfo.
[[gnu::format(printf, 1, 2)]] inline std::string format(const char* fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    va_list again;
    va_copy(again, args);
    const int size = std::vsnprintf(nullptr, 0, fmt, args);
    va_end(args);
    std::string out(size > 0 ? static_cast<std::size_t>(size) : 0, '\0');
    std::vsnprintf(out.data(), out.size() + 1, fmt, again);
    va_end(again);
    return out;
}

// A double with every digit that tells it apart (Qt's arg(x, 0, 'g', 17)).
inline std::string exact(double value) { return format("%.17g", value); }

inline bool contains(std::string_view text, std::string_view part) { return text.find(part) != std::string_view::npos; }
inline bool contains(std::string_view text, char c) { return text.find(c) != std::string_view::npos; }
template <class Container, class Value>
    requires(!std::is_convertible_v<const Container&, std::string_view>)
bool contains(const Container& values, const Value& value)
{
    return std::find(values.begin(), values.end(), value) != values.end();
}
inline std::string join(const std::vector<std::string>& parts, char separator)
{
    std::string out;
    for (const std::string& part : parts) out += (out.empty() ? "" : std::string(1, separator)) + part;
    return out;
}
inline bool startsWith(std::string_view text, std::string_view prefix) { return text.starts_with(prefix); }
inline bool endsWith(std::string_view text, std::string_view suffix) { return text.ends_with(suffix); }

}  // namespace clusterdesk::test
