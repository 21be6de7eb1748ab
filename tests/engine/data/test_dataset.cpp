#include "engine/data/dataset.h"

#include <QTest>

using namespace clusterdesk;

class TestDataset : public QObject {
    Q_OBJECT

private slots:
    void layoutNames()
    {
        QCOMPARE(toString(Layout::Matrix), std::string("matrix"));
        QCOMPARE(toString(Layout::Prices), std::string("prices"));
        QCOMPARE(toString(Layout::Ticks), std::string("ticks"));
    }

    // The hash is SHA-256 over int64 rows, int64 cols (little-endian) and the float32
    // bytes; these digests were computed independently with Python's hashlib.
    void hashIsStable()
    {
        Dataset d;
        d.rows = 2;
        d.cols = 2;
        d.values = {1.0f, 2.0f, 3.0f, 4.0f};
        QCOMPARE(d.contentHash(), std::string("b38757ab1711b1f7979452dddc8bc6a764e4289e2b28fa469aa9fabaf25876ad"));
        QCOMPARE(Dataset{}.contentHash(),
                 std::string("374708fff7719dd5979ec875d56cd2286f6d3cf7ec317a3b25632aab28ec37bb"));
    }

    void hashCoversShapeAndValuesOnly()
    {
        Dataset a;
        a.rows = 2;
        a.cols = 2;
        a.values = {1.0f, 2.0f, 3.0f, 4.0f};
        Dataset b = a;
        b.rowNames = {"x", "y"};
        b.source = "elsewhere";
        QCOMPARE(a.contentHash(), b.contentHash());
        Dataset reshaped = a;
        reshaped.rows = 1;
        reshaped.cols = 4;
        QVERIFY(a.contentHash() != reshaped.contentHash());
        Dataset changed = a;
        changed.values[3] = std::nextafter(4.0f, 5.0f);
        QVERIFY(a.contentHash() != changed.contentHash());
        QCOMPARE(a.contentHash().size(), std::size_t{64});
    }
};

QTEST_APPLESS_MAIN(TestDataset)
#include "test_dataset.moc"
