// The Live tab's summary line: the newest update, and whether the session skipped time.
#include "ui/live/live_plot.h"
#include "ui/live/live_view.h"

#include <QLabel>
#include <QTest>

using namespace clusterdesk;

namespace {

// An update of two assets in one cluster; missingBars as the clusterer counts them.
stream::LiveUpdate updateOf(int index, std::int64_t missingBars)
{
    stream::LiveUpdate u;
    u.index = index;
    u.k = 1;
    u.assets = {"A", "B"};
    u.labels = {0, 0};
    u.clusterOf = {1, 1};
    u.clusterIds = {1};
    u.missingBars = missingBars;
    return u;
}

}  // namespace

class TestLiveView : public QObject {
    Q_OBJECT

private slots:
    void summarySaysWhenBarsWereMissing()
    {
        ui::LiveView view;
        view.history().add(updateOf(1, 0), 1.0, 100);
        view.refresh();
        QVERIFY2(view.summary().text().startsWith("Update 1 at 1.0 s: k = 1"), qPrintable(view.summary().text()));
        QVERIFY2(!view.summary().text().contains("without any tick"), qPrintable(view.summary().text()));
        // A reconnect: 470 bars never came before update 2; the line keeps saying so.
        view.history().add(updateOf(2, 470), 2.0, 100);
        view.history().add(updateOf(3, 0), 3.0, 100);
        view.refresh();
        QVERIFY2(view.summary().text().contains("470 bars without any tick this session"), qPrintable(view.summary().text()));
        view.history().clear();
        view.history().add(updateOf(1, 0), 1.0, 100);
        view.refresh();
        QVERIFY2(!view.summary().text().contains("without any tick"), qPrintable(view.summary().text()));
    }

    void latencyGraphLeavesRoomAboveItsHighestValue()
    {
        // A slow first update sets the maximum and every percentile line after it: they
        // stand below the frame, not on it.
        ui::LiveView view;
        for (int i = 1; i <= 20; ++i) {
            stream::LiveUpdate u = updateOf(i, 0);
            u.latencyMs = i == 1 ? 140.0 : 10.0 + i;
            view.history().add(u, i, 1000.0 * i);
        }
        view.refresh();
        QCustomPlot& plot = view.latency();
        QVERIFY2(plot.yAxis->range().upper >= 1.05 * 140.0, qPrintable(QString::number(plot.yAxis->range().upper)));
        QVERIFY2(plot.yAxis2->range().upper >= 1.05 * 20000.0, qPrintable(QString::number(plot.yAxis2->range().upper)));
    }

    void powerGraphLeavesRoomAboveItsHighestValue()
    {
        // One update drew far more than the rest: its stem and its dot stay inside the frame.
        ui::LiveView view;
        for (int i = 1; i <= 20; ++i) {
            stream::LiveUpdate u = updateOf(i, 0);
            u.clusterMs = 10.0;
            u.energyJ = i == 7 ? 0.25 : 0.01;  // 25 W against 1 W
            view.history().add(u, i, 1000.0);
        }
        view.refresh();
        QCustomPlot& plot = view.power();
        QVERIFY2(plot.yAxis->range().upper >= 1.05 * 0.25, qPrintable(QString::number(plot.yAxis->range().upper)));
        QVERIFY2(plot.yAxis2->range().upper >= 1.05 * 25.0, qPrintable(QString::number(plot.yAxis2->range().upper)));
    }

    void emptyGraphsTakeTheirWholeWidth()
    {
        // Before the first update the cluster graph has no legend items; its axes still
        // span the graph, not the title's width. The strip comes back with the clusters.
        ui::LiveView view;
        view.resize(1400, 900);
        view.show();
        QCustomPlot& plot = view.evolution();
        plot.replot();
        QVERIFY2(plot.axisRect()->width() > plot.width() / 2,
                 qPrintable(QString("axes %1 of %2 px").arg(plot.axisRect()->width()).arg(plot.width())));
        stream::LiveUpdate u = updateOf(1, 0);
        view.history().add(u, 1.0, 100);
        view.refresh();
        plot.replot();
        QCOMPARE(plot.legend->itemCount(), 1);
        QVERIFY(plot.legend->visible() && plot.legend->layout() == plot.plotLayout());
        QVERIFY(plot.axisRect()->width() > plot.width() / 2);
        // Its frame, drawn on its outer edge, lies inside the widget on every side.
        const QRect frame = plot.legend->outerRect();
        QVERIFY2(frame.left() >= 0 && frame.x() + frame.width() < plot.width() && frame.y() + frame.height() < plot.height(),
                 qPrintable(QString("legend %1,%2 %3x%4 in %5x%6").arg(frame.x()).arg(frame.y()).arg(frame.width()).arg(frame.height()).arg(plot.width()).arg(plot.height())));
    }

    void summaryCountsTheAssetsThatMoved()
    {
        ui::LiveView view;
        stream::LiveUpdate u = updateOf(1, 0);
        u.migrations = {{"A", 1, 1}};
        view.history().add(u, 1.0, 100);
        view.refresh();
        QVERIFY2(view.summary().text().contains("k = 1, 1 asset moved;"), qPrintable(view.summary().text()));
        u.index = 2;
        u.migrations = {{"A", 1, 1}, {"B", 1, 1}};
        view.history().add(u, 2.0, 100);
        view.refresh();
        QVERIFY2(view.summary().text().contains("k = 1, 2 assets moved;"), qPrintable(view.summary().text()));
    }
};

QTEST_MAIN(TestLiveView)
#include "test_live_view.moc"
