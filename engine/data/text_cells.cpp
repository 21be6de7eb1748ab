#include "text_cells.h"

#include "decimal_prefix.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>

namespace clusterdesk::data {
namespace {

bool equalsLower(std::string_view text, std::string_view lower)
{
    if (text.size() != lower.size()) return false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        char c = text[i];
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
        if (c != lower[i]) return false;
    }
    return true;
}

// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's algorithm).
std::int64_t daysFromCivil(std::int64_t y, unsigned m, unsigned d)
{
    y -= m <= 2;
    const std::int64_t era = (y >= 0 ? y : y - 399) / 400;
    const unsigned yoe = static_cast<unsigned>(y - era * 400);
    const unsigned doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
    const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + static_cast<std::int64_t>(doe) - 719468;
}

void civilFromDays(std::int64_t z, std::int64_t& y, unsigned& m, unsigned& d)
{
    z += 719468;
    const std::int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    const unsigned doe = static_cast<unsigned>(z - era * 146097);
    const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    y = static_cast<std::int64_t>(yoe) + era * 400;
    const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    const unsigned mp = (5 * doy + 2) / 153;
    d = doy - (153 * mp + 2) / 5 + 1;
    m = mp < 10 ? mp + 3 : mp - 9;
    y += m <= 2;
}

bool isLeap(std::int64_t y)
{
    return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

unsigned daysInMonth(std::int64_t y, unsigned m)
{
    static constexpr unsigned days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    return m == 2 && isLeap(y) ? 29 : days[m - 1];
}

// Reads exactly n digits at pos; false if any is not a digit.
bool digits(std::string_view s, std::size_t pos, std::size_t n, int& out)
{
    if (pos + n > s.size()) return false;
    out = 0;
    for (std::size_t i = pos; i < pos + n; ++i) {
        if (s[i] < '0' || s[i] > '9') return false;
        out = out * 10 + (s[i] - '0');
    }
    return true;
}

std::string_view trimSpaces(std::string_view s)
{
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
    return s;
}

// Whether a decimal that from_chars found out of range lies below the smallest double
// rather than above the largest: its first significant digit's place is negative
// ("1" and 400 zeros "e-5" is huge, though its exponent is negative).
bool belowRange(std::string_view text)
{
    std::size_t i = text.front() == '-' ? 1 : 0;
    std::int64_t integerDigits = 0;  // from the first nonzero one
    std::int64_t zerosAfterPoint = 0;  // before the first nonzero digit, when the integer part is 0
    bool significant = false;
    bool afterPoint = false;
    for (; i < text.size() && (text[i] == '.' || (text[i] >= '0' && text[i] <= '9')); ++i) {
        if (text[i] == '.') {
            afterPoint = true;
        } else if (!significant && text[i] == '0') {
            zerosAfterPoint += afterPoint;
        } else {
            significant = true;
            integerDigits += !afterPoint;
        }
    }
    std::int64_t place = integerDigits > 0 ? integerDigits - 1 : -zerosAfterPoint - 1;
    if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
        ++i;
        const bool negative = i < text.size() && text[i] == '-';
        if (i < text.size() && (text[i] == '-' || text[i] == '+')) ++i;
        std::int64_t exponent = 0;
        for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i)
            exponent = std::min<std::int64_t>(exponent * 10 + (text[i] - '0'), std::int64_t(1) << 40);
        place += negative ? -exponent : exponent;
    }
    return place < 0;
}

}  // namespace

std::optional<double> parseDouble(std::string_view text)
{
    if (!text.empty() && text.front() == '+') {
        text.remove_prefix(1);
        if (!text.empty() && (text.front() == '-' || text.front() == '+')) return std::nullopt;
    }
    if (text.empty()) return std::nullopt;
    double value = 0.0;
    const auto [end, ec] = decimalPrefix(text.data(), text.data() + text.size(), value);
    if (end != text.data() + text.size()) return std::nullopt;
    if (ec == std::errc::result_out_of_range) {
        // std::from_chars leaves value untouched on overflow and underflow (fast_float
        // returns inf or 0 itself): 1e999 becomes inf (then rejected), 1e-999 becomes 0.
        const bool negative = text.front() == '-';
        if (belowRange(text)) return negative ? -0.0 : 0.0;
        return negative ? -HUGE_VAL : HUGE_VAL;
    }
    if (ec != std::errc()) return std::nullopt;
    return value;
}

std::optional<std::int32_t> parseInt32(std::string_view text)
{
    if (!text.empty() && text.front() == '+') text.remove_prefix(1);
    if (text.empty()) return std::nullopt;
    std::int32_t value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
    return value;
}

bool isMissingMarker(std::string_view text)
{
    text = trimSpaces(text);
    return text.empty() || equalsLower(text, "na") || equalsLower(text, "n/a") || equalsLower(text, "#n/a") ||
           equalsLower(text, "nan") || equalsLower(text, "null") || equalsLower(text, "none");
}

std::optional<std::int64_t> parseIsoTimestamp(std::string_view s)
{
    int year = 0, month = 0, day = 0;
    if (!digits(s, 0, 4, year) || s.size() < 10 || s[4] != '-' || !digits(s, 5, 2, month) || s[7] != '-' ||
        !digits(s, 8, 2, day))
        return std::nullopt;
    if (month < 1 || month > 12 || day < 1 || static_cast<unsigned>(day) > daysInMonth(year, month))
        return std::nullopt;
    std::int64_t micros =
        daysFromCivil(year, static_cast<unsigned>(month), static_cast<unsigned>(day)) * 86400LL * 1000000LL;
    std::size_t pos = 10;
    if (pos == s.size()) return micros;
    if (s[pos] != 'T' && s[pos] != ' ') return std::nullopt;
    ++pos;
    int hour = 0, minute = 0, second = 0;
    if (!digits(s, pos, 2, hour) || pos + 2 >= s.size() || s[pos + 2] != ':' || !digits(s, pos + 3, 2, minute))
        return std::nullopt;
    pos += 5;
    if (pos < s.size() && s[pos] == ':') {
        if (!digits(s, pos + 1, 2, second)) return std::nullopt;
        pos += 3;
    }
    if (hour > 23 || minute > 59 || second > 60) return std::nullopt;
    std::int64_t fraction = 0;
    if (pos < s.size() && (s[pos] == '.' || s[pos] == ',')) {
        ++pos;
        const std::size_t start = pos;
        std::int64_t scale = 100000;
        while (pos < s.size() && s[pos] >= '0' && s[pos] <= '9') {
            fraction += (s[pos] - '0') * scale;  // digits past microseconds are dropped
            scale /= 10;
            ++pos;
        }
        if (pos == start) return std::nullopt;
    }
    micros += ((hour * 60LL + minute) * 60LL + second) * 1000000LL + fraction;
    if (pos < s.size() && s[pos] == 'Z') {
        ++pos;
    } else if (pos < s.size() && (s[pos] == '+' || s[pos] == '-')) {
        const bool minus = s[pos] == '-';
        int oh = 0, om = 0;
        if (!digits(s, pos + 1, 2, oh)) return std::nullopt;
        pos += 3;
        if (pos < s.size() && s[pos] == ':') ++pos;
        if (!digits(s, pos, 2, om)) return std::nullopt;
        pos += 2;
        if (oh > 23 || om > 59) return std::nullopt;
        const std::int64_t offset = (oh * 60LL + om) * 60LL * 1000000LL;
        micros += minus ? offset : -offset;
    }
    if (pos != s.size()) return std::nullopt;
    return micros;
}

std::optional<std::int64_t> parseTimestamp(std::string_view text)
{
    if (auto iso = parseIsoTimestamp(text)) return iso;
    // Epoch seconds: plain decimal digits only (no exponent, no nan/inf).
    if (text.empty() || text.find_first_not_of("0123456789.-+") != std::string_view::npos) return std::nullopt;
    const auto seconds = parseDouble(text);
    // Within +-year 9999 so the micro count cannot overflow.
    if (!seconds || !(*seconds > -2.5e11 && *seconds < 2.5e11)) return std::nullopt;
    return static_cast<std::int64_t>(std::llround(*seconds * 1e6));
}

std::string formatTimestamp(std::int64_t micros)
{
    std::int64_t seconds = micros / 1000000;
    if (micros % 1000000 < 0) --seconds;
    std::int64_t days = seconds / 86400;
    std::int64_t rest = seconds % 86400;
    if (rest < 0) {
        rest += 86400;
        --days;
    }
    std::int64_t y = 0;
    unsigned m = 0, d = 0;
    civilFromDays(days, y, m, d);
    char buffer[48];
    std::snprintf(buffer, sizeof buffer, "%04lld-%02u-%02uT%02lld:%02lld:%02lld", static_cast<long long>(y), m, d,
                  static_cast<long long>(rest / 3600), static_cast<long long>(rest / 60 % 60),
                  static_cast<long long>(rest % 60));
    return buffer;
}

std::string formatDate(std::int64_t days)
{
    std::int64_t y = 0;
    unsigned m = 0, d = 0;
    civilFromDays(days, y, m, d);
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%04lld-%02u-%02u", static_cast<long long>(y), m, d);
    return buffer;
}

std::string lowerTrimmed(std::string_view text)
{
    text = trimSpaces(text);
    std::string out(text);
    for (char& c : out)
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    return out;
}

std::string excerpt(std::string_view text, std::size_t maxChars)
{
    std::size_t chars = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) {
            if (chars == maxChars) return std::string(text.substr(0, i)) + "...";
            ++chars;
        }
    }
    return std::string(text);
}

}  // namespace clusterdesk::data
