#include "engine/data/load.h"

#include "data_test_support.h"

#include "doctest_support.h"
#include "temp_dir.h"

#include <cstdint>
#include <string>
#include <vector>

#include <cmath>

using namespace clusterdesk;

namespace {

Dataset loadTicks(const std::string& path, LoadOptions options = {})
{
    options.layout = Layout::Ticks;
    return loadDataset(path, options);
}

// 2024-01-02T09:32:30 in epoch seconds.
constexpr const char* kEpoch0932 = "1704187950";

std::string ticksFile()
{
    // Shuffled column order, mixed header case, an extra column, ISO with T / space /
    // fraction, epoch seconds, and BBB's ticks in bar 09:31 out of time order.
    return std::string(
               "Price,SYMBOL,venue,TimeStamp,size\n"
               "100,AAA,X,2024-01-02T09:30:05,10\n"
               "50,BBB,X,2024-01-02 09:30:10,\n"
               "101,AAA,X,2024-01-02T09:30:50.5,3\n"
               "51,BBB,Y,2024-01-02T09:31:40,1\n"
               "102,AAA,X,2024-01-02T09:31:00,1\n"
               "49,BBB,Y,2024-01-02T09:31:20,1\n"
               "103,AAA,X,2024-01-02T09:32:59.999,1\n"
               "52.5,BBB,X,") +
           kEpoch0932 +
           ",2\n"
           "104,AAA,X,2024-01-02T09:33:01,1\n";
}

bool hasNote(const Dataset& d, const std::string& fragment)
{
    for (const auto& n : d.notes)
        if (n.find(fragment) != std::string::npos) return true;
    return false;
}

}  // namespace

TEST_CASE("resamplesToLastPricePerBar")
{
    test::TempDir dir;
    const std::string path = test::writeFile(dir, "t.csv", ticksFile());
    REQUIRE_EQ(toString(sniffLayout(path)), toString(Layout::Ticks));
    LoadOptions options;
    options.minHistory = 0.5;  // BBB trades in 3 of the 4 bars
    const Dataset d = loadDataset(path, options);
    REQUIRE_EQ(toString(d.layout), toString(Layout::Ticks));
    REQUIRE_EQ(d.rowNames, (std::vector<std::string>{"AAA", "BBB"}));
    REQUIRE_EQ(d.colNames, (std::vector<std::string>{"2024-01-02T09:31:00", "2024-01-02T09:32:00", "2024-01-02T09:33:00"}));
    REQUIRE(hasNote(d, "resampled 9 ticks of 2 symbols into 4 bars of 60 s"));
    REQUIRE(hasNote(d, "forward-filled 1"));

    // The same bars written as a wide prices file go through the same pipeline.
    const std::string wide = test::writeFile(dir, "w.csv",
                                             "timestamp,AAA,BBB\n"
                                             "2024-01-02T09:30:00,101,50\n"
                                             "2024-01-02T09:31:00,102,51\n"
                                             "2024-01-02T09:32:00,103,52.5\n"
                                             "2024-01-02T09:33:00,104,\n");
    const Dataset p = loadDataset(wide, options);
    REQUIRE_EQ(toString(p.layout), toString(Layout::Prices));
    REQUIRE_EQ(d.values, p.values);
    REQUIRE_EQ(d.contentHash(), p.contentHash());
    REQUIRE_EQ(d.colNames, p.colNames);
}

TEST_CASE("barSizeAndWindow")
{
    test::TempDir dir;
    const std::string path = test::writeFile(dir, "t.csv", ticksFile());
    LoadOptions options;
    options.minHistory = 0.5;
    options.barSeconds = 30;
    const Dataset d = loadTicks(path, options);
    REQUIRE(hasNote(d, "bars of 30 s"));
    REQUIRE_EQ(d.colNames.front(), std::string("2024-01-02T09:30:30"));
    options.returnWindow = 2;
    const Dataset w = loadTicks(path, options);
    REQUIRE_EQ(w.cols, std::int64_t{2});
    options.barSeconds = 0;
    REQUIRE_THROWS_AS(loadTicks(path, options), UsageError);
}

namespace {

struct MissingRequiredColumnsRow {
    std::string tag;
    std::string header;
    std::string missing;
};

std::vector<MissingRequiredColumnsRow> missingRequiredColumnsRows()
{
    std::vector<MissingRequiredColumnsRow> rows;
    rows.push_back({"timestamp", std::string("time,symbol,price"), "'timestamp'"});
    rows.push_back({"symbol", std::string("timestamp,ticker,price"), "'symbol'"});
    rows.push_back({"price", std::string("timestamp,symbol,size"), "'price'"});
    return rows;
}

}  // namespace

TEST_CASE("missingRequiredColumns")
{
    for (const MissingRequiredColumnsRow& row : missingRequiredColumnsRows()) {
        SUBCASE(row.tag.c_str())
        {
            const std::string& header = row.header;
            const std::string& missing = row.missing;
            test::TempDir dir;
            const std::string path = test::writeFile(dir, "t.csv", header + "\n2024-01-02,A,1\n");
            CD_EXPECT_DATA_ERROR(loadTicks(path), path, 1, 1, "missing required column " + missing);
        }
    }
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
    const std::string head = "timestamp,symbol,price,size\n2024-01-02T09:30:00,A,10,1\n";
    rows.push_back({"empty", std::string(), 1, 1, "empty file"});
    rows.push_back({"header only", std::string("timestamp,symbol,price\n"), 2, 1, "no ticks"});
    rows.push_back({"duplicate column", std::string("timestamp,symbol,price,Price\n"), 1, 24, "field 4: duplicate column 'price' (also field 3)"});
    rows.push_back({"bad timestamp", head + "2024-01-02T25:00:00,A,10,1\n", 3, 1, "field 1 (timestamp): not a timestamp"});
    rows.push_back({"empty symbol", head + "2024-01-02T09:31:00,,10,1\n", 3, 21, "field 2 (symbol): empty symbol"});
    rows.push_back({"negative price", head + "2024-01-02T09:31:00,A,-10,1\n", 3, 23, "field 3 (price): price must be positive: '-10'"});
    rows.push_back({"nan price", head + "2024-01-02T09:31:00,A,NaN,1\n", 3, 23, "not a finite price"});
    rows.push_back({"subnormal price", head + "2024-01-02T09:31:00,A,1e-310,1\n", 3, 23, "price too small"});
    // The 09:31 bar closes on the tick of line 4: its return from 1e300 underflows to log(0).
    rows.push_back({"bar return beyond double range", std::string("timestamp,symbol,price\n2024-01-02T09:30:00,A,1e300\n2024-01-02T09:31:00,A,5\n" "2024-01-02T09:31:30,A,1e-300\n2024-01-02T09:32:00,A,1\n"), 4, 23, "the log return of 'A' at 2024-01-02T09:31:00"});
    rows.push_back({"missing price", head + "2024-01-02T09:31:00,A,,1\n", 3, 23, "not a price"});
    rows.push_back({"bad size", head + "2024-01-02T09:31:00,A,10,lots\n", 3, 26, "field 4 (size): size must be a non-negative number: 'lots'"});
    rows.push_back({"negative size", head + "2024-01-02T09:31:00,A,10,-1\n", 3, 26, "size must be"});
    rows.push_back({"ragged", head + "2024-01-02T09:31:00,A,10\n", 3, 25, "expected 4 fields"});
    rows.push_back({"too few bars", head + "2024-01-02T09:30:30,A,11,1\n", 0, 0, "too few periods"});
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
            CD_EXPECT_DATA_ERROR(loadTicks(path), path, line, column, fragment);
        }
    }
}

TEST_CASE("sparseFarApartTicksStayBounded")
{
    // Ticks years apart: only bars with trades exist, so no giant empty grid is built.
    test::TempDir dir;
    const std::string path = test::writeFile(dir, "t.csv",
                                             "timestamp,symbol,price\n0,A,1\n1,B,2\n"
                                             "100000000,A,1.5\n100000000,B,2.5\n"
                                             "200000000,A,1.2\n200000000,B,2.2\n");
    LoadOptions options;
    options.barSeconds = 1;
    options.minHistory = 0.5;
    const Dataset d = loadTicks(path, options);
    REQUIRE_EQ(d.rows, std::int64_t{2});
    // Bars 0, 1, 1e8, 2e8; bar 0 has no price for B (before its first), so 3 periods remain.
    REQUIRE_EQ(d.cols, std::int64_t{2});
    REQUIRE(hasNote(d, "into 4 bars"));
}
