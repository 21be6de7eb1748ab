// Durations and energies in the unit a reader wants: short runs in ms and mJ, never
// rounded to zero; returns as percentages.
#include "ui/units.h"

#include <QTest>

using namespace clusterdesk::ui;

class TestUnits : public QObject {
    Q_OBJECT

private slots:
    void seconds()
    {
        QCOMPARE(formatSeconds(0.000812), QString("812 µs"));
        QCOMPARE(formatSeconds(0.0402), QString("40.2 ms"));
        QCOMPARE(formatSeconds(0.08), QString("80 ms"));
        QCOMPARE(formatSeconds(0.143), QString("143 ms"));
        QCOMPARE(formatSeconds(3.471), QString("3.47 s"));
        QCOMPARE(formatSeconds(725), QString("12 min 5 s"));
        QCOMPARE(formatSeconds(0), QString("0 s"));
    }

    void joules()
    {
        QCOMPARE(formatJoules(0.0031), QString("3.1 mJ"));
        QCOMPARE(formatJoules(12.44), QString("12.4 J"));
        QCOMPARE(formatJoules(1520), QString("1.52 kJ"));
        QCOMPARE(formatJoules(0), QString("0 J"));
    }

    void percent()
    {
        // Returns per period, as the Members tab and reports show them.
        QCOMPARE(formatPercent(0.000458), QString("0.046 %"));
        QCOMPARE(formatPercent(0.01463), QString("1.463 %"));
        QCOMPARE(formatPercent(-0.0025), QString("-0.250 %"));
        QCOMPARE(formatPercent(0), QString("0.000 %"));
    }
};

QTEST_GUILESS_MAIN(TestUnits)
#include "test_units.moc"
