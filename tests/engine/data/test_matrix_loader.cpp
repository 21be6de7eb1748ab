#include "engine/data/load.h"

#include "data_test_support.h"

#include <QTest>

using namespace clusterdesk;

namespace {

Dataset loadMatrix(const std::string& path)
{
    LoadOptions options;
    options.layout = Layout::Matrix;
    return loadDataset(path, options);
}

}  // namespace

class TestMatrixLoader : public QObject {
    Q_OBJECT

private slots:
    void goodFiles_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<int>("rows");
        QTest::addColumn<int>("cols");
        QTest::addColumn<QStringList>("rowNames");
        QTest::addColumn<QStringList>("colNames");
        QTest::addColumn<QList<int>>("truth");
        QTest::newRow("no header") << QByteArray("1,2\n3,4\n5,6\n") << 3 << 2 << QStringList{} << QStringList{}
                                   << QList<int>{};
        QTest::newRow("header") << QByteArray("x,y\n1,2\n3,4\n") << 2 << 2 << QStringList{} << QStringList{"x", "y"}
                                << QList<int>{};
        QTest::newRow("id column and header") << QByteArray("id,x,y\na,1,2\nb,3,4\n") << 2 << 2 << QStringList{"a", "b"}
                                              << QStringList{"x", "y"} << QList<int>{};
        QTest::newRow("numeric ids under an id header")
            << QByteArray("id,x\n7,1\n8,2\n") << 2 << 1 << QStringList{"7", "8"} << QStringList{"x"} << QList<int>{};
        QTest::newRow("pandas empty index header") << QByteArray(",x,y\nr1,1,2\nr2,3,4\n") << 2 << 2
                                                   << QStringList{"r1", "r2"} << QStringList{"x", "y"} << QList<int>{};
        QTest::newRow("id column, no header")
            << QByteArray("a,1,2\nb,3,4\n") << 2 << 2 << QStringList{"a", "b"} << QStringList{} << QList<int>{};
        QTest::newRow("header over numbers, text only in first cell")
            << QByteArray("x,1,2\n5,3,4\n") << 1 << 3 << QStringList{} << QStringList{"x", "1", "2"} << QList<int>{};
        QTest::newRow("tsv") << QByteArray("x\ty\n1\t2\n3\t4\n") << 2 << 2 << QStringList{} << QStringList{"x", "y"}
                             << QList<int>{};
        QTest::newRow("semicolon") << QByteArray("1;2\n3;4\n") << 2 << 2 << QStringList{} << QStringList{}
                                   << QList<int>{};
        QTest::newRow("quoted") << QByteArray("\"name, full\",\"x\"\n\"a, b\",\"1.5\"\nc,2\n") << 2 << 1
                                << QStringList{"a, b", "c"} << QStringList{"x"} << QList<int>{};
        QTest::newRow("crlf and blank lines") << QByteArray("x,y\r\n1,2\r\n\r\n3,4\r\n") << 2 << 2 << QStringList{}
                                              << QStringList{"x", "y"} << QList<int>{};
        QTest::newRow("label column") << QByteArray("x,Label,y\n1,0,2\n3,1,4\n") << 2 << 2 << QStringList{}
                                      << QStringList{"x", "y"} << QList<int>{0, 1};
        QTest::newRow("truth column and ids") << QByteArray("name,x,TRUTH\na,1,5\nb,2,3\n") << 2 << 1
                                              << QStringList{"a", "b"} << QStringList{"x"} << QList<int>{5, 3};
        QTest::newRow("single column") << QByteArray("v\n1\n2\n3\n") << 3 << 1 << QStringList{} << QStringList{"v"}
                                       << QList<int>{};
        QTest::newRow("no trailing newline")
            << QByteArray("1,2\n3,4") << 2 << 2 << QStringList{} << QStringList{} << QList<int>{};
    }

    void goodFiles()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(int, rows);
        QFETCH(int, cols);
        QFETCH(QStringList, rowNames);
        QFETCH(QStringList, colNames);
        QFETCH(QList<int>, truth);
        QTemporaryDir dir;
        const std::string path = test::writeFile(dir, "m.csv", bytes.toStdString());
        const Dataset d = loadDataset(path);  // sniffed: these are all matrices
        QCOMPARE(toString(d.layout), toString(Layout::Matrix));
        QCOMPARE(d.rows, std::int64_t(rows));
        QCOMPARE(d.cols, std::int64_t(cols));
        QCOMPARE(d.values.size(), std::size_t(rows * cols));
        QCOMPARE(d.source, path);
        QCOMPARE(d.rowNames.size(), std::size_t(rowNames.size()));
        for (int i = 0; i < rowNames.size(); ++i) QCOMPARE(QString::fromStdString(d.rowNames[i]), rowNames[i]);
        QCOMPARE(d.colNames.size(), std::size_t(colNames.size()));
        for (int i = 0; i < colNames.size(); ++i) QCOMPARE(QString::fromStdString(d.colNames[i]), colNames[i]);
        QCOMPARE(d.truth.size(), std::size_t(truth.size()));
        for (int i = 0; i < truth.size(); ++i) QCOMPARE(d.truth[i], truth[i]);
        QVERIFY(!d.notes.empty());
    }

    void valuesAreRowMajor()
    {
        QTemporaryDir dir;
        const std::string path = test::writeFile(dir, "m.csv", "a,b,c\n1,2,3\n4,5,6.5\n");
        const Dataset d = loadMatrix(path);
        const std::vector<float> expected{1, 2, 3, 4, 5, 6.5f};
        QCOMPARE(d.values, expected);
    }

    void sameNumbersSameHash()
    {
        QTemporaryDir dir;
        const Dataset a = loadMatrix(test::writeFile(dir, "a.csv", "x,y\n1,2\n3,4\n"));
        const Dataset b = loadMatrix(test::writeFile(dir, "b.tsv", "id\tx\ty\np\t1.0\t2\nq\t3\t4e0\n"));
        QCOMPARE(a.contentHash(), b.contentHash());
        const Dataset c = loadMatrix(test::writeFile(dir, "c.csv", "x,y\n1,2\n3,4.0001\n"));
        QVERIFY(a.contentHash() != c.contentHash());
    }

    void badInput_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<int>("line");
        QTest::addColumn<int>("column");
        QTest::addColumn<QString>("fragment");
        QTest::newRow("empty file") << QByteArray("") << 1 << 1 << "empty file";
        QTest::newRow("only blank lines") << QByteArray("\n \r\n\n") << 1 << 1 << "empty file";
        QTest::newRow("header only") << QByteArray("a,b\n") << 2 << 1 << "no data rows";
        QTest::newRow("too many fields") << QByteArray("1,2\n3,4,5\n") << 2 << 5 << "expected 2 fields";
        QTest::newRow("too few fields") << QByteArray("1,2,3\n4,5\n6,7,8\n") << 2 << 4 << "expected 3 fields";
        QTest::newRow("ragged after header") << QByteArray("a,b\n1,2\n3\n") << 3 << 2 << "found 1";
        QTest::newRow("non-numeric cell") << QByteArray("a,b\n1,2\n3,x\n") << 3 << 3 << "not a number: 'x'";
        QTest::newRow("nan") << QByteArray("1,2\n3,nan\n") << 2 << 3 << "not a finite number";
        QTest::newRow("inf") << QByteArray("1,inf\n") << 1 << 3 << "not a finite number";
        QTest::newRow("huge") << QByteArray("1,2\n3,1e39\n") << 2 << 3 << "'1e39' is too large";
        // Within float32, but its squared distances are not.
        QTest::newRow("square overflows") << QByteArray("1,2\n3,1e20\n") << 2 << 3
                                          << "values above 1.12e+18 in 2 columns overflow float32 squared distances";
        QTest::newRow("empty cell") << QByteArray("1,2\n3,\n") << 2 << 3 << "empty cell";
        QTest::newRow("spaces only cell") << QByteArray("1,2\n3,  \n") << 2 << 5 << "empty cell";
        QTest::newRow("invalid utf-8") << QByteArray("a,b\n1,\xff\n") << 2 << 3 << "invalid UTF-8";
        QTest::newRow("nul byte") << QByteArray("1,2\n3,\0\n", 8) << 2 << 3 << "NUL byte";
        QTest::newRow("unterminated quote") << QByteArray("a,b\n1,\"2\n") << 2 << 3 << "unterminated";
        QTest::newRow("label not integer") << QByteArray("x,label\n1,0\n2,a\n") << 3 << 3 << "must be an integer";
        QTest::newRow("label fractional") << QByteArray("x,label\n1,0.5\n") << 2 << 3 << "must be an integer";
        QTest::newRow("label negative") << QByteArray("x,label\n1,0\n2,-1\n") << 3 << 3 << "must not be negative";
        QTest::newRow("two truth columns") << QByteArray("x,label,truth\n1,2,3\n") << 1 << 9 << "more than one";
        QTest::newRow("only an id column") << QByteArray("id\na\nb\n") << 2 << 1 << "not a number";
        QTest::newRow("names and labels, no features") << QByteArray("id,label\na,1\n") << 1 << 9 << "no feature";
        QTest::newRow("multibyte column")
            << QByteArray("n\xC3\xA4me,x\n\xC3\xA4,1\n\xC3\xB6,z\n") << 3 << 3 << "not a number";
        QTest::newRow("text in later id-less row") << QByteArray("1,2\nb,4\n") << 2 << 1 << "not a number: 'b'";
        QByteArray longLine("1,2\n");
        longLine += QByteArray((1 << 20) + 1, '7');
        QTest::newRow("gigantic line") << longLine << 2 << (1 << 20) + 1 << "longer than";
    }

    void badInput()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(int, line);
        QFETCH(int, column);
        QFETCH(QString, fragment);
        QTemporaryDir dir;
        const std::string path = test::writeFile(dir, "bad.csv", bytes.toStdString());
        CD_EXPECT_DATA_ERROR(loadMatrix(path), path, line, column, fragment.toStdString());
    }

    void largeFileLoads()
    {
        QTemporaryDir dir;
        std::string text = "a,b,c,d\n";
        for (int i = 0; i < 20000; ++i) text += std::to_string(i) + ",0.5,-1e-3," + std::to_string(i % 7) + "\n";
        const Dataset d = loadMatrix(test::writeFile(dir, "big.csv", text));
        QCOMPARE(d.rows, std::int64_t{20000});
        QCOMPARE(d.row(19999)[0], 19999.0f);
        QCOMPARE(d.row(19999)[3], float(19999 % 7));
    }
};

QTEST_APPLESS_MAIN(TestMatrixLoader)
#include "test_matrix_loader.moc"
