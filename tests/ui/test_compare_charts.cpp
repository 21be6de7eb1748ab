// The Compare tab's bar charts on their log axes: every bar's top is at its row's
// value (time per iteration, energy per run), and the model's band is centred there,
// whatever decade the axis starts at. Rows are made up here, so every value is known.
#include "ui/compare/energy_chart.h"
#include "ui/compare/time_chart.h"

#include <QTest>

using namespace clusterdesk;

namespace {

std::vector<ui::CompareRow> rows()
{
    const auto row = [](const char* topology, bool measured, double ms, std::optional<double> predicted, double joules,
                        const char* source) {
        ui::CompareRow r;
        r.topology = topology;
        r.measured = measured;
        r.msPerIteration = ms;
        r.predictedMs = predicted;
        r.energyJ = joules;
        r.energySource = source;
        return r;
    };
    // Energies a little above a decade's bottom (1 J), where a bar drawn from the axis
    // bottom plus its value would show about 1 J too much.
    return {row("host@1", true, 14.2, 12.0, 4.17, "estimated"), row("host", true, 7.3, 8.1, 4.12, "estimated"),
            row("shards:2", true, 7.9, 7.5, 6.59, "measured"), row("model:h200", false, 0.61, std::nullopt, 52.7, "modeled")};
}

// The value each bar's top stands at, read back from the axis, against the value it draws.
void checkTops(QCustomPlot& plot)
{
    plot.resize(900, 600);
    plot.replot();
    int bars = 0;
    for (int p = 0; p < plot.plottableCount(); ++p) {
        auto* b = qobject_cast<QCPBars*>(plot.plottable(p));
        if (!b) continue;
        for (int i = 0; i < b->dataCount(); ++i, ++bars) {
            const double value = b->data()->at(i)->value;
            const double top = b->valueAxis()->pixelToCoord(b->dataPixelPosition(i).y());
            QVERIFY2(std::abs(top - value) <= 0.01 * value,
                     qPrintable(QString("%1: the bar for %2 stands at %3").arg(b->name()).arg(value).arg(top)));
        }
    }
    QVERIFY(bars >= 4);
}

}  // namespace

class TestCompareCharts : public QObject {
    Q_OBJECT
private slots:
    void energyBarsStandAtTheirValues()
    {
        ui::EnergyChart chart;
        chart.setRows(rows());
        QCOMPARE(chart.barCount(), 4);
        checkTops(chart);
    }

    void timeBarsAndTheModelsBandStandAtTheirValues()
    {
        ui::TimeChart chart;
        chart.setRows(rows());
        checkTops(chart);
        if (QTest::currentTestFailed()) return;
        // The band of a prediction spans its value +-25 %, around the bar's top.
        for (int p = 0; p < chart.plottableCount(); ++p) {
            auto* band = qobject_cast<QCPErrorBars*>(chart.plottable(p));
            if (!band || band->dataCount() == 0) continue;
            auto* bars = qobject_cast<QCPBars*>(band->dataPlottable());
            QVERIFY(bars);
            for (int i = 0; i < band->dataCount(); ++i) {
                const double value = bars->data()->at(i)->value;
                QCOMPARE(band->data()->at(i).errorPlus, 0.25 * value);
                const double top = bars->valueAxis()->pixelToCoord(bars->dataPixelPosition(i).y());
                QVERIFY(std::abs(top - value) <= 0.01 * value);
            }
        }
    }
};

QTEST_MAIN(TestCompareCharts)
#include "test_compare_charts.moc"
