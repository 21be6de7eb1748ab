#include "engine/data/load.h"
#include "engine/data/open_source.h"

#include "data_test_support.h"

#include "doctest_support.h"
#include "temp_dir.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include <cmath>

using namespace clusterdesk;

namespace {

Dataset loadPrices(const std::string& path, LoadOptions options = {})
{
    options.layout = Layout::Prices;
    return loadDataset(path, options);
}

// z-scored log returns of a price series, computed independently of the pipeline.
std::vector<double> zscoredReturns(const std::vector<double>& prices)
{
    std::vector<double> r;
    for (std::size_t i = 1; i < prices.size(); ++i) r.push_back(std::log(prices[i] / prices[i - 1]));
    double mean = 0, var = 0;
    for (double x : r) mean += x;
    mean /= r.size();
    for (double x : r) var += (x - mean) * (x - mean);
    var /= r.size();
    for (double& x : r) x = var > 0 ? (x - mean) / std::sqrt(var) : 0.0;
    return r;
}

// A prices file read with its days left unscaled (scale_days=0): rows are the plain
// z-scored log returns.
Dataset loadUnscaled(const std::string& path, SourceOptions options = {})
{
    options["scale_days"] = "0";
    return openSource(describeFile(path, "prices", options));
}

bool hasNote(const Dataset& d, const std::string& fragment)
{
    for (const auto& n : d.notes)
        if (n.find(fragment) != std::string::npos) return true;
    return false;
}

std::string allNotes(const Dataset& d)
{
    std::string s;
    for (const auto& n : d.notes) s += n + "\n";
    return s;
}

}  // namespace

TEST_CASE("rowsAreZscoredLogReturns")
{
    test::TempDir dir;
    const std::string path = test::writeFile(dir, "p.csv",
                                             "Date,AAA,BBB,CCC\n"
                                             "2024-01-02,100,50,10\n"
                                             "2024-01-03,101,49,10.5\n"
                                             "2024-01-04,103,51,10.2\n"
                                             "2024-01-05,102,52,10.9\n"
                                             "2024-01-08,104,50.5,11\n");
    const Dataset d = loadUnscaled(path);
    REQUIRE_EQ(toString(d.layout), toString(Layout::Prices));
    REQUIRE_EQ(d.rows, std::int64_t{3});
    REQUIRE_EQ(d.cols, std::int64_t{4});
    REQUIRE_EQ(d.rowNames, (std::vector<std::string>{"AAA", "BBB", "CCC"}));
    REQUIRE_EQ(d.colNames, (std::vector<std::string>{"2024-01-03", "2024-01-04", "2024-01-05", "2024-01-08"}));
    const std::vector<std::vector<double>> prices{
        {100, 101, 103, 102, 104}, {50, 49, 51, 52, 50.5}, {10, 10.5, 10.2, 10.9, 11}};
    for (int a = 0; a < 3; ++a) {
        const auto expected = zscoredReturns(prices[a]);
        for (int j = 0; j < 4; ++j) REQUIRE(std::fabs(d.row(a)[j] - expected[j]) < 1e-5);
    }
    REQUIRE(d.truth.empty());
}

// By default every day weighs alike: each asset's returns in units of its volatility,
// each day divided by their root mean square across the assets, then every row z-scored.
// Checked against that computed here from the unscaled rows (z + mean / sd is the return
// over its deviation), on a file whose fourth day is a crash many times the others'
// dispersion and whose last day nothing moved (a holiday filled forward).
TEST_CASE("daysScaledToUnitDispersion")
{
    test::TempDir dir;
    const std::string path = test::writeFile(dir, "p.csv",
                                             "Date,AAA,BBB,CCC,DDD\n"
                                             "2024-01-02,100,50,10,20\n"
                                             "2024-01-03,101,49,10.5,20.2\n"
                                             "2024-01-04,103,51,10.2,20.1\n"
                                             "2024-01-05,80,40,8,16\n"
                                             "2024-01-08,81,41,8.2,16.1\n"
                                             "2024-01-09,80.5,41.5,8.1,16.3\n"
                                             "2024-01-10,80.5,41.5,8.1,16.3\n");
    const Dataset scaled = loadDataset(path);  // sniffed from the Date header
    const Dataset plain = loadUnscaled(path);
    REQUIRE_EQ(scaled.rows, plain.rows);
    REQUIRE_EQ(scaled.cols, plain.cols);
    REQUIRE_MESSAGE(hasNote(scaled, "each period scaled to unit dispersion across assets"), allNotes(scaled).c_str());
    std::vector<std::vector<double>> u(static_cast<std::size_t>(plain.rows));
    for (std::int64_t a = 0; a < plain.rows; ++a)
        for (std::int64_t j = 0; j < plain.cols; ++j) u[a].push_back(plain.row(a)[j] + plain.returnMean[a] / plain.returnStd[a]);
    std::vector<double> rms(static_cast<std::size_t>(plain.cols), 0.0);
    for (std::int64_t a = 0; a < plain.rows; ++a)
        for (std::int64_t j = 0; j < plain.cols; ++j) rms[j] += u[a][j] * u[a][j] / double(plain.rows);
    const std::int64_t quiet = plain.cols - 1;
    CHECK(rms[quiet] < 1e-10);  // nothing moved: nothing to scale
    for (std::int64_t a = 0; a < plain.rows; ++a) {
        for (std::int64_t j = 0; j < plain.cols; ++j) u[a][j] = rms[j] > 1e-10 ? u[a][j] / std::sqrt(rms[j]) : 0.0;
        double mean = 0, var = 0;
        for (double x : u[a]) mean += x / double(u[a].size());
        for (double x : u[a]) var += (x - mean) * (x - mean) / double(u[a].size());
        for (std::int64_t j = 0; j < plain.cols; ++j)
            REQUIRE_MESSAGE(std::fabs(scaled.row(a)[j] - (u[a][j] - mean) / std::sqrt(var)) < 1e-4,
                            test::format("asset %lld day %lld: %g", static_cast<long long>(a), static_cast<long long>(j), scaled.row(a)[j]).c_str());
        // The quiet day stays as quiet as the other days' mean: it is not blown up to a
        // day's worth of dispersion.
        CHECK(std::fabs(scaled.row(a)[quiet]) < 0.5);
    }
    // And it changed them: the crash had set every row's scale.
    double moved = 0;
    for (std::size_t i = 0; i < plain.values.size(); ++i) moved = std::max(moved, double(std::fabs(scaled.values[i] - plain.values[i])));
    CHECK(moved > 0.1);
}

TEST_CASE("forwardFillAndDrop")
{
    test::TempDir dir;
    // AAA misses two prices (filled, 75% present); BBB has 3 of 8 (dropped at minHistory 0.7).
    const std::string path = test::writeFile(dir, "p.csv",
                                             "date,AAA,BBB,CCC\n"
                                             "2024-01-01,10,NA,20\n"
                                             "2024-01-02,11,,21\n"
                                             "2024-01-03,,null,22\n"
                                             "2024-01-04,NaN,5,21\n"
                                             "2024-01-05,12,6,23\n"
                                             "2024-01-06,13,7,22\n"
                                             "2024-01-07,12,N/A,24\n"
                                             "2024-01-08,14,#N/A,25\n");
    const Dataset d = loadUnscaled(path, {{"min_history", "0.7"}});
    REQUIRE_EQ(d.rowNames, (std::vector<std::string>{"AAA", "CCC"}));
    REQUIRE_EQ(d.cols, std::int64_t{7});
    REQUIRE_MESSAGE(hasNote(d, "forward-filled 2"), allNotes(d).c_str());
    REQUIRE_MESSAGE(hasNote(d, "read as missing prices: empty cells x2, '#N/A' x1, 'N/A' x1, 'NA' x1, 'NaN' x1, 'null' x1"), allNotes(d).c_str());
    REQUIRE_MESSAGE((hasNote(d, "dropped 1 of 3 assets") && hasNote(d, "less than 70% of prices present: BBB (38%)")), allNotes(d).c_str());
    const auto expected = zscoredReturns({10, 11, 11, 11, 12, 13, 12, 14});
    for (int j = 0; j < 7; ++j) REQUIRE(std::fabs(d.row(0)[j] - expected[j]) < 1e-5);
}

TEST_CASE("longGapsDropPeriods")
{
    test::TempDir dir;
    const std::string path =
        test::writeFile(dir, "p.csv",
                        "date,A,B\n"
                        "2024-01-01,1,2\n2024-01-02,1.1,2.1\n2024-01-03,,2.2\n2024-01-04,,2.3\n"
                        "2024-01-05,,2.2\n2024-01-06,1.3,2.4\n2024-01-07,1.2,2.5\n");
    LoadOptions options;
    options.maxForwardFill = 2;
    options.minHistory = 0.5;
    const Dataset d = loadPrices(path, options);
    REQUIRE_EQ(d.rows, std::int64_t{2});
    REQUIRE_EQ(d.cols, std::int64_t{5});  // 2024-01-05 dropped: A's third missing price is not filled
    REQUIRE_MESSAGE(hasNote(d, "dropped 1 of 7 periods"), allNotes(d).c_str());
    REQUIRE_EQ(d.colNames.front(), std::string("2024-01-02"));
    REQUIRE_EQ(d.colNames[3], std::string("2024-01-06"));
}

TEST_CASE("returnWindow")
{
    test::TempDir dir;
    const std::string path = test::writeFile(dir, "p.csv",
                                             "date,A,B\n2024-01-01,1,2\n2024-01-02,1.1,2.1\n2024-01-03,1.2,2.2\n"
                                             "2024-01-04,1.1,2.3\n2024-01-05,1.3,2.2\n");
    LoadOptions options;
    options.returnWindow = 2;
    const Dataset d = loadPrices(path, options);
    REQUIRE_EQ(d.cols, std::int64_t{2});
    REQUIRE_EQ(d.colNames, (std::vector<std::string>{"2024-01-04", "2024-01-05"}));
    options.returnWindow = 5;
    REQUIRE_THROWS_AS(loadPrices(path, options), UsageError);
    options.returnWindow = -1;
    REQUIRE_THROWS_AS(loadPrices(path, options), UsageError);
}

TEST_CASE("constantAssetBecomesZeroRow")
{
    test::TempDir dir;
    const std::string path = test::writeFile(
        dir, "p.csv", "date,A,B\n2024-01-01,1,5\n2024-01-02,1.1,5\n2024-01-03,1.2,5\n2024-01-04,1,5\n");
    const Dataset d = loadPrices(path);
    for (int j = 0; j < d.cols; ++j) REQUIRE_EQ(d.row(1)[j], 0.0f);
    REQUIRE(hasNote(d, "constant returns"));
}

TEST_CASE("dateFormats")
{
    test::TempDir dir;
    const std::string path =
        test::writeFile(dir, "p.csv", "when;A;B\n2024-01-02 16:00;1;2\n2024-01-02T16:30:00;1,5;2\n");
    // Semicolon-delimited with a decimal comma is not a number: the error says where.
    CD_EXPECT_DATA_ERROR(loadPrices(path), path, 3, 21, "not a price: '1,5'");
    const std::string ok = test::writeFile(dir, "ok.csv",
                                           "when\tA\tB\n2024-01-02 16:00\t1\t2\n"
                                           "2024-01-02T16:30:00Z\t1.5\t2.2\n2024-01-03\t1.4\t2.1\n");
    REQUIRE_EQ(toString(sniffLayout(ok)), toString(Layout::Prices));
    REQUIRE_EQ(loadDataset(ok).cols, std::int64_t{2});
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
    const std::string head = "date,A,B\n2024-01-01,1,2\n2024-01-02,1.1,2.1\n";
    rows.push_back({"empty", std::string(), 1, 1, "empty file"});
    rows.push_back({"header only", std::string("date,A,B\n"), 2, 1, "no price rows"});
    rows.push_back({"no header", std::string("2024-01-01,1,2\n2024-01-02,1,2\n"), 1, 1, "needs a header"});
    rows.push_back({"no assets", std::string("date\n2024-01-01\n"), 1, 5, "no asset columns"});
    rows.push_back({"duplicate asset", std::string("date,A,B,A\n2024-01-01,1,2,3\n"), 1, 10, "field 4: duplicate asset 'A' (also field 2 of the header)"});
    rows.push_back({"field 3: empty asset name", std::string("date,A,,B\n"), 1, 8, "field 3: empty asset name"});
    rows.push_back({"zero price", head + "2024-01-03,0,2\n", 4, 12, "field 2 (A): price must be positive: '0'"});
    rows.push_back({"negative price", head + "2024-01-03,1,-2\n", 4, 14, "field 3 (B): price must be positive: '-2'"});
    rows.push_back({"text price", head + "2024-01-03,abc,2\n", 4, 12, "field 2 (A): not a price: 'abc'"});
    rows.push_back({"subnormal price", head + "2024-01-03,1e-310,2\n", 4, 12, "field 2 (A): price too small"});
    rows.push_back({"5e-324 beside 1e300", head + "2024-01-03,1e300,5e-324\n", 4, 18, "price too small"});
    // Both prices are normal doubles, their ratio is not: the later price is named.
    rows.push_back({"log return beyond double range", std::string("date,A,B\n2024-01-01,1e300,2\n2024-01-02,1e-300,2.1\n2024-01-03,1,2.2\n"), 3, 12, "the log return of 'A' at 2024-01-02 is not finite"});
    rows.push_back({"infinite price", head + "2024-01-03,1,inf\n", 4, 14, "field 3 (B): not a finite price: 'inf'"});
    rows.push_back({"bad date", head + "2024-02-30,1,2\n", 4, 1, "field 1 (date): not a date"});
    rows.push_back({"dates go back", head + "2024-01-02,1,2\n", 4, 1, "field 1 (date): dates must increase"});
    rows.push_back({"ragged", head + "2024-01-03,1\n", 4, 13, "expected 3 fields"});
    rows.push_back({"too many fields", head + "2024-01-03,1,2,3\n", 4, 16, "expected 3 fields"});
    rows.push_back({"invalid utf-8", head + "2024-01-03,1,\xC3\x28\n", 4, 14, "invalid UTF-8"});
    rows.push_back({"all assets dropped", std::string("date,A\n2024-01-01,\n2024-01-02,\n2024-01-03,1\n"), 0, 0, "no asset has enough price history"});
    rows.push_back({"too short", std::string("date,A\n2024-01-01,1\n2024-01-02,2\n"), 0, 0, "too few periods"});
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
            CD_EXPECT_DATA_ERROR(loadPrices(path), path, line, column, fragment);
        }
    }
}
