#include "engine/data/load.h"

#include "data_test_support.h"

#include "doctest_support.h"
#include "temp_dir.h"

#include <cstdint>
#include <string>
#include <vector>

#include <cstring>
#include <limits>

using namespace clusterdesk;

namespace {

// A .npy file as NumPy writes it: magic, version, header length, dict padded with spaces
// to a multiple of 64 and ended by '\n', then the data.
std::string npy(const std::string& dict, const std::string& data, int major = 1)
{
    const std::size_t lengthBytes = major == 1 ? 2 : 4;
    std::string header = dict;
    while ((6 + 2 + lengthBytes + header.size() + 1) % 64 != 0) header += ' ';
    header += '\n';
    std::string out("\x93NUMPY", 6);
    out += static_cast<char>(major);
    out += '\0';
    for (std::size_t i = 0; i < lengthBytes; ++i) out += static_cast<char>((header.size() >> (8 * i)) & 0xFF);
    return out + header + data;
}

template <typename T>
std::string bytesOf(const std::vector<T>& values)
{
    return std::string(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(T));
}

std::string dict(const std::string& descr, bool fortran, const std::string& shape)
{
    return "{'descr': '" + descr + "', 'fortran_order': " + (fortran ? "True" : "False") + ", 'shape': " + shape +
           ", }";
}

// Offset of the data in a version-1 file made by npy() with a short dict: 64 or 128.
std::size_t dataOffset(const std::string& file, const std::string& data)
{
    return file.size() - data.size();
}

}  // namespace

namespace {

struct GoodFilesRow {
    std::string tag;
    std::string bytes;
    int rows;
    int cols;
};

std::vector<GoodFilesRow> goodFilesRows()
{
    std::vector<GoodFilesRow> rows;
    // Every case holds the matrix [[1, 2, 3], [4, 5, 6]] (or a column of 1..6).
    const std::vector<float> c4{1, 2, 3, 4, 5, 6};
    const std::vector<double> c8{1, 2, 3, 4, 5, 6};
    const std::vector<float> f4{1, 4, 2, 5, 3, 6};
    const std::vector<double> f8{1, 4, 2, 5, 3, 6};
    auto qb = [](const std::string& s) { return std::string(s.data(), static_cast<std::ptrdiff_t>(s.size())); };
    rows.push_back({"f4 C", qb(npy(dict("<f4", false, "(2, 3)"), bytesOf(c4))), 2, 3});
    rows.push_back({"f8 C", qb(npy(dict("<f8", false, "(2, 3)"), bytesOf(c8))), 2, 3});
    rows.push_back({"f4 Fortran", qb(npy(dict("<f4", true, "(2, 3)"), bytesOf(f4))), 2, 3});
    rows.push_back({"f8 Fortran", qb(npy(dict("<f8", true, "(2, 3)"), bytesOf(f8))), 2, 3});
    rows.push_back({"1-D", qb(npy(dict("<f4", false, "(6,)"), bytesOf(c4))), 6, 1});
    rows.push_back({"version 2", qb(npy(dict("<f4", false, "(2, 3)"), bytesOf(c4), 2)), 2, 3});
    rows.push_back({"version 3", qb(npy(dict("<f8", false, "(2, 3)"), bytesOf(c8), 3)), 2, 3});
    // Integers and the other byte order, converted to float32.
    rows.push_back({"i8 C", qb(npy(dict("<i8", false, "(2, 3)"), bytesOf(std::vector<std::int64_t>{1, 2, 3, 4, 5, 6}))), 2, 3});
    rows.push_back({"i4 Fortran", qb(npy(dict("<i4", true, "(2, 3)"), bytesOf(std::vector<std::int32_t>{1, 4, 2, 5, 3, 6}))), 2, 3});
    rows.push_back({"u1", qb(npy(dict("|u1", false, "(2, 3)"), bytesOf(std::vector<std::uint8_t>{1, 2, 3, 4, 5, 6}))), 2, 3});
    rows.push_back({"u2", qb(npy(dict("<u2", false, "(2, 3)"), bytesOf(std::vector<std::uint16_t>{1, 2, 3, 4, 5, 6}))), 2, 3});
    rows.push_back({"big-endian i2", qb(npy(dict(">i2", false, "(2, 3)"), std::string("\0\1\0\2\0\3\0\4\0\5\0\6", 12))), 2, 3});
    rows.push_back({"big-endian f4", qb(npy(dict(">f4", false, "(2, 3)"), std::string("\x3f\x80\0\0\x40\0\0\0\x40\x40\0\0\x40\x80\0\0\x40\xa0\0\0\x40\xc0\0\0", 24))), 2, 3});
    rows.push_back({"keys reordered, double quotes", qb(npy("{\"shape\": (2,3), \"fortran_order\": False, \"descr\": \"<f4\"}", bytesOf(c4))), 2, 3});
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
            test::TempDir dir;
            const std::string path = test::writeFile(dir, "m.npy", bytes);
            REQUIRE_EQ(toString(sniffLayout(path)), toString(Layout::Matrix));
            const Dataset d = loadDataset(path);
            REQUIRE_EQ(d.rows, std::int64_t(rows));
            REQUIRE_EQ(d.cols, std::int64_t(cols));
            REQUIRE_EQ(d.values, (std::vector<float>{1, 2, 3, 4, 5, 6}));
            REQUIRE_EQ(toString(d.layout), toString(Layout::Matrix));
            REQUIRE_EQ(d.source, path);
        }
    }
}

TEST_CASE("integersKeepTheirSignAndSayWhatFloat32Rounds")
{
    test::TempDir dir;
    // 2^25 and -2^33 are exact in float32; 2^24 + 1, -9e9 and 2^60 + 1 (beyond a double's
    // 2^53 too) are not.
    const std::vector<std::int64_t> values{-3, 16777216, 16777217, -9000000000, 33554432, -8589934592, (1LL << 60) + 1};
    const Dataset d = loadDataset(test::writeFile(dir, "i.npy", npy(dict("<i8", false, "(7,)"), bytesOf(values))));
    REQUIRE_EQ(d.values, (std::vector<float>{-3.f, 16777216.f, 16777216.f, -9e9f, 33554432.f, -8589934592.f, 1152921504606846976.f}));
    const std::string notes = test::join(d.notes, '|');
    CHECK_MESSAGE(notes.find("<i8, C order, converted to float32") != std::string::npos, notes);
    CHECK_MESSAGE(notes.find("3 integers beyond +-16777216 (2^24) rounded to the nearest float32") != std::string::npos, notes);

    // Narrower signed types, either byte order: the sign comes from the type's own top bit.
    const Dataset i1 = loadDataset(test::writeFile(dir, "i1.npy", npy(dict("|i1", false, "(3,)"), std::string("\xff\x80\x7f", 3))));
    CHECK_EQ(i1.values, (std::vector<float>{-1.f, -128.f, 127.f}));
    const Dataset i2 = loadDataset(test::writeFile(dir, "i2.npy", npy(dict("<i2", false, "(2,)"), std::string("\xff\xff\x00\x80", 4))));
    CHECK_EQ(i2.values, (std::vector<float>{-1.f, -32768.f}));
    const Dataset i4 = loadDataset(test::writeFile(dir, "i4.npy", npy(dict(">i4", false, "(2,)"), std::string("\xff\xff\xff\xfe\x80\x00\x00\x00", 8))));
    CHECK_EQ(i4.values, (std::vector<float>{-2.f, -2147483648.f}));
    const Dataset u1 = loadDataset(test::writeFile(dir, "u1.npy", npy(dict("|u1", false, "(1,)"), std::string("\xff", 1))));
    CHECK_EQ(u1.values, (std::vector<float>{255.f}));
}

TEST_CASE("sameHashAsCsv")
{
    test::TempDir dir;
    const std::vector<float> v{1.5f, -2, 3, 4};
    const Dataset a = loadDataset(test::writeFile(dir, "a.npy", npy(dict("<f4", false, "(2, 2)"), bytesOf(v))));
    const Dataset b = loadDataset(test::writeFile(dir, "b.csv", "1.5,-2\n3,4\n"));
    REQUIRE_EQ(a.contentHash(), b.contentHash());
}

TEST_CASE("knownHash")
{
    // Over a million values, so the loader reads and hashes several chunks; the digest
    // it keeps is contentHash() computed afresh from the values, and Fortran order (not
    // hashed while loading) gives the same digest for the same numbers.
    constexpr int rows = 300'001;
    constexpr int cols = 4;
    std::vector<float> c(rows * cols);
    std::vector<float> f(rows * cols);
    for (int i = 0; i < rows; ++i)
        for (int j = 0; j < cols; ++j) {
            c[static_cast<std::size_t>(i * cols + j)] = static_cast<float>(i) * 0.25f - static_cast<float>(j);
            f[static_cast<std::size_t>(j * rows + i)] = c[static_cast<std::size_t>(i * cols + j)];
        }
    test::TempDir dir;
    const std::string shape = "(" + std::to_string(rows) + ", " + std::to_string(cols) + ")";
    const Dataset inC = loadDataset(test::writeFile(dir, "c.npy", npy(dict("<f4", false, shape), bytesOf(c))));
    const Dataset inFortran = loadDataset(test::writeFile(dir, "f.npy", npy(dict("<f4", true, shape), bytesOf(f))));
    REQUIRE_EQ(inC.values, c);
    REQUIRE_FALSE(inC.knownHash.empty());
    REQUIRE(inFortran.knownHash.empty());
    Dataset afresh = inC;
    afresh.knownHash.clear();
    CHECK_EQ(inC.contentHash(), afresh.contentHash());
    CHECK_EQ(inFortran.contentHash(), afresh.contentHash());
}

TEST_CASE("notAsPrices")
{
    test::TempDir dir;
    const std::vector<float> v{1, 2};
    const std::string path = test::writeFile(dir, "a.npy", npy(dict("<f4", false, "(2,)"), bytesOf(v)));
    LoadOptions options;
    options.layout = Layout::Prices;
    REQUIRE_THROWS_AS(loadDataset(path, options), UsageError);
}

namespace {

struct BadInputRow {
    std::string tag;
    std::string bytes;
    int column;
    std::string fragment;
};

std::vector<BadInputRow> badInputRows()
{
    std::vector<BadInputRow> rows;
    auto qb = [](const std::string& s) { return std::string(s.data(), static_cast<std::ptrdiff_t>(s.size())); };
    const std::vector<float> six{1, 2, 3, 4, 5, 6};
    const std::string data = bytesOf(six);
    const std::string good = npy(dict("<f4", false, "(2, 3)"), data);
    const int offset = static_cast<int>(dataOffset(good, data));

    rows.push_back({"empty", std::string(), 1, "magic string is incomplete"});
    rows.push_back({"bad magic", qb("\x93NUMPX" + good.substr(6)), 6, "bad magic"});
    rows.push_back({"csv named .npy", std::string("1,2\n3,4\n"), 1, "bad magic"});
    rows.push_back({"truncated magic", std::string("\x93NUM"), 5, "magic string is incomplete"});
    rows.push_back({"no version", std::string("\x93NUMPY"), 7, "no format version"});
    rows.push_back({"version 4", qb(std::string("\x93NUMPY\x04\x00", 8) + good.substr(8)), 7, "version 4"});
    rows.push_back({"truncated header length", qb(good.substr(0, 9)), 10, "header length"});
    rows.push_back({"header longer than file", qb(good.substr(0, 40)), 41, "truncated .npy file"});
    rows.push_back({"truncated data", qb(good.substr(0, good.size() - 3)), static_cast<int>(good.size()) - 2, "truncated .npy file: shape (2, 3)"});
    rows.push_back({"extra bytes", qb(good + "xyz"), static_cast<int>(good.size()) + 1, "3 extra bytes"});
    const std::string lies = npy(dict("<f4", false, "(1000000000000000, 4)"), data);
    rows.push_back({"shape lies, 10^15 rows", qb(lies), static_cast<int>(lies.size()) + 1, "needs more than the 24 data bytes"});
    const std::string overflow = npy(dict("<f8", false, "(4294967296, 4294967296)"), data);
    rows.push_back({"shape overflows", qb(overflow), static_cast<int>(overflow.size()) + 1, "truncated"});
    // Column of the first byte of needle in file (1-based).
    auto at = [](const std::string& file, const std::string& needle) {
        return static_cast<int>(file.find(needle)) + 1;
    };
    const std::string huge = npy(dict("<f4", false, "(99999999999999999999999,)"), data);
    rows.push_back({"huge dimension", qb(huge), at(huge, "999"), "too large"});
    for (const std::string descr : {"<c8", "|b1", "<f2", "<U1", "|i4", "<i3", "<M8"}) {
        const std::string file = npy(dict(descr, false, "(2, 3)"), data);
        rows.push_back({"dtype " + descr, qb(file), at(file, descr), "unsupported dtype '" + descr + "': float32, float64 and integer"});
    }
    const std::string d3 = npy(dict("<f4", false, "(1, 2, 3)"), data);
    rows.push_back({"3-D", qb(d3), at(d3, "shape"), "1-D or 2-D"});
    const std::string d0 = npy(dict("<f4", false, "()"), data.substr(0, 4));
    rows.push_back({"0-D", qb(d0), at(d0, "shape"), "1-D or 2-D"});
    const std::string empty = npy(dict("<f4", false, "(0, 3)"), "");
    rows.push_back({"empty array", qb(empty), at(empty, "shape"), "empty array"});
    const std::string maybe = npy("{'descr': '<f4', 'fortran_order': maybe, 'shape': (2, 3), }", data);
    rows.push_back({"bad fortran_order", qb(maybe), at(maybe, "maybe"), "fortran_order"});
    const std::string key = npy("{'descr': '<f4', 'fortran_order': False, 'shape': (6,), 'x': 1}", data);
    rows.push_back({"unknown key", qb(key), at(key, "'x'"), "unexpected key 'x'"});
    rows.push_back({"missing shape", qb(npy("{'descr': '<f4', 'fortran_order': False}", data)), 11, "lacks 'shape'"});
    rows.push_back({"garbage header", qb(npy("hello", data)), 11, "expected '{'"});
    rows.push_back({"unterminated string", qb(npy("{'descr: ", data)), 12, "unterminated string"});
    std::vector<float> nan = six;
    nan[4] = std::numeric_limits<float>::quiet_NaN();
    rows.push_back({"nan value", qb(npy(dict("<f4", false, "(2, 3)"), bytesOf(nan))), offset + 16 + 1, "not a finite number at row 2, column 2"});
    std::vector<double> inf{1, 2, 3, 4, 5, std::numeric_limits<double>::infinity()};
    rows.push_back({"inf value f8", qb(npy(dict("<f8", false, "(2, 3)"), bytesOf(inf))), offset + 40 + 1, "not a finite number at row 2, column 3"});
    std::vector<float> large = six;  // a float32, but its squared distances are not
    large[1] = 1e20f;
    rows.push_back({"square overflows", qb(npy(dict("<f4", false, "(2, 3)"), bytesOf(large))), offset + 4 + 1, "value too large at row 1, column 2: values above 9.13e+17 in 3 columns"});
    std::vector<double> big{1, 2, 1e300, 4, 5, 6};
    rows.push_back({"f8 beyond float32 (Fortran)", qb(npy(dict("<f8", true, "(2, 3)"), bytesOf(big))), offset + 16 + 1, "value too large at row 1, column 2: values above"});
    return rows;
}

}  // namespace

TEST_CASE("badInput")
{
    for (const BadInputRow& row : badInputRows()) {
        SUBCASE(row.tag.c_str())
        {
            const std::string& bytes = row.bytes;
            const int& column = row.column;
            const std::string& fragment = row.fragment;
            test::TempDir dir;
            const std::string path = test::writeFile(dir, "bad.npy", bytes);
            CD_EXPECT_DATA_ERROR(loadDataset(path), path, 1, column, fragment);
        }
    }
}
