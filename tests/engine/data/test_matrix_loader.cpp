#include "engine/data/load.h"

#include "data_test_support.h"

#include "doctest_support.h"
#include "temp_dir.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

using namespace clusterdesk;

namespace {

Dataset loadMatrix(const std::string& path)
{
    LoadOptions options;
    options.layout = Layout::Matrix;
    return loadDataset(path, options);
}

}  // namespace

namespace {

struct GoodFilesRow {
    std::string tag;
    std::string bytes;
    int rows;
    int cols;
    std::vector<std::string> rowNames;
    std::vector<std::string> colNames;
    std::vector<int> truth;
};

std::vector<GoodFilesRow> goodFilesRows()
{
    std::vector<GoodFilesRow> rows;
    rows.push_back({"no header", std::string("1,2\n3,4\n5,6\n"), 3, 2, std::vector<std::string>{}, std::vector<std::string>{}, std::vector<int>{}});
    rows.push_back({"header", std::string("x,y\n1,2\n3,4\n"), 2, 2, std::vector<std::string>{}, std::vector<std::string>{"x", "y"}, std::vector<int>{}});
    rows.push_back({"id column and header", std::string("id,x,y\na,1,2\nb,3,4\n"), 2, 2, std::vector<std::string>{"a", "b"}, std::vector<std::string>{"x", "y"}, std::vector<int>{}});
    rows.push_back({"numeric ids under an id header", std::string("id,x\n7,1\n8,2\n"), 2, 1, std::vector<std::string>{"7", "8"}, std::vector<std::string>{"x"}, std::vector<int>{}});
    rows.push_back({"pandas empty index header", std::string(",x,y\nr1,1,2\nr2,3,4\n"), 2, 2, std::vector<std::string>{"r1", "r2"}, std::vector<std::string>{"x", "y"}, std::vector<int>{}});
    // A marker of a missing value is an id where the column holds names (Namibia's NA).
    rows.push_back({"NA as a name among names", std::string("country,gdp\nNA,1\nUS,2\n"), 2, 1, std::vector<std::string>{"NA", "US"}, std::vector<std::string>{"gdp"}, std::vector<int>{}});
    rows.push_back({"NA as a name, no header", std::string("NA,1,2\nUS,3,4\n"), 2, 2, std::vector<std::string>{"NA", "US"}, std::vector<std::string>{}, std::vector<int>{}});
    rows.push_back({"NA as the only row's name", std::string("country,gdp\nNA,1\n"), 1, 1, std::vector<std::string>{"NA"}, std::vector<std::string>{"gdp"}, std::vector<int>{}});
    rows.push_back({"an id header keeps its column ids, even a missing one", std::string("name,x\n,1\nb,2\n"), 2, 1, std::vector<std::string>{"", "b"}, std::vector<std::string>{"x"}, std::vector<int>{}});
    rows.push_back({"id column, no header", std::string("a,1,2\nb,3,4\n"), 2, 2, std::vector<std::string>{"a", "b"}, std::vector<std::string>{}, std::vector<int>{}});
    rows.push_back({"header over numbers, text only in first cell", std::string("x,1,2\n5,3,4\n"), 1, 3, std::vector<std::string>{}, std::vector<std::string>{"x", "1", "2"}, std::vector<int>{}});
    rows.push_back({"tsv", std::string("x\ty\n1\t2\n3\t4\n"), 2, 2, std::vector<std::string>{}, std::vector<std::string>{"x", "y"}, std::vector<int>{}});
    rows.push_back({"semicolon", std::string("1;2\n3;4\n"), 2, 2, std::vector<std::string>{}, std::vector<std::string>{}, std::vector<int>{}});
    rows.push_back({"quoted", std::string("\"name, full\",\"x\"\n\"a, b\",\"1.5\"\nc,2\n"), 2, 1, std::vector<std::string>{"a, b", "c"}, std::vector<std::string>{"x"}, std::vector<int>{}});
    rows.push_back({"crlf and blank lines", std::string("x,y\r\n1,2\r\n\r\n3,4\r\n"), 2, 2, std::vector<std::string>{}, std::vector<std::string>{"x", "y"}, std::vector<int>{}});
    rows.push_back({"label column", std::string("x,Label,y\n1,0,2\n3,1,4\n"), 2, 2, std::vector<std::string>{}, std::vector<std::string>{"x", "y"}, std::vector<int>{0, 1}});
    rows.push_back({"truth column and ids", std::string("name,x,TRUTH\na,1,5\nb,2,3\n"), 2, 1, std::vector<std::string>{"a", "b"}, std::vector<std::string>{"x"}, std::vector<int>{5, 3}});
    rows.push_back({"single column", std::string("v\n1\n2\n3\n"), 3, 1, std::vector<std::string>{}, std::vector<std::string>{"v"}, std::vector<int>{}});
    rows.push_back({"no trailing newline", std::string("1,2\n3,4"), 2, 2, std::vector<std::string>{}, std::vector<std::string>{}, std::vector<int>{}});
    return rows;
}

}  // namespace

TEST_CASE("goodFiles")
{
    for (const GoodFilesRow& row : goodFilesRows()) {
        SUBCASE(row.tag.c_str())
        {
            const std::string& bytes = row.bytes;
            const int& rows = row.rows;
            const int& cols = row.cols;
            const std::vector<std::string>& rowNames = row.rowNames;
            const std::vector<std::string>& colNames = row.colNames;
            const std::vector<int>& truth = row.truth;
            test::TempDir dir;
            const std::string path = test::writeFile(dir, "m.csv", bytes);
            const Dataset d = loadDataset(path);  // sniffed: these are all matrices
            REQUIRE_EQ(toString(d.layout), toString(Layout::Matrix));
            REQUIRE_EQ(d.rows, std::int64_t(rows));
            REQUIRE_EQ(d.cols, std::int64_t(cols));
            REQUIRE_EQ(d.values.size(), std::size_t(rows * cols));
            REQUIRE_EQ(d.source, path);
            REQUIRE_EQ(d.rowNames.size(), std::size_t(rowNames.size()));
            for (int i = 0; i < rowNames.size(); ++i) REQUIRE_EQ(d.rowNames[i], rowNames[i]);
            REQUIRE_EQ(d.colNames.size(), std::size_t(colNames.size()));
            for (int i = 0; i < colNames.size(); ++i) REQUIRE_EQ(d.colNames[i], colNames[i]);
            REQUIRE_EQ(d.truth.size(), std::size_t(truth.size()));
            for (int i = 0; i < truth.size(); ++i) REQUIRE_EQ(d.truth[i], truth[i]);
            REQUIRE(!d.notes.empty());
        }
    }
}

TEST_CASE("valuesAreRowMajor")
{
    test::TempDir dir;
    const std::string path = test::writeFile(dir, "m.csv", "a,b,c\n1,2,3\n4,5,6.5\n");
    const Dataset d = loadMatrix(path);
    const std::vector<float> expected{1, 2, 3, 4, 5, 6.5f};
    REQUIRE_EQ(d.values, expected);
}

TEST_CASE("repeatedIdsAreKeptAndSaid")
{
    test::TempDir dir;
    const Dataset d = loadMatrix(test::writeFile(dir, "ids.csv", "id,x\nA,1\nB,2\nA,3\nC,4\nB,5\n"));
    REQUIRE_EQ(d.rows, 5);
    REQUIRE_EQ(d.rowNames, std::vector<std::string>{"A", "B", "A", "C", "B"});
    const auto note = std::find_if(d.notes.begin(), d.notes.end(), [](const std::string& n) { return n.rfind("id column:", 0) == 0; });
    REQUIRE(note != d.notes.end());
    CHECK(note->find("2 rows repeat a name") != std::string::npos);
    CHECK(note->find("'A' on data rows 1 and 3") != std::string::npos);
    const Dataset unique = loadMatrix(test::writeFile(dir, "unique.csv", "id,x\nA,1\nB,2\n"));
    for (const std::string& n : unique.notes) CHECK(n.rfind("id column:", 0) != 0);
}

TEST_CASE("sameNumbersSameHash")
{
    test::TempDir dir;
    const Dataset a = loadMatrix(test::writeFile(dir, "a.csv", "x,y\n1,2\n3,4\n"));
    const Dataset b = loadMatrix(test::writeFile(dir, "b.tsv", "id\tx\ty\np\t1.0\t2\nq\t3\t4e0\n"));
    REQUIRE_EQ(a.contentHash(), b.contentHash());
    const Dataset c = loadMatrix(test::writeFile(dir, "c.csv", "x,y\n1,2\n3,4.0001\n"));
    REQUIRE(a.contentHash() != c.contentHash());
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
    rows.push_back({"empty file", std::string(""), 1, 1, "empty file"});
    rows.push_back({"only blank lines", std::string("\n \r\n\n"), 1, 1, "empty file"});
    rows.push_back({"header only", std::string("a,b\n"), 2, 1, "no data rows"});
    rows.push_back({"too many fields", std::string("1,2\n3,4,5\n"), 2, 5, "expected 2 fields"});
    rows.push_back({"too few fields", std::string("1,2,3\n4,5\n6,7,8\n"), 2, 4, "expected 3 fields"});
    rows.push_back({"ragged after header", std::string("a,b\n1,2\n3\n"), 3, 2, "found 1"});
    rows.push_back({"non-numeric cell", std::string("a,b\n1,2\n3,x\n"), 3, 3, "field 2 (b): not a number: 'x'"});
    rows.push_back({"nan", std::string("1,2\n3,nan\n"), 2, 3, "field 2: not a finite number: 'nan'"});
    rows.push_back({"inf", std::string("1,inf\n"), 1, 3, "not a finite number"});
    rows.push_back({"huge", std::string("1,2\n3,1e39\n"), 2, 3, "'1e39' is too large"});
    // Within float32, but its squared distances are not.
    rows.push_back({"square overflows", std::string("1,2\n3,1e20\n"), 2, 3, "values above 1.12e+18 in 2 columns overflow float32 squared distances"});
    rows.push_back({"empty cell", std::string("1,2\n3,\n"), 2, 3, "field 2: empty cell"});
    rows.push_back({"spaces only cell", std::string("1,2\n3,  \n"), 2, 5, "empty cell"});
    rows.push_back({"invalid utf-8", std::string("a,b\n1,\xff\n"), 2, 3, "invalid UTF-8"});
    rows.push_back({"nul byte", std::string("1,2\n3,\0\n", 8), 2, 3, "NUL byte"});
    rows.push_back({"unterminated quote", std::string("a,b\n1,\"2\n"), 2, 3, "unterminated"});
    rows.push_back({"label not integer", std::string("x,label\n1,0\n2,a\n"), 3, 3, "field 2 (label): ground-truth label must be an integer: 'a'"});
    rows.push_back({"label fractional", std::string("x,label\n1,0.5\n"), 2, 3, "must be an integer"});
    rows.push_back({"label negative", std::string("x,label\n1,0\n2,-1\n"), 3, 3, "must not be negative"});
    rows.push_back({"two truth columns", std::string("x,label,truth\n1,2,3\n"), 1, 9, "field 3 (truth): a second ground-truth column (also field 2 (label))"});
    rows.push_back({"only an id column", std::string("id\na\nb\n"), 2, 1, "not a number"});
    rows.push_back({"names and labels, no features", std::string("id,label\na,1\n"), 1, 9, "no feature"});
    rows.push_back({"multibyte column", std::string("n\xC3\xA4me,x\n\xC3\xA4,1\n\xC3\xB6,z\n"), 3, 3, "not a number"});
    // A gap in the first data row is a gap, not a row name that turns the column into ids.
    rows.push_back({"NA in the first data row", std::string("ret_a,ret_b\nNA,2\n4,5\n"), 2, 1, "field 1 (ret_a): not a number: 'NA'"});
    rows.push_back({"empty first cell of the first data row", std::string("ret_a,ret_b\n,2\n4,5\n"), 2, 1, "field 1 (ret_a): empty cell"});
    rows.push_back({"#N/A in the first data row", std::string("ret_a,ret_b\n #N/A ,2\n4,5\n"), 2, 2, "field 1 (ret_a): not a number: '#N/A'"});
    rows.push_back({"NA in the first row, no header", std::string("NA,1,2\n4,5,6\n"), 1, 1, "field 1: not a number: 'NA'"});
    rows.push_back({"text in later id-less row", std::string("1,2\nb,4\n"), 2, 1, "field 1: not a number: 'b'"});
    std::string longLine("1,2\n");
    longLine += std::string((1 << 20) + 1, '7');
    rows.push_back({"gigantic line", longLine, 2, (1 << 20) + 1, "longer than"});
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
            CD_EXPECT_DATA_ERROR(loadMatrix(path), path, line, column, fragment);
        }
    }
}

TEST_CASE("largeFileLoads")
{
    test::TempDir dir;
    std::string text = "a,b,c,d\n";
    for (int i = 0; i < 20000; ++i) text += std::to_string(i) + ",0.5,-1e-3," + std::to_string(i % 7) + "\n";
    const Dataset d = loadMatrix(test::writeFile(dir, "big.csv", text));
    REQUIRE_EQ(d.rows, std::int64_t{20000});
    REQUIRE_EQ(d.row(19999)[0], 19999.0f);
    REQUIRE_EQ(d.row(19999)[3], float(19999 % 7));
}
