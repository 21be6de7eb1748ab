#include "engine/data/load.h"

#include "data_test_support.h"

#include <QTest>

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

class TestTicksLoader : public QObject {
    Q_OBJECT

private slots:
    void resamplesToLastPricePerBar()
    {
        QTemporaryDir dir;
        const std::string path = test::writeFile(dir, "t.csv", ticksFile());
        QCOMPARE(toString(sniffLayout(path)), toString(Layout::Ticks));
        LoadOptions options;
        options.minHistory = 0.5;  // BBB trades in 3 of the 4 bars
        const Dataset d = loadDataset(path, options);
        QCOMPARE(toString(d.layout), toString(Layout::Ticks));
        QCOMPARE(d.rowNames, (std::vector<std::string>{"AAA", "BBB"}));
        QCOMPARE(d.colNames,
                 (std::vector<std::string>{"2024-01-02T09:31:00", "2024-01-02T09:32:00", "2024-01-02T09:33:00"}));
        QVERIFY(hasNote(d, "resampled 9 ticks of 2 symbols into 4 bars of 60 s"));
        QVERIFY(hasNote(d, "forward-filled 1"));

        // The same bars written as a wide prices file go through the same pipeline.
        const std::string wide = test::writeFile(dir, "w.csv",
                                                 "timestamp,AAA,BBB\n"
                                                 "2024-01-02T09:30:00,101,50\n"
                                                 "2024-01-02T09:31:00,102,51\n"
                                                 "2024-01-02T09:32:00,103,52.5\n"
                                                 "2024-01-02T09:33:00,104,\n");
        const Dataset p = loadDataset(wide, options);
        QCOMPARE(toString(p.layout), toString(Layout::Prices));
        QCOMPARE(d.values, p.values);
        QCOMPARE(d.contentHash(), p.contentHash());
        QCOMPARE(d.colNames, p.colNames);
    }

    void barSizeAndWindow()
    {
        QTemporaryDir dir;
        const std::string path = test::writeFile(dir, "t.csv", ticksFile());
        LoadOptions options;
        options.minHistory = 0.5;
        options.barSeconds = 30;
        const Dataset d = loadTicks(path, options);
        QVERIFY(hasNote(d, "bars of 30 s"));
        QCOMPARE(d.colNames.front(), std::string("2024-01-02T09:30:30"));
        options.returnWindow = 2;
        const Dataset w = loadTicks(path, options);
        QCOMPARE(w.cols, std::int64_t{2});
        options.barSeconds = 0;
        QVERIFY_THROWS_EXCEPTION(UsageError, loadTicks(path, options));
    }

    void missingRequiredColumns_data()
    {
        QTest::addColumn<QByteArray>("header");
        QTest::addColumn<QString>("missing");
        QTest::newRow("timestamp") << QByteArray("time,symbol,price") << "'timestamp'";
        QTest::newRow("symbol") << QByteArray("timestamp,ticker,price") << "'symbol'";
        QTest::newRow("price") << QByteArray("timestamp,symbol,size") << "'price'";
    }

    void missingRequiredColumns()
    {
        QFETCH(QByteArray, header);
        QFETCH(QString, missing);
        QTemporaryDir dir;
        const std::string path = test::writeFile(dir, "t.csv", header.toStdString() + "\n2024-01-02,A,1\n");
        CD_EXPECT_DATA_ERROR(loadTicks(path), path, 1, 1, "missing required column " + missing.toStdString());
    }

    void badInput_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<int>("line");
        QTest::addColumn<int>("column");
        QTest::addColumn<QString>("fragment");
        const QByteArray head = "timestamp,symbol,price,size\n2024-01-02T09:30:00,A,10,1\n";
        QTest::newRow("empty") << QByteArray() << 1 << 1 << "empty file";
        QTest::newRow("header only") << QByteArray("timestamp,symbol,price\n") << 2 << 1 << "no ticks";
        QTest::newRow("duplicate column")
            << QByteArray("timestamp,symbol,price,Price\n") << 1 << 24 << "duplicate column 'price'";
        QTest::newRow("bad timestamp") << head + "2024-01-02T25:00:00,A,10,1\n" << 3 << 1 << "not a timestamp";
        QTest::newRow("empty symbol") << head + "2024-01-02T09:31:00,,10,1\n" << 3 << 21 << "empty symbol";
        QTest::newRow("negative price") << head + "2024-01-02T09:31:00,A,-10,1\n" << 3 << 23 << "must be positive";
        QTest::newRow("nan price") << head + "2024-01-02T09:31:00,A,NaN,1\n" << 3 << 23 << "not a finite price";
        QTest::newRow("subnormal price") << head + "2024-01-02T09:31:00,A,1e-310,1\n" << 3 << 23 << "price too small";
        // The 09:31 bar closes on the tick of line 4: its return from 1e300 underflows to log(0).
        QTest::newRow("bar return beyond double range")
            << QByteArray("timestamp,symbol,price\n2024-01-02T09:30:00,A,1e300\n2024-01-02T09:31:00,A,5\n"
                          "2024-01-02T09:31:30,A,1e-300\n2024-01-02T09:32:00,A,1\n")
            << 4 << 23 << "the log return of 'A' at 2024-01-02T09:31:00";
        QTest::newRow("missing price") << head + "2024-01-02T09:31:00,A,,1\n" << 3 << 23 << "not a price";
        QTest::newRow("bad size") << head + "2024-01-02T09:31:00,A,10,lots\n" << 3 << 26 << "size must be";
        QTest::newRow("negative size") << head + "2024-01-02T09:31:00,A,10,-1\n" << 3 << 26 << "size must be";
        QTest::newRow("ragged") << head + "2024-01-02T09:31:00,A,10\n" << 3 << 25 << "expected 4 fields";
        QTest::newRow("too few bars") << head + "2024-01-02T09:30:30,A,11,1\n" << 0 << 0 << "too few periods";
    }

    void badInput()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(int, line);
        QFETCH(int, column);
        QFETCH(QString, fragment);
        QTemporaryDir dir;
        const std::string path = test::writeFile(dir, "bad.csv", bytes.toStdString());
        CD_EXPECT_DATA_ERROR(loadTicks(path), path, line, column, fragment.toStdString());
    }

    void sparseFarApartTicksStayBounded()
    {
        // Ticks years apart: only bars with trades exist, so no giant empty grid is built.
        QTemporaryDir dir;
        const std::string path = test::writeFile(dir, "t.csv",
                                                 "timestamp,symbol,price\n0,A,1\n1,B,2\n"
                                                 "100000000,A,1.5\n100000000,B,2.5\n"
                                                 "200000000,A,1.2\n200000000,B,2.2\n");
        LoadOptions options;
        options.barSeconds = 1;
        options.minHistory = 0.5;
        const Dataset d = loadTicks(path, options);
        QCOMPARE(d.rows, std::int64_t{2});
        // Bars 0, 1, 1e8, 2e8; bar 0 has no price for B (before its first), so 3 periods remain.
        QCOMPARE(d.cols, std::int64_t{2});
        QVERIFY(hasNote(d, "into 4 bars"));
    }
};

QTEST_APPLESS_MAIN(TestTicksLoader)
#include "test_ticks_loader.moc"
