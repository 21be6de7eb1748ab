// Big matrix CSV files (over the 4 MiB head) are read in parallel blocks: the same
// rows, names, truth and hash as the serial reader, and the same errors at the file's
// line and column, wherever in the file and in whichever block they fall.
#include "engine/data/csv_matrix.h"
#include "engine/data/load.h"
#include "engine/data/text_cells.h"

#include "data_test_support.h"

#include "doctest_support.h"
#include "temp_dir.h"

#include <omp.h>

#include <cstdint>
#include <string>
#include <vector>

using namespace clusterdesk;

namespace {

constexpr int kRows = 240000;  // about 7 MiB of text: the head, then two rounds of blocks

Dataset loadMatrix(const std::string& path)
{
    LoadOptions options;
    options.layout = Layout::Matrix;
    return loadDataset(path, options);
}

float valueOf(int row, int col)
{
    return static_cast<float>(row % 1000) * 0.25f - static_cast<float>(col) * 1.5f;
}

// Line i + 2 holds row i (after the header line); every 1000th row is written with
// spaces around its cells and a CR, every 7000th line is followed by a blank line.
// `header` is the first line, `lastName` the last row's name cell.
std::string matrixText(const std::string& header, const std::string& lastName = "r_last")
{
    std::string text = header + "\n";
    char cell[64];
    for (int i = 0; i < kRows; ++i) {
        text += i + 1 == kRows ? lastName : "r" + std::to_string(i);
        const bool spaced = i % 1000 == 999;
        for (int c = 0; c < 3; ++c) {
            std::snprintf(cell, sizeof cell, spaced ? ", %.9g " : ",%.9g", static_cast<double>(valueOf(i, c)));
            text += cell;
        }
        text += "," + std::to_string(i % 5) + (spaced ? "\r\n" : "\n");
        if (i % 7000 == 6999) text += "\n";
    }
    return text;
}

// The 1-based line of row i in matrixText.
int lineOf(int row)
{
    return row + 2 + row / 7000;
}

}  // namespace

TEST_CASE("bigFileRowsEqualTheSerialReader")
{
    test::TempDir dir;
    const Dataset blocks = loadMatrix(test::writeFile(dir, "plain.csv", matrixText("id,x,y,z,label")));
    // A quote in the head sends the file to the serial reader; the header names are not hashed.
    const Dataset serial = loadMatrix(test::writeFile(dir, "quoted.csv", matrixText("id,\"x\",y,z,label")));
    REQUIRE_EQ(blocks.rows, std::int64_t{kRows});
    REQUIRE_EQ(blocks.cols, std::int64_t{3});
    for (int i : {0, 1, 998, 999, 7000, kRows / 2, kRows - 1}) {
        for (int c = 0; c < 3; ++c) REQUIRE_EQ(blocks.row(i)[c], valueOf(i, c));
        REQUIRE_EQ(blocks.truth[i], i % 5);
    }
    REQUIRE_EQ(blocks.rowNames[kRows / 2], "r" + std::to_string(kRows / 2));
    REQUIRE_EQ(blocks.rowNames.back(), "r_last");
    REQUIRE_EQ(blocks.values, serial.values);
    REQUIRE_EQ(blocks.rowNames, serial.rowNames);
    REQUIRE_EQ(blocks.truth, serial.truth);
    REQUIRE_EQ(blocks.contentHash(), serial.contentHash());
    REQUIRE_EQ(blocks.notes, serial.notes);
}

namespace {

// Three numeric cells, as detectColumns finds them in a file without id or truth.
data::MatrixColumns threeNumbers()
{
    data::MatrixColumns columns;
    columns.width = 3;
    columns.features = {0, 1, 2};
    columns.limit = maxFeatureMagnitude(3);
    return columns;
}

// Every spelling of a number the serial reader takes: signs, no digit before or after
// the point, exponents, spaces, a CR (only where a line ends), underflow to zero.
const std::vector<std::string> kSpellings{"+1.5", ".5",   "5.",     "-0",      "1e5",       "1E-3",      "  2 ",
                                          "3\r", "-.25", "+7e+02", "1e-999", "-1e-999", "0.1234567", "12345678.9"};

}  // namespace

TEST_CASE("theFastScanTakesEveryPlainSpellingItself")
{
    // Each spelling in every place of a line, with ',' ';' and tab: the scan takes the
    // line (not the serial reader) and reads what parseDouble reads.
    const data::MatrixColumns columns = threeNumbers();
    for (const char delimiter : {',', ';', '\t'}) {
        for (const std::string& spelling : kSpellings) {
            for (int at = 0; at < 3; ++at) {
                std::string cell = spelling;
                if (at < 2 && cell.back() == '\r') cell.pop_back();
                std::string line;
                for (int c = 0; c < 3; ++c) line += (c == at ? cell : "1") + (c < 2 ? std::string(1, delimiter) : "");
                Dataset out;
                out.cols = 3;
                CAPTURE(line);
                REQUIRE(data::appendPlainRow(line, delimiter, columns, out));
                REQUIRE_EQ(out.rows, std::int64_t{1});
                std::string cellText = cell;
                while (!cellText.empty() && (cellText.back() == ' ' || cellText.back() == '\r')) cellText.pop_back();
                while (!cellText.empty() && cellText.front() == ' ') cellText.erase(0, 1);
                REQUIRE_EQ(out.values[at], static_cast<float>(*data::parseDouble(cellText)));
            }
        }
    }
}

TEST_CASE("theFastScanLeavesEveryOtherLineUntouched")
{
    // Lines the serial reader must judge: the scan refuses them and appends nothing.
    const data::MatrixColumns columns = threeNumbers();
    for (const std::string line : {"1,2", "1,2,3,4", "1,2,3,", "1,,3", "1,+-2,3", "1,3x,3", "1,2 5,3", "1,2,0x10",
                                   "1,nan,3", "1,inf,3", "1,1e30,3", "1,2,.", "1,2,e5", "1;2;3"}) {
        Dataset out;
        out.cols = 3;
        CAPTURE(line);
        REQUIRE_FALSE(data::appendPlainRow(line, ',', columns, out));
        REQUIRE(out.values.empty());
        REQUIRE_EQ(out.rows, std::int64_t{0});
    }
    // A delimiter that could be part of a number: no line is scanned in place. With '.',
    // "1.2.3" is three cells; read as numbers in place it would be 1.2 and 3.
    data::MatrixColumns two = columns;
    two.width = 2;
    two.features = {0, 1};
    Dataset out;
    out.cols = 2;
    REQUIRE_FALSE(data::appendPlainRow("1.2.3", '.', two, out));
    REQUIRE(out.values.empty());
}

TEST_CASE("everySpellingOfANumberReadsAsTheSerialReaderReadsIt")
{
    // The same spellings through a whole file, block reader against serial reader.
    for (const char delimiter : {',', ';', '\t'}) {
        std::string text = std::string("x") + delimiter + "y" + delimiter + "z\n";
        for (int i = 0; i < kRows; ++i) {
            for (int c = 0; c < 3; ++c) {
                std::string cell = kSpellings[(i + c * 5) % kSpellings.size()];
                if (c < 2 && cell.back() == '\r') cell.pop_back();  // a CR only ends a line
                text += cell + (c < 2 ? std::string(1, delimiter) : "\n");
            }
        }
        test::TempDir dir;
        const Dataset blocks = loadMatrix(test::writeFile(dir, "spellings.csv", text));
        std::string quoted = text;
        quoted.replace(0, 1, "\"x\"");
        const Dataset serial = loadMatrix(test::writeFile(dir, "spellings-quoted.csv", quoted));
        REQUIRE_EQ(blocks.rows, std::int64_t{kRows});
        REQUIRE_EQ(blocks.values, serial.values);
        REQUIRE_EQ(blocks.row(0)[0], 1.5f);
        REQUIRE_EQ(blocks.row(10)[0], 0.0f);  // 1e-999
    }
}

TEST_CASE("aQuoteAfterTheHeadFallsBackToTheSerialReader")
{
    test::TempDir dir;
    // A quoted name holding the delimiter and a newline: split at newlines, it would be two bad lines.
    const Dataset d = loadMatrix(test::writeFile(dir, "late-quote.csv", matrixText("id,x,y,z,label", "\"last, a\nname\"")));
    REQUIRE_EQ(d.rows, std::int64_t{kRows});
    REQUIRE_EQ(d.rowNames.back(), "last, a\nname");
    REQUIRE_EQ(d.row(kRows - 1)[2], valueOf(kRows - 1, 2));
}

namespace {

struct DeepError {
    std::string tag;
    int row;            // the row whose line is replaced
    std::string line;   // its new text
    int column;         // expected column
    std::string fragment;
};

}  // namespace

TEST_CASE("errorsDeepInABigFileNameTheirLineAndColumn")
{
    const std::vector<DeepError> cases{
        {"not a number in the first block", 5000, "r5000,1,x2,3,0", 9, "field 3 (y): not a number: 'x2'"},
        {"not a number in a later block", kRows - 10, "rX,1,2,3e,0", 8, "field 4 (z): not a number: '3e'"},
        {"too many fields", kRows / 2, "rY,1,2,3,4,5", 12, "expected 5 fields (as in the header), found 6"},
        {"too few fields", kRows / 3, "rZ,1,2,3", 9, "expected 5 fields (as in the header), found 4"},
        {"empty cell", 100000, "r,1,,3,0", 5, "field 3 (y): empty cell"},
        {"negative label", 150000, "r,1,2,3,-1", 9, "must not be negative"},
        {"too large", 200000, "r,1,2,1e30,0", 7, "'1e30' is too large"},
        {"two signs", 210000, "r,1,+-2,3,0", 5, "not a number: '+-2'"},
        {"a letter after a number", 220000, "r,1,2,3x,0", 7, "not a number: '3x'"},
        {"invalid UTF-8 in a name", 170000, "r\xC3(,1,2,3,0", 2, "invalid UTF-8"},
        {"NUL byte", 60000, std::string("r,1,2\0,3,0", 10), 6, "NUL byte"},
    };
    for (const DeepError& error : cases) {
        SUBCASE(error.tag.c_str())
        {
            std::string text = matrixText("id,x,y,z,label");
            const std::string name = "r" + std::to_string(error.row) + ",";
            const std::size_t at = text.find("\n" + name) + 1;
            const std::size_t end = text.find('\n', at);
            text.replace(at, end - at, error.line);
            test::TempDir dir;
            const std::string path = test::writeFile(dir, "bad.csv", text);
            CD_EXPECT_DATA_ERROR(loadMatrix(path), path, lineOf(error.row), error.column, error.fragment);
        }
    }
}

TEST_CASE("theFirstErrorInTheFileIsTheOneReported")
{
    std::string text = matrixText("id,x,y,z,label");
    for (int row : {kRows - 5, 20000}) {
        const std::size_t at = text.find("\nr" + std::to_string(row) + ",") + 1;
        text.replace(at, text.find('\n', at) - at, "bad" + std::to_string(row) + ",1,2,?,0");
    }
    test::TempDir dir;
    const std::string path = test::writeFile(dir, "two-bad.csv", text);
    CD_EXPECT_DATA_ERROR(loadMatrix(path), path, lineOf(20000), 14, "'?'");
}

TEST_CASE("nonAsciiNamesTakeTheSerialPathLineByLine")
{
    std::string text = "name,x\n";
    for (int i = 0; i < 400000; ++i) text += "caf\xC3\xA9_" + std::to_string(i) + "," + std::to_string(i % 100) + "\n";
    test::TempDir dir;
    const Dataset d = loadMatrix(test::writeFile(dir, "names.csv", text));
    REQUIRE_EQ(d.rows, std::int64_t{400000});
    REQUIRE_EQ(d.rowNames[399999], "caf\xC3\xA9_399999");
    REQUIRE_EQ(d.row(399999)[0], 99.0f);
}

TEST_CASE("aHeadOfBlankLinesIsReadSerially")
{
    // The 4 MiB head holds the header and blank lines only: the data row is beyond it.
    const std::string text = "a,b\n" + std::string((4 << 20) + 10, '\n') + "1,2\n";
    test::TempDir dir;
    const Dataset d = loadMatrix(test::writeFile(dir, "blank-head.csv", text));
    REQUIRE_EQ(d.rows, std::int64_t{1});
    REQUIRE_EQ(d.colNames, std::vector<std::string>{"a", "b"});
    REQUIRE_EQ(d.values, std::vector<float>{1, 2});
}

TEST_CASE("aLineLongerThanARoundIsRefusedAtItsLimit")
{
    // Three-byte characters, so a round's end can fall inside one: one thread reads
    // 4 MiB a round, which ends 1 byte into a character here.
    struct OneThread {
        int before = omp_get_max_threads();
        OneThread() { omp_set_num_threads(1); }
        ~OneThread() { omp_set_num_threads(before); }
    } oneThread;
    std::string text = "a,b\n1,2\n";
    for (int i = 0; i < 2000000; ++i) text += "\xE2\x82\xAC";
    text += "\n3,4\n";
    test::TempDir dir;
    const std::string path = test::writeFile(dir, "long-line.csv", text);
    // The serial reader's message: the column of byte 1 MiB of the line, in characters.
    CD_EXPECT_DATA_ERROR(loadMatrix(path), path, 3, (1 << 20) / 3 + 2, "line longer than 1048576 bytes");
}
