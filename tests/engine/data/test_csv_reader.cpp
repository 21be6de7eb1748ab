#include "engine/data/csv_reader.h"
#include "engine/data/text_cells.h"

#include "data_test_support.h"

#include <QTest>

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

class TestCsvReader : public QObject {
    Q_OBJECT

private slots:
    void delimiterSniffing_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<char>("delimiter");
        QTest::newRow("comma") << "a,b,c\n1,2,3\n" << ',';
        QTest::newRow("tab") << "a\tb\tc\n1\t2\t3\n" << '\t';
        QTest::newRow("semicolon") << "a;b;c\n1;2;3\n" << ';';
        QTest::newRow("comma in quotes, semicolon delimits") << "\"a,b\";c\n\"1,5\";2\n" << ';';
        QTest::newRow("single column") << "a\n1\n" << ',';
    }

    void delimiterSniffing()
    {
        QFETCH(QString, text);
        QFETCH(char, delimiter);
        CsvReader reader("mem.csv", text.toStdString());
        QCOMPARE(reader.delimiter(), delimiter);
    }

    void quotedFieldsAndEscapes()
    {
        CsvReader reader("mem.csv", "name,comment\n\"Smith, J\",\"said \"\"hi\"\"\"\n\"two\nlines\",x\nlast,\"\"\n");
        const Rows rows = readAll(reader);
        QCOMPARE(rows.size(), std::size_t{4});
        QCOMPARE(rows[1][0], std::string("Smith, J"));
        QCOMPARE(rows[1][1], std::string("said \"hi\""));
        QCOMPARE(rows[2][0], std::string("two\nlines"));
        QCOMPARE(rows[3][1], std::string(""));
    }

    void lineAndColumnTracking()
    {
        // BOM skipped, blank lines skipped, CRLF, a multi-line quoted field, UTF-8 columns.
        CsvReader reader("mem.csv",
                         "\xEF\xBB\xBF"
                         "a,b\r\n\r\n  \r\n\"x\ny\",1\r\nh\xC3\xA9llo, 2 \r\n");
        CsvRecord r;
        QVERIFY(reader.next(r));
        QCOMPARE(r.line, std::int64_t{1});
        QCOMPARE(r[1].column, std::int64_t{3});
        QCOMPARE(std::string(r[1].text), std::string("b"));
        QVERIFY(reader.next(r));
        QCOMPARE(r.line, std::int64_t{4});
        QCOMPARE(r[1].line, std::int64_t{5});
        QCOMPARE(r[1].column, std::int64_t{4});
        QVERIFY(reader.next(r));
        QCOMPARE(r.line, std::int64_t{6});
        QCOMPARE(std::string(r[0].text), std::string("h\xC3\xA9llo"));
        QCOMPARE(std::string(r[1].text), std::string("2"));  // trimmed, CR dropped
        QCOMPARE(r[1].column, std::int64_t{8});              // 'é' is one character
        QCOMPARE(r.endColumn, std::int64_t{9});
        QVERIFY(!reader.next(r));
        QCOMPARE(reader.fraction(), 1.0);
    }

    void tabsAreNotTrimmedInTsv()
    {
        CsvReader reader("mem.tsv", "a\tb\n1\t\t3\n");
        const Rows rows = readAll(reader);
        QCOMPARE(rows[1].size(), std::size_t{3});
        QCOMPARE(rows[1][1], std::string(""));
    }

    void badInput_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<int>("line");
        QTest::addColumn<int>("column");
        QTest::addColumn<QString>("fragment");
        QTest::newRow("unterminated quote") << QByteArray("a,b\n1,\"2\n3,4\n") << 2 << 3 << "unterminated";
        QTest::newRow("text after quote") << QByteArray("a,b\n\"1\"x,2\n") << 2 << 4 << "after the closing quote";
        QTest::newRow("invalid utf-8") << QByteArray("a,b\n1,\xff\n") << 2 << 3 << "invalid UTF-8";
        QTest::newRow("truncated utf-8") << QByteArray("a,\xC3") << 1 << 3 << "invalid UTF-8";
        QTest::newRow("overlong utf-8") << QByteArray("\xC0\xAF") << 1 << 1 << "invalid UTF-8";
        QTest::newRow("surrogate") << QByteArray("ab,\xED\xA0\x80") << 1 << 4 << "invalid UTF-8";
        QTest::newRow("utf-8 column") << QByteArray("\xC3\xA9\xC3\xA9,\xFE") << 1 << 4 << "invalid UTF-8";
        QTest::newRow("nul byte") << QByteArray("a,b\n1,2\0", 8) << 2 << 4 << "NUL byte";
        QByteArray longLine("1,2\n");
        longLine += QByteArray((1 << 20) + 5, 'x');
        QTest::newRow("line over 1 MiB") << longLine << 2 << (1 << 20) + 1 << "longer than";
    }

    void badInput()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(int, line);
        QFETCH(int, column);
        QFETCH(QString, fragment);
        QTemporaryDir dir;
        const std::string path = test::writeFile(dir, "bad.csv", bytes.toStdString());
        CD_EXPECT_DATA_ERROR(
            [&] {
                CsvReader reader = CsvReader::fromFile(path);
                readAll(reader);
                return 0;
            }(),
            path, line, column, fragment.toStdString());
    }

    void missingFile()
    {
        CD_EXPECT_DATA_ERROR(CsvReader::fromFile("/nonexistent/x.csv"), "/nonexistent/x.csv", 0, 0, "cannot open");
    }

    void numbers_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("ok");
        QTest::addColumn<double>("value");
        QTest::newRow("int") << "42" << true << 42.0;
        QTest::newRow("plus") << "+1.5" << true << 1.5;
        QTest::newRow("exp") << "-2.5e-3" << true << -2.5e-3;
        QTest::newRow("double sign") << "+-1" << false << 0.0;
        QTest::newRow("trailing") << "1.0x" << false << 0.0;
        QTest::newRow("empty") << "" << false << 0.0;
        QTest::newRow("hex") << "0x10" << false << 0.0;
        QTest::newRow("comma decimal") << "1,5" << false << 0.0;
        QTest::newRow("underflow") << "1e-999" << true << 0.0;
    }

    void numbers()
    {
        QFETCH(QString, text);
        QFETCH(bool, ok);
        QFETCH(double, value);
        const std::string s = text.toStdString();
        const auto parsed = parseDouble(s);
        QCOMPARE(parsed.has_value(), ok);
        if (ok) QCOMPARE(*parsed, value);
    }

    void nonFiniteNumbersParseSoCallersCanSaySo()
    {
        QVERIFY(std::isnan(*parseDouble("nan")));
        QVERIFY(std::isinf(*parseDouble("inf")));
        QVERIFY(std::isinf(*parseDouble("1e999")));
        QVERIFY(*parseDouble("-1e999") < 0);
    }

    void timestamps_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<qint64>("micros");  // -1: invalid
        QTest::newRow("date") << "2024-01-02" << qint64(1704153600) * 1000000;
        QTest::newRow("T") << "2024-01-02T09:30:00" << (qint64(1704153600) + 34200) * 1000000;
        QTest::newRow("space, no seconds") << "2024-01-02 09:30" << (qint64(1704153600) + 34200) * 1000000;
        QTest::newRow("fraction") << "2024-01-02T09:30:00.25" << (qint64(1704153600) + 34200) * 1000000 + 250000;
        QTest::newRow("zulu") << "2024-01-02T09:30:00Z" << (qint64(1704153600) + 34200) * 1000000;
        QTest::newRow("offset") << "2024-01-02T10:30:00+01:00" << (qint64(1704153600) + 34200) * 1000000;
        QTest::newRow("epoch") << "1704153600" << qint64(1704153600) * 1000000;
        QTest::newRow("epoch fraction") << "1704153600.5" << qint64(1704153600) * 1000000 + 500000;
        QTest::newRow("leap day") << "2024-02-29" << qint64(1709164800) * 1000000;
        QTest::newRow("not leap") << "2023-02-29" << qint64(-1);
        QTest::newRow("month 13") << "2024-13-01" << qint64(-1);
        QTest::newRow("hour 24") << "2024-01-02T24:00:00" << qint64(-1);
        QTest::newRow("slashes") << "2024/01/02" << qint64(-1);
        QTest::newRow("text") << "yesterday" << qint64(-1);
        QTest::newRow("trailing") << "2024-01-02x" << qint64(-1);
        QTest::newRow("exponent epoch") << "1e9" << qint64(-1);
    }

    void timestamps()
    {
        QFETCH(QString, text);
        QFETCH(qint64, micros);
        const auto parsed = parseTimestamp(text.toStdString());
        if (micros < 0) {
            QVERIFY(!parsed);
        } else {
            QVERIFY(parsed);
            QCOMPARE(*parsed, static_cast<std::int64_t>(micros));
        }
    }

    void formatting()
    {
        QCOMPARE(formatTimestamp(*parseTimestamp("2024-03-05T07:08:09")), std::string("2024-03-05T07:08:09"));
        QCOMPARE(formatTimestamp(-1), std::string("1969-12-31T23:59:59"));
        QCOMPARE(formatDate(18631), std::string("2021-01-04"));
    }

    void missingMarkers()
    {
        for (const char* s : {"", "NA", "n/a", "#N/A", "NaN", "null", "None", " na "}) QVERIFY2(isMissingMarker(s), s);
        for (const char* s : {"0", "nano", "-"}) QVERIFY2(!isMissingMarker(s), s);
    }
};

QTEST_APPLESS_MAIN(TestCsvReader)
#include "test_csv_reader.moc"
