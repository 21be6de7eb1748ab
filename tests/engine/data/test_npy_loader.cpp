#include "engine/data/load.h"

#include "data_test_support.h"

#include <QTest>

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

class TestNpyLoader : public QObject {
    Q_OBJECT

private slots:
    void goodFiles_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<int>("rows");
        QTest::addColumn<int>("cols");
        // Every case holds the matrix [[1, 2, 3], [4, 5, 6]] (or a column of 1..6).
        const std::vector<float> c4{1, 2, 3, 4, 5, 6};
        const std::vector<double> c8{1, 2, 3, 4, 5, 6};
        const std::vector<float> f4{1, 4, 2, 5, 3, 6};
        const std::vector<double> f8{1, 4, 2, 5, 3, 6};
        auto qb = [](const std::string& s) { return QByteArray(s.data(), static_cast<qsizetype>(s.size())); };
        QTest::newRow("f4 C") << qb(npy(dict("<f4", false, "(2, 3)"), bytesOf(c4))) << 2 << 3;
        QTest::newRow("f8 C") << qb(npy(dict("<f8", false, "(2, 3)"), bytesOf(c8))) << 2 << 3;
        QTest::newRow("f4 Fortran") << qb(npy(dict("<f4", true, "(2, 3)"), bytesOf(f4))) << 2 << 3;
        QTest::newRow("f8 Fortran") << qb(npy(dict("<f8", true, "(2, 3)"), bytesOf(f8))) << 2 << 3;
        QTest::newRow("1-D") << qb(npy(dict("<f4", false, "(6,)"), bytesOf(c4))) << 6 << 1;
        QTest::newRow("version 2") << qb(npy(dict("<f4", false, "(2, 3)"), bytesOf(c4), 2)) << 2 << 3;
        QTest::newRow("version 3") << qb(npy(dict("<f8", false, "(2, 3)"), bytesOf(c8), 3)) << 2 << 3;
        QTest::newRow("keys reordered, double quotes")
            << qb(npy("{\"shape\": (2,3), \"fortran_order\": False, \"descr\": \"<f4\"}", bytesOf(c4))) << 2 << 3;
    }

    void goodFiles()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(int, rows);
        QFETCH(int, cols);
        QTemporaryDir dir;
        const std::string path = test::writeFile(dir, "m.npy", bytes.toStdString());
        QCOMPARE(toString(sniffLayout(path)), toString(Layout::Matrix));
        const Dataset d = loadDataset(path);
        QCOMPARE(d.rows, std::int64_t(rows));
        QCOMPARE(d.cols, std::int64_t(cols));
        QCOMPARE(d.values, (std::vector<float>{1, 2, 3, 4, 5, 6}));
        QCOMPARE(toString(d.layout), toString(Layout::Matrix));
        QCOMPARE(d.source, path);
    }

    void sameHashAsCsv()
    {
        QTemporaryDir dir;
        const std::vector<float> v{1.5f, -2, 3, 4};
        const Dataset a = loadDataset(test::writeFile(dir, "a.npy", npy(dict("<f4", false, "(2, 2)"), bytesOf(v))));
        const Dataset b = loadDataset(test::writeFile(dir, "b.csv", "1.5,-2\n3,4\n"));
        QCOMPARE(a.contentHash(), b.contentHash());
    }

    void notAsPrices()
    {
        QTemporaryDir dir;
        const std::vector<float> v{1, 2};
        const std::string path = test::writeFile(dir, "a.npy", npy(dict("<f4", false, "(2,)"), bytesOf(v)));
        LoadOptions options;
        options.layout = Layout::Prices;
        QVERIFY_THROWS_EXCEPTION(UsageError, loadDataset(path, options));
    }

    void badInput_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<int>("column");  // 1-based byte offset; line is always 1
        QTest::addColumn<QString>("fragment");
        auto qb = [](const std::string& s) { return QByteArray(s.data(), static_cast<qsizetype>(s.size())); };
        const std::vector<float> six{1, 2, 3, 4, 5, 6};
        const std::string data = bytesOf(six);
        const std::string good = npy(dict("<f4", false, "(2, 3)"), data);
        const int offset = static_cast<int>(dataOffset(good, data));

        QTest::newRow("empty") << QByteArray() << 1 << "magic string is incomplete";
        QTest::newRow("bad magic") << qb("\x93NUMPX" + good.substr(6)) << 6 << "bad magic";
        QTest::newRow("csv named .npy") << QByteArray("1,2\n3,4\n") << 1 << "bad magic";
        QTest::newRow("truncated magic") << QByteArray("\x93NUM") << 5 << "magic string is incomplete";
        QTest::newRow("no version") << QByteArray("\x93NUMPY") << 7 << "no format version";
        QTest::newRow("version 4") << qb(std::string("\x93NUMPY\x04\x00", 8) + good.substr(8)) << 7 << "version 4";
        QTest::newRow("truncated header length") << qb(good.substr(0, 9)) << 10 << "header length";
        QTest::newRow("header longer than file") << qb(good.substr(0, 40)) << 41 << "truncated .npy file";
        QTest::newRow("truncated data") << qb(good.substr(0, good.size() - 3)) << static_cast<int>(good.size()) - 2
                                        << "truncated .npy file: shape (2, 3)";
        QTest::newRow("extra bytes") << qb(good + "xyz") << static_cast<int>(good.size()) + 1 << "3 extra bytes";
        const std::string lies = npy(dict("<f4", false, "(1000000000000000, 4)"), data);
        QTest::newRow("shape lies, 10^15 rows")
            << qb(lies) << static_cast<int>(lies.size()) + 1 << "needs more than the 24 data bytes";
        const std::string overflow = npy(dict("<f8", false, "(4294967296, 4294967296)"), data);
        QTest::newRow("shape overflows") << qb(overflow) << static_cast<int>(overflow.size()) + 1 << "truncated";
        // Column of the first byte of needle in file (1-based).
        auto at = [](const std::string& file, const std::string& needle) {
            return static_cast<int>(file.find(needle)) + 1;
        };
        const std::string huge = npy(dict("<f4", false, "(99999999999999999999999,)"), data);
        QTest::newRow("huge dimension") << qb(huge) << at(huge, "999") << "too large";
        const std::string i4 = npy(dict("<i4", false, "(2, 3)"), data);
        QTest::newRow("int dtype") << qb(i4) << at(i4, "<i4") << "unsupported dtype '<i4'";
        const std::string be = npy(dict(">f4", false, "(2, 3)"), data);
        QTest::newRow("big-endian") << qb(be) << at(be, ">f4") << "unsupported dtype '>f4'";
        const std::string d3 = npy(dict("<f4", false, "(1, 2, 3)"), data);
        QTest::newRow("3-D") << qb(d3) << at(d3, "shape") << "1-D or 2-D";
        const std::string d0 = npy(dict("<f4", false, "()"), data.substr(0, 4));
        QTest::newRow("0-D") << qb(d0) << at(d0, "shape") << "1-D or 2-D";
        const std::string empty = npy(dict("<f4", false, "(0, 3)"), "");
        QTest::newRow("empty array") << qb(empty) << at(empty, "shape") << "empty array";
        const std::string maybe = npy("{'descr': '<f4', 'fortran_order': maybe, 'shape': (2, 3), }", data);
        QTest::newRow("bad fortran_order") << qb(maybe) << at(maybe, "maybe") << "fortran_order";
        const std::string key = npy("{'descr': '<f4', 'fortran_order': False, 'shape': (6,), 'x': 1}", data);
        QTest::newRow("unknown key") << qb(key) << at(key, "'x'") << "unexpected key 'x'";
        QTest::newRow("missing shape") << qb(npy("{'descr': '<f4', 'fortran_order': False}", data)) << 11
                                       << "lacks 'shape'";
        QTest::newRow("garbage header") << qb(npy("hello", data)) << 11 << "expected '{'";
        QTest::newRow("unterminated string") << qb(npy("{'descr: ", data)) << 12 << "unterminated string";
        std::vector<float> nan = six;
        nan[4] = std::numeric_limits<float>::quiet_NaN();
        QTest::newRow("nan value") << qb(npy(dict("<f4", false, "(2, 3)"), bytesOf(nan))) << offset + 16 + 1
                                   << "not a finite number at row 2, column 2";
        std::vector<double> inf{1, 2, 3, 4, 5, std::numeric_limits<double>::infinity()};
        QTest::newRow("inf value f8") << qb(npy(dict("<f8", false, "(2, 3)"), bytesOf(inf))) << offset + 40 + 1
                                      << "not a finite number at row 2, column 3";
        std::vector<float> large = six;  // a float32, but its squared distances are not
        large[1] = 1e20f;
        QTest::newRow("square overflows") << qb(npy(dict("<f4", false, "(2, 3)"), bytesOf(large))) << offset + 4 + 1
                                          << "value too large at row 1, column 2: values above 9.13e+17 in 3 columns";
        std::vector<double> big{1, 2, 1e300, 4, 5, 6};
        QTest::newRow("f8 beyond float32 (Fortran)") << qb(npy(dict("<f8", true, "(2, 3)"), bytesOf(big)))
                                                     << offset + 16 + 1 << "value too large at row 1, column 2: values above";
    }

    void badInput()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(int, column);
        QFETCH(QString, fragment);
        QTemporaryDir dir;
        const std::string path = test::writeFile(dir, "bad.npy", bytes.toStdString());
        CD_EXPECT_DATA_ERROR(loadDataset(path), path, 1, column, fragment.toStdString());
    }
};

QTEST_APPLESS_MAIN(TestNpyLoader)
#include "test_npy_loader.moc"
