#include "engine/data/load.h"

#include "data_test_support.h"

#include <QTest>

#include <sys/stat.h>
#include <vector>

using namespace clusterdesk;

class TestLoad : public QObject {
    Q_OBJECT

private slots:
    void sniffing_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<int>("layout");
        QTest::newRow("plain matrix") << QByteArray("1,2\n3,4\n") << int(Layout::Matrix);
        QTest::newRow("matrix with header") << QByteArray("x,y\n1,2\n") << int(Layout::Matrix);
        QTest::newRow("matrix with ids") << QByteArray("id,x\na,1\n") << int(Layout::Matrix);
        QTest::newRow("prices, date header") << QByteArray("Date,A,B\n2024-01-02,1,2\n") << int(Layout::Prices);
        QTest::newRow("prices, time header tsv") << QByteArray("time\tA\n2024-01-02\t1\n") << int(Layout::Prices);
        QTest::newRow("prices, ISO first column") << QByteArray("when,A,B\n2024-01-02,1,2\n") << int(Layout::Prices);
        QTest::newRow("ticks") << QByteArray("symbol,price,timestamp\nA,1,0\n") << int(Layout::Ticks);
        QTest::newRow("ticks, mixed case, extra")
            << QByteArray("TimeStamp,Symbol,Price,Size,venue\n") << int(Layout::Ticks);
        QTest::newRow("npy magic") << QByteArray("\x93NUMPY\x01\x00", 8) << int(Layout::Matrix);
        QTest::newRow("blank lines first") << QByteArray("\n\ndate,A\n") << int(Layout::Prices);
    }

    void sniffing()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(int, layout);
        QTemporaryDir dir;
        const std::string path = test::writeFile(dir, "f.dat", bytes.toStdString());
        QCOMPARE(int(sniffLayout(path)), layout);
    }

    void sniffingBadFiles()
    {
        QTemporaryDir dir;
        const std::string empty = test::writeFile(dir, "empty.csv", "");
        CD_EXPECT_DATA_ERROR(sniffLayout(empty), empty, 1, 1, "empty file");
        const std::string blank = test::writeFile(dir, "blank.csv", "\n\n  \n");
        CD_EXPECT_DATA_ERROR(sniffLayout(blank), blank, 4, 1, "only blank lines");
        const std::string binary = test::writeFile(dir, "bin.csv", std::string("ab\xff", 3));
        CD_EXPECT_DATA_ERROR(sniffLayout(binary), binary, 1, 3, "invalid UTF-8");
        CD_EXPECT_DATA_ERROR(sniffLayout("/no/such/file.csv"), "/no/such/file.csv", 0, 0, "cannot open");
        const std::string folder = dir.path().toStdString();
        CD_EXPECT_DATA_ERROR(sniffLayout(folder), folder, 0, 0, "is not a regular file (a directory)");
        CD_EXPECT_DATA_ERROR(loadDataset(folder), folder, 0, 0, "is not a regular file (a directory)");
    }

    // Opening a FIFO blocks until a writer comes and /dev/zero never ends: every layout
    // refuses both before opening them (a hang here is a ctest timeout, not a pass).
    void nonRegularFilesAreRefused_data()
    {
        QTest::addColumn<int>("layout");  // -1: sniffed
        QTest::newRow("sniffed") << -1;
        QTest::newRow("matrix") << int(Layout::Matrix);
        QTest::newRow("prices") << int(Layout::Prices);
        QTest::newRow("ticks") << int(Layout::Ticks);
    }

    void nonRegularFilesAreRefused()
    {
        QFETCH(int, layout);
        LoadOptions options;
        if (layout >= 0) options.layout = static_cast<Layout>(layout);
        QTemporaryDir dir;
        std::vector<std::string> names{"pipe"};
        if (layout < 0 || layout == int(Layout::Matrix)) names.push_back("pipe.npy");  // the .npy reader's own path
        for (const std::string& name : names) {
            const std::string fifo = dir.filePath(QString::fromStdString(name)).toStdString();
            QCOMPARE(::mkfifo(fifo.c_str(), 0600), 0);
            CD_EXPECT_DATA_ERROR(loadDataset(fifo, options), fifo, 0, 0, "is not a regular file (a FIFO)");
        }
        CD_EXPECT_DATA_ERROR(loadDataset("/dev/zero", options), "/dev/zero", 0, 0,
                             "is not a regular file (a character device)");
    }

    void sniffingCutsALongPrefixAtALineEnd()
    {
        // A file bigger than the sniff prefix with a multi-byte character straddling the cut.
        QTemporaryDir dir;
        std::string text = "x,y\n";
        while (text.size() < (1u << 20) + 4096 - 1) text += "\xC3\xA9,1\n";
        const std::string path = test::writeFile(dir, "big.csv", text);
        QCOMPARE(toString(sniffLayout(path)), toString(Layout::Matrix));
    }

    void forcedLayoutOverridesSniffing()
    {
        QTemporaryDir dir;
        // Sniffs as a matrix (no date header) but read as prices on request.
        const std::string path = test::writeFile(dir, "p.csv", "A,B\n1,2\n1.1,2.2\n1.2,2.1\n1.3,2.0\n");
        QCOMPARE(toString(sniffLayout(path)), toString(Layout::Matrix));
        LoadOptions options;
        options.layout = Layout::Prices;
        CD_EXPECT_DATA_ERROR(loadDataset(path, options), path, 2, 1, "not a date");
    }

    void optionsAreValidated()
    {
        QTemporaryDir dir;
        const std::string path = test::writeFile(dir, "m.csv", "1,2\n");
        LoadOptions options;
        options.minHistory = 1.5;
        QVERIFY_THROWS_EXCEPTION(UsageError, loadDataset(path, options));
        options = {};
        options.maxForwardFill = -1;
        QVERIFY_THROWS_EXCEPTION(UsageError, loadDataset(path, options));
    }

    // A setting the layout would ignore is refused once the layout is known (here
    // sniffed), naming the option, rather than recorded as if it had been used.
    void optionsMustApplyToTheLayout()
    {
        QTemporaryDir dir;
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
        QVERIFY2(refused(matrix, window).find("--window 1) applies to prices and ticks files; " + matrix +
                                              " holds a matrix") != std::string::npos,
                 refused(matrix, window).c_str());
        QVERIFY2(refused(matrix, bar).find("--bar 300) applies to ticks files") != std::string::npos,
                 refused(matrix, bar).c_str());
        QVERIFY2(refused(prices, bar).find("holds a prices table") != std::string::npos,
                 refused(prices, bar).c_str());
        QCOMPARE(loadDataset(prices, window).cols, std::int64_t{1});
        QCOMPARE(loadDataset(ticks, bar).cols, std::int64_t{2});
        // The default bar size is what every load passes; it must not count as given.
        QCOMPARE(loadDataset(matrix).rows, std::int64_t{3});
    }

    void progressAndCancel_data()
    {
        QTest::addColumn<int>("layout");
        QTest::newRow("matrix") << int(Layout::Matrix);
        QTest::newRow("prices") << int(Layout::Prices);
        QTest::newRow("ticks") << int(Layout::Ticks);
    }

    void progressAndCancel()
    {
        QFETCH(int, layout);
        QTemporaryDir dir;
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
        QVERIFY(seen.size() >= 3);
        QCOMPARE(seen.front(), 0.0);
        QCOMPARE(seen.back(), 1.0);
        for (std::size_t i = 1; i < seen.size(); ++i) QVERIFY(seen[i] >= seen[i - 1]);

        int calls = 0;
        options.progress = [&](double) { return ++calls < 2; };
        QVERIFY_THROWS_EXCEPTION(Cancelled, loadDataset(path, options));
    }
};

QTEST_APPLESS_MAIN(TestLoad)
#include "test_load.moc"
