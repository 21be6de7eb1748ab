#include "engine/data/load.h"

#include "data_test_support.h"

#include "doctest_support.h"
#include "temp_dir.h"

#include <cstdint>
#include <string>

#include <sys/stat.h>
#include <vector>

using namespace clusterdesk;

namespace {

struct SniffingRow {
    std::string tag;
    std::string bytes;
    int layout;
};

std::vector<SniffingRow> sniffingRows()
{
    std::vector<SniffingRow> rows;
    rows.push_back({"plain matrix", std::string("1,2\n3,4\n"), int(Layout::Matrix)});
    rows.push_back({"matrix with header", std::string("x,y\n1,2\n"), int(Layout::Matrix)});
    rows.push_back({"matrix with ids", std::string("id,x\na,1\n"), int(Layout::Matrix)});
    rows.push_back({"prices, date header", std::string("Date,A,B\n2024-01-02,1,2\n"), int(Layout::Prices)});
    rows.push_back({"prices, time header tsv", std::string("time\tA\n2024-01-02\t1\n"), int(Layout::Prices)});
    rows.push_back({"prices, ISO first column", std::string("when,A,B\n2024-01-02,1,2\n"), int(Layout::Prices)});
    rows.push_back({"ticks", std::string("symbol,price,timestamp\nA,1,0\n"), int(Layout::Ticks)});
    rows.push_back({"ticks, mixed case, extra", std::string("TimeStamp,Symbol,Price,Size,venue\n"), int(Layout::Ticks)});
    rows.push_back({"npy magic", std::string("\x93NUMPY\x01\x00", 8), int(Layout::Matrix)});
    rows.push_back({"blank lines first", std::string("\n\ndate,A\n"), int(Layout::Prices)});
    return rows;
}

}  // namespace

TEST_CASE("sniffing")
{
    for (const SniffingRow& row : sniffingRows()) {
        SUBCASE(row.tag.c_str())
        {
            const std::string& bytes = row.bytes;
            const int& layout = row.layout;
            test::TempDir dir;
            const std::string path = test::writeFile(dir, "f.dat", bytes);
            REQUIRE_EQ(int(sniffLayout(path)), layout);
        }
    }
}

TEST_CASE("sniffingBadFiles")
{
    test::TempDir dir;
    const std::string empty = test::writeFile(dir, "empty.csv", "");
    CD_EXPECT_DATA_ERROR(sniffLayout(empty), empty, 1, 1, "empty file");
    const std::string blank = test::writeFile(dir, "blank.csv", "\n\n  \n");
    CD_EXPECT_DATA_ERROR(sniffLayout(blank), blank, 4, 1, "only blank lines");
    const std::string binary = test::writeFile(dir, "bin.csv", std::string("ab\xff", 3));
    CD_EXPECT_DATA_ERROR(sniffLayout(binary), binary, 1, 3, "invalid UTF-8");
    CD_EXPECT_DATA_ERROR(sniffLayout("/no/such/file.csv"), "/no/such/file.csv", 0, 0, "cannot open");
    const std::string folder = dir.path();
    CD_EXPECT_DATA_ERROR(sniffLayout(folder), folder, 0, 0, "is not a regular file (a directory)");
    CD_EXPECT_DATA_ERROR(loadDataset(folder), folder, 0, 0, "is not a regular file (a directory)");
}

namespace {

struct NonRegularFilesAreRefusedRow {
    std::string tag;
    int layout;
};

std::vector<NonRegularFilesAreRefusedRow> nonRegularFilesAreRefusedRows()
{
    std::vector<NonRegularFilesAreRefusedRow> rows;
    rows.push_back({"sniffed", -1});
    rows.push_back({"matrix", int(Layout::Matrix)});
    rows.push_back({"prices", int(Layout::Prices)});
    rows.push_back({"ticks", int(Layout::Ticks)});
    return rows;
}

}  // namespace

// Opening a FIFO blocks until a writer comes and /dev/zero never ends: every layout
// refuses both before opening them (a hang here is a ctest timeout, not a pass).
TEST_CASE("nonRegularFilesAreRefused")
{
    for (const NonRegularFilesAreRefusedRow& row : nonRegularFilesAreRefusedRows()) {
        SUBCASE(row.tag.c_str())
        {
            const int& layout = row.layout;
            LoadOptions options;
            if (layout >= 0) options.layout = static_cast<Layout>(layout);
            test::TempDir dir;
            std::vector<std::string> names{"pipe"};
            if (layout < 0 || layout == int(Layout::Matrix)) names.push_back("pipe.npy");  // the .npy reader's own path
            for (const std::string& name : names) {
                const std::string fifo = dir.filePath(name);
                REQUIRE_EQ(::mkfifo(fifo.c_str(), 0600), 0);
                CD_EXPECT_DATA_ERROR(loadDataset(fifo, options), fifo, 0, 0, "is not a regular file (a FIFO)");
            }
            CD_EXPECT_DATA_ERROR(loadDataset("/dev/zero", options), "/dev/zero", 0, 0,
                                 "is not a regular file (a character device)");
        }
    }
}

TEST_CASE("sniffingCutsALongPrefixAtALineEnd")
{
    // A file bigger than the sniff prefix with a multi-byte character straddling the cut.
    test::TempDir dir;
    std::string text = "x,y\n";
    while (text.size() < (1u << 20) + 4096 - 1) text += "\xC3\xA9,1\n";
    const std::string path = test::writeFile(dir, "big.csv", text);
    REQUIRE_EQ(toString(sniffLayout(path)), toString(Layout::Matrix));
}

TEST_CASE("forcedLayoutOverridesSniffing")
{
    test::TempDir dir;
    // Sniffs as a matrix (no date header) but read as prices on request.
    const std::string path = test::writeFile(dir, "p.csv", "A,B\n1,2\n1.1,2.2\n1.2,2.1\n1.3,2.0\n");
    REQUIRE_EQ(toString(sniffLayout(path)), toString(Layout::Matrix));
    LoadOptions options;
    options.layout = Layout::Prices;
    CD_EXPECT_DATA_ERROR(loadDataset(path, options), path, 2, 1, "not a date");
}

TEST_CASE("optionsAreValidated")
{
    test::TempDir dir;
    const std::string path = test::writeFile(dir, "m.csv", "1,2\n");
    LoadOptions options;
    options.minHistory = 1.5;
    REQUIRE_THROWS_AS(loadDataset(path, options), UsageError);
    options = {};
    options.maxForwardFill = -1;
    REQUIRE_THROWS_AS(loadDataset(path, options), UsageError);
}

// A setting the layout would ignore is refused once the layout is known (here
// sniffed), naming the option, rather than recorded as if it had been used.
TEST_CASE("optionsMustApplyToTheLayout")
{
    test::TempDir dir;
    const std::string matrix = test::writeFile(dir, "m.csv", "1,2\n3,4\n5,6\n");
    const std::string prices =
        test::writeFile(dir, "p.csv", "date,A,B\n2024-01-01,1,2\n2024-01-02,1.1,2.2\n2024-01-03,1.2,2.1\n");
    const std::string ticks = test::writeFile(
        dir, "t.csv", "timestamp,symbol,price\n2024-01-02T09:30:00,A,10\n2024-01-02T09:35:00,A,11\n"
                      "2024-01-02T09:40:00,A,12\n");
    const auto refused = [](const std::string& path, const LoadOptions& options) -> std::string {
        try {
            loadDataset(path, options);
        } catch (const UsageError& e) {
            return e.what();
        }
        return "loaded";
    };
    LoadOptions window;
    window.returnWindow = 1;
    LoadOptions bar;
    bar.barSeconds = 300;
    REQUIRE_MESSAGE(refused(matrix, window).find("--window 1) applies to prices and ticks files; " + matrix +
                                          " holds a matrix") != std::string::npos, refused(matrix, window).c_str());
    REQUIRE_MESSAGE(refused(matrix, bar).find("--bar 300) applies to ticks files") != std::string::npos, refused(matrix, bar).c_str());
    REQUIRE_MESSAGE(refused(prices, bar).find("holds a prices table") != std::string::npos, refused(prices, bar).c_str());
    REQUIRE_EQ(loadDataset(prices, window).cols, std::int64_t{1});
    REQUIRE_EQ(loadDataset(ticks, bar).cols, std::int64_t{2});
    // The default bar size is what every load passes; it must not count as given.
    REQUIRE_EQ(loadDataset(matrix).rows, std::int64_t{3});
}

namespace {

struct ProgressAndCancelRow {
    std::string tag;
    int layout;
};

std::vector<ProgressAndCancelRow> progressAndCancelRows()
{
    std::vector<ProgressAndCancelRow> rows;
    rows.push_back({"matrix", int(Layout::Matrix)});
    rows.push_back({"prices", int(Layout::Prices)});
    rows.push_back({"ticks", int(Layout::Ticks)});
    return rows;
}

}  // namespace

TEST_CASE("progressAndCancel")
{
    for (const ProgressAndCancelRow& row : progressAndCancelRows()) {
        SUBCASE(row.tag.c_str())
        {
            const int& layout = row.layout;
            test::TempDir dir;
            std::string text;
            if (layout == int(Layout::Matrix)) {
                text = "a,b\n";
                for (int i = 0; i < 50000; ++i) text += std::to_string(i) + "," + std::to_string(i % 13) + "\n";
            } else if (layout == int(Layout::Prices)) {
                text = "date,A,B\n";
                for (int i = 0; i < 5000; ++i)
                    text += std::to_string(1700000000 + i * 86400) + "," + std::to_string(100 + i % 7) + "," +
                            std::to_string(50 + i % 5) + "\n";
            } else {
                text = "timestamp,symbol,price\n";
                for (int i = 0; i < 20000; ++i)
                    text += std::to_string(1700000000 + i * 30) + "," + (i % 2 ? "A" : "B") + "," +
                            std::to_string(100 + i % 7) + "\n";
            }
            const std::string path = test::writeFile(dir, "p.csv", text);
            std::vector<double> seen;
            LoadOptions options;
            options.layout = Layout(layout);
            options.progress = [&](double f) {
                seen.push_back(f);
                return true;
            };
            loadDataset(path, options);
            REQUIRE(seen.size() >= 3);
            REQUIRE_EQ(seen.front(), 0.0);
            REQUIRE_EQ(seen.back(), 1.0);
            for (std::size_t i = 1; i < seen.size(); ++i) REQUIRE(seen[i] >= seen[i - 1]);

            int calls = 0;
            options.progress = [&](double) { return ++calls < 2; };
            REQUIRE_THROWS_AS(loadDataset(path, options), Cancelled);
        }
    }
}
