#include "engine/data/csv_reader.h"
#include "engine/data/text_cells.h"

#include "data_test_support.h"

#include "doctest_support.h"
#include "temp_dir.h"

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

using namespace clusterdesk;
using namespace clusterdesk::data;

namespace {

std::vector<std::vector<std::string>> readAll(CsvReader& reader)
{
    std::vector<std::vector<std::string>> rows;
    CsvRecord record;
    while (reader.next(record)) {
        rows.emplace_back();
        for (const auto& f : record.fields) rows.back().emplace_back(f.text);
    }
    return rows;
}

using Rows = std::vector<std::vector<std::string>>;

}  // namespace

namespace {

struct DelimiterSniffingRow {
    std::string tag;
    std::string text;
    char delimiter;
};

std::vector<DelimiterSniffingRow> delimiterSniffingRows()
{
    std::vector<DelimiterSniffingRow> rows;
    rows.push_back({"comma", "a,b,c\n1,2,3\n", ','});
    rows.push_back({"tab", "a\tb\tc\n1\t2\t3\n", '\t'});
    rows.push_back({"semicolon", "a;b;c\n1;2;3\n", ';'});
    rows.push_back({"comma in quotes, semicolon delimits", "\"a,b\";c\n\"1,5\";2\n", ';'});
    rows.push_back({"single column", "a\n1\n", ','});
    return rows;
}

}  // namespace

TEST_CASE("delimiterSniffing")
{
    for (const DelimiterSniffingRow& row : delimiterSniffingRows()) {
        SUBCASE(row.tag.c_str())
        {
            const std::string& text = row.text;
            const char& delimiter = row.delimiter;
            CsvReader reader("mem.csv", text);
            REQUIRE_EQ(reader.delimiter(), delimiter);
        }
    }
}

TEST_CASE("quotedFieldsAndEscapes")
{
    CsvReader reader("mem.csv", "name,comment\n\"Smith, J\",\"said \"\"hi\"\"\"\n\"two\nlines\",x\nlast,\"\"\n");
    const Rows rows = readAll(reader);
    REQUIRE_EQ(rows.size(), std::size_t{4});
    REQUIRE_EQ(rows[1][0], std::string("Smith, J"));
    REQUIRE_EQ(rows[1][1], std::string("said \"hi\""));
    REQUIRE_EQ(rows[2][0], std::string("two\nlines"));
    REQUIRE_EQ(rows[3][1], std::string(""));
}

TEST_CASE("lineAndColumnTracking")
{
    // BOM skipped, blank lines skipped, CRLF, a multi-line quoted field, UTF-8 columns.
    CsvReader reader("mem.csv",
                     "\xEF\xBB\xBF"
                     "a,b\r\n\r\n  \r\n\"x\ny\",1\r\nh\xC3\xA9llo, 2 \r\n");
    CsvRecord r;
    REQUIRE(reader.next(r));
    REQUIRE_EQ(r.line, std::int64_t{1});
    REQUIRE_EQ(r[1].column, std::int64_t{3});
    REQUIRE_EQ(std::string(r[1].text), std::string("b"));
    REQUIRE(reader.next(r));
    REQUIRE_EQ(r.line, std::int64_t{4});
    REQUIRE_EQ(r[1].line, std::int64_t{5});
    REQUIRE_EQ(r[1].column, std::int64_t{4});
    REQUIRE(reader.next(r));
    REQUIRE_EQ(r.line, std::int64_t{6});
    REQUIRE_EQ(std::string(r[0].text), std::string("h\xC3\xA9llo"));
    REQUIRE_EQ(std::string(r[1].text), std::string("2"));  // trimmed, CR dropped
    REQUIRE_EQ(r[1].column, std::int64_t{8});              // 'é' is one character
    REQUIRE_EQ(r.endColumn, std::int64_t{9});
    REQUIRE(!reader.next(r));
    REQUIRE_EQ(reader.fraction(), 1.0);
}

TEST_CASE("tabsAreNotTrimmedInTsv")
{
    CsvReader reader("mem.tsv", "a\tb\n1\t\t3\n");
    const Rows rows = readAll(reader);
    REQUIRE_EQ(rows[1].size(), std::size_t{3});
    REQUIRE_EQ(rows[1][1], std::string(""));
}

namespace {

struct BadInputRow {
    std::string tag;
    std::string bytes;
    int line;
    int column;
    std::string fragment;
};

std::vector<BadInputRow> badInputRows()
{
    std::vector<BadInputRow> rows;
    rows.push_back({"unterminated quote", std::string("a,b\n1,\"2\n3,4\n"), 2, 3, "unterminated"});
    rows.push_back({"text after quote", std::string("a,b\n\"1\"x,2\n"), 2, 4, "after the closing quote"});
    rows.push_back({"invalid utf-8", std::string("a,b\n1,\xff\n"), 2, 3, "invalid UTF-8"});
    rows.push_back({"truncated utf-8", std::string("a,\xC3"), 1, 3, "invalid UTF-8"});
    rows.push_back({"overlong utf-8", std::string("\xC0\xAF"), 1, 1, "invalid UTF-8"});
    rows.push_back({"surrogate", std::string("ab,\xED\xA0\x80"), 1, 4, "invalid UTF-8"});
    rows.push_back({"utf-8 column", std::string("\xC3\xA9\xC3\xA9,\xFE"), 1, 4, "invalid UTF-8"});
    rows.push_back({"nul byte", std::string("a,b\n1,2\0", 8), 2, 4, "NUL byte"});
    std::string longLine("1,2\n");
    longLine += std::string((1 << 20) + 5, 'x');
    rows.push_back({"line over 1 MiB", longLine, 2, (1 << 20) + 1, "longer than"});
    return rows;
}

}  // namespace

TEST_CASE("badInput")
{
    for (const BadInputRow& row : badInputRows()) {
        SUBCASE(row.tag.c_str())
        {
            const std::string& bytes = row.bytes;
            const int& line = row.line;
            const int& column = row.column;
            const std::string& fragment = row.fragment;
            test::TempDir dir;
            const std::string path = test::writeFile(dir, "bad.csv", bytes);
            CD_EXPECT_DATA_ERROR(
                [&] {
                    CsvReader reader = CsvReader::fromFile(path);
                    readAll(reader);
                    return 0;
                }(),
                path, line, column, fragment);
        }
    }
}

TEST_CASE("missingFile")
{
    CD_EXPECT_DATA_ERROR(CsvReader::fromFile("/nonexistent/x.csv"), "/nonexistent/x.csv", 0, 0, "cannot open");
}

namespace {

struct NumbersRow {
    std::string tag;
    std::string text;
    bool ok;
    double value;
};

std::vector<NumbersRow> numbersRows()
{
    std::vector<NumbersRow> rows;
    rows.push_back({"int", "42", true, 42.0});
    rows.push_back({"plus", "+1.5", true, 1.5});
    rows.push_back({"exp", "-2.5e-3", true, -2.5e-3});
    rows.push_back({"double sign", "+-1", false, 0.0});
    rows.push_back({"trailing", "1.0x", false, 0.0});
    rows.push_back({"empty", "", false, 0.0});
    rows.push_back({"hex", "0x10", false, 0.0});
    rows.push_back({"comma decimal", "1,5", false, 0.0});
    rows.push_back({"underflow", "1e-999", true, 0.0});
    return rows;
}

}  // namespace

TEST_CASE("numbers")
{
    for (const NumbersRow& row : numbersRows()) {
        SUBCASE(row.tag.c_str())
        {
            const std::string& text = row.text;
            const bool& ok = row.ok;
            const double& value = row.value;
            const std::string s = text;
            const auto parsed = parseDouble(s);
            REQUIRE_EQ(parsed.has_value(), ok);
            if (ok) REQUIRE_EQ(*parsed, value);
        }
    }
}

TEST_CASE("nonFiniteNumbersParseSoCallersCanSaySo")
{
    REQUIRE(std::isnan(*parseDouble("nan")));
    REQUIRE(std::isinf(*parseDouble("inf")));
    REQUIRE(std::isinf(*parseDouble("1e999")));
    REQUIRE(*parseDouble("-1e999") < 0);
    // Beyond range by their digits, whatever the exponent's sign says: with
    // std::from_chars or fast_float alike.
    REQUIRE(std::isinf(*parseDouble("1" + std::string(400, '0') + "e-5")));
    REQUIRE(std::isinf(*parseDouble("-" + std::string(5, '0') + "1" + std::string(400, '0') + ".5e-5")));
    REQUIRE_EQ(*parseDouble("0." + std::string(400, '0') + "1e5"), 0.0);
    REQUIRE_EQ(*parseDouble("1e-999"), 0.0);
    REQUIRE(std::signbit(*parseDouble("-1e-999")));
}

namespace {

struct TimestampsRow {
    std::string tag;
    std::string text;
    std::int64_t micros;
};

std::vector<TimestampsRow> timestampsRows()
{
    std::vector<TimestampsRow> rows;
    rows.push_back({"date", "2024-01-02", std::int64_t(1704153600) * 1000000});
    rows.push_back({"T", "2024-01-02T09:30:00", (std::int64_t(1704153600) + 34200) * 1000000});
    rows.push_back({"space, no seconds", "2024-01-02 09:30", (std::int64_t(1704153600) + 34200) * 1000000});
    rows.push_back({"fraction", "2024-01-02T09:30:00.25", (std::int64_t(1704153600) + 34200) * 1000000 + 250000});
    rows.push_back({"zulu", "2024-01-02T09:30:00Z", (std::int64_t(1704153600) + 34200) * 1000000});
    rows.push_back({"offset", "2024-01-02T10:30:00+01:00", (std::int64_t(1704153600) + 34200) * 1000000});
    rows.push_back({"epoch", "1704153600", std::int64_t(1704153600) * 1000000});
    rows.push_back({"epoch fraction", "1704153600.5", std::int64_t(1704153600) * 1000000 + 500000});
    rows.push_back({"leap day", "2024-02-29", std::int64_t(1709164800) * 1000000});
    rows.push_back({"not leap", "2023-02-29", std::int64_t(-1)});
    rows.push_back({"month 13", "2024-13-01", std::int64_t(-1)});
    rows.push_back({"hour 24", "2024-01-02T24:00:00", std::int64_t(-1)});
    rows.push_back({"slashes", "2024/01/02", std::int64_t(-1)});
    rows.push_back({"text", "yesterday", std::int64_t(-1)});
    rows.push_back({"trailing", "2024-01-02x", std::int64_t(-1)});
    rows.push_back({"exponent epoch", "1e9", std::int64_t(-1)});
    return rows;
}

}  // namespace

TEST_CASE("timestamps")
{
    for (const TimestampsRow& row : timestampsRows()) {
        SUBCASE(row.tag.c_str())
        {
            const std::string& text = row.text;
            const std::int64_t& micros = row.micros;
            const auto parsed = parseTimestamp(text);
            if (micros < 0) {
                REQUIRE(!parsed);
            } else {
                REQUIRE(parsed);
                REQUIRE_EQ(*parsed, static_cast<std::int64_t>(micros));
            }
        }
    }
}

TEST_CASE("formatting")
{
    REQUIRE_EQ(formatTimestamp(*parseTimestamp("2024-03-05T07:08:09")), std::string("2024-03-05T07:08:09"));
    REQUIRE_EQ(formatTimestamp(-1), std::string("1969-12-31T23:59:59"));
    REQUIRE_EQ(formatDate(18631), std::string("2021-01-04"));
}

TEST_CASE("missingMarkers")
{
    for (const char* s : {"", "NA", "n/a", "#N/A", "NaN", "null", "None", " na "}) REQUIRE_MESSAGE(isMissingMarker(s), s);
    for (const char* s : {"0", "nano", "-"}) REQUIRE_MESSAGE(!isMissingMarker(s), s);
}
