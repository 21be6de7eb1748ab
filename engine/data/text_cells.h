// Parsing single CSV cells: numbers, missing-value markers, timestamps. Pure functions,
// no locale, no allocation on the hot path.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace clusterdesk::data {

// A decimal number (std::from_chars, general format; a leading '+' is allowed). The
// whole cell must be consumed. NaN and infinities parse (callers reject them with a
// better message than "not a number").
std::optional<double> parseDouble(std::string_view text);

// A base-10 integer that fits in int32 (leading '+' allowed).
std::optional<std::int32_t> parseInt32(std::string_view text);

// Empty, NA, N/A, #N/A, NaN, null, None (case-insensitive): a missing price.
bool isMissingMarker(std::string_view text);

// ISO 8601 date or date-time: YYYY-MM-DD, then optionally 'T' or ' ' and HH:MM[:SS[.frac]],
// then optionally 'Z' or +HH:MM / -HH:MM. Returns microseconds since the Unix epoch (UTC).
std::optional<std::int64_t> parseIsoTimestamp(std::string_view text);

// ISO 8601 as above, or epoch seconds (integer or decimal). Microseconds since the epoch.
std::optional<std::int64_t> parseTimestamp(std::string_view text);

// "YYYY-MM-DDTHH:MM:SS" (UTC) for microseconds since the epoch (sub-second part dropped).
std::string formatTimestamp(std::int64_t micros);

// "YYYY-MM-DD" for days since the epoch.
std::string formatDate(std::int64_t days);

// ASCII lower-case copy, with surrounding spaces removed.
std::string lowerTrimmed(std::string_view text);

// At most maxChars of a cell for an error message, with "..." when cut (UTF-8 safe).
std::string excerpt(std::string_view text, std::size_t maxChars = 40);

}  // namespace clusterdesk::data
