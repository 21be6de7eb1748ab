// The graphs on their own: a real k-means run (on this thread, no window) feeds the one
// run of a RunSet; each graph must draw exactly what the run reported and export it.
#include "ui/plots/clusters_plot.h"
#include "ui/plots/evolution_plot.h"
#include "ui/plots/latency_plot.h"
#include "ui/plots/power_plot.h"
#include "ui/run_set.h"

#include "engine/data/demo.h"
#include "engine/exec/run_clustering.h"

#include <QApplication>
#include <QClipboard>
#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <functional>
#include <string>

using namespace clusterdesk;

namespace {

// AdaptGrow as a window sees it: `iterations` iterations over 1000 rows at k = kOf(it),
// the clusters of equal size, a split announced at iteration `splitAt` (0: none).
ui::RunSeries& growing(ui::RunSet& runs, int iterations, const std::function<int(int)>& kOf, int splitAt)
{
    ui::RunSeries& run = runs.add("grow", "host");
    run.beginRun(1000, 10);
    for (int it = 1; it <= iterations; ++it) {
        IterationStats stats;
        stats.iteration = it;
        stats.k = kOf(it);
        stats.inertia = 100.0 / it;
        stats.sizes.assign(static_cast<std::size_t>(stats.k), 1000 / stats.k);
        if (it == splitAt) stats.event = "split " + std::to_string(kOf(it - 1)) + " of " + std::to_string(kOf(it - 1)) + " clusters";
        run.addIteration(stats);
    }
    return run;
}

}  // namespace

class TestPlots : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        const Dataset data = makeDemo("blobs:n=5000,d=4,k=5,seed=3");
        KMeansParams params;
        params.k = 5;
        ui::RunSeries& run = m_runs.add("run", "host");
        run.beginRun(data.rows, params.maxIterations);
        RunControl control;
        control.onIteration = [&run](const IterationStats& s) { run.addIteration(s); };
        const RunReport report = runClustering(data, params, parseTopology("host"), 1, control);
        ui::RunOutcome outcome;
        outcome.iterations = report.result.iterations;
        outcome.k = report.result.k;
        // A power trace as the sampler would give it: 20 W for one second.
        ui::PowerBatch power;
        power.devices << "cpu package 0 (measured)";
        power.samples = {{0.0, 0, 20.0, PowerKind::Measured}, {1.0, 0, 20.0, PowerKind::Measured}};
        run.addPower(power);
        run.finish(outcome);
        m_iterations = report.result.iterations;
        QVERIFY(m_iterations >= 2);
    }

    void evolutionStacksSizesToRowCount()
    {
        ui::EvolutionPlot plot;
        plot.refresh(m_runs);
        QCOMPARE(plot.sizeBandCount(), 5);
        // The legend names every band it draws.
        for (int c = 0; c < 5; ++c) QVERIFY(plot.legend->hasItemWithPlottable(plot.sizeBand(c)));
        QCOMPARE(plot.kGraph()->dataCount(), m_iterations);
        QCPGraph* top = plot.sizeBand(4);
        QCOMPARE(top->dataCount(), m_iterations);
        for (auto it = top->data()->constBegin(); it != top->data()->constEnd(); ++it) QCOMPARE(it->value, 5000.0);
        // Drawing again (a live update) replaces, never appends.
        plot.refresh(m_runs);
        QCOMPARE(plot.kGraph()->dataCount(), m_iterations);
    }

    void evolutionLegendNamesWhatItDraws()
    {
        // AdaptGrow growing to 10, then to 20 clusters: every band up to 16 is listed, and
        // the 16th says how many more the stack holds.
        for (const int k : {10, 20}) {
            ui::RunSet runs;
            growing(runs, 3, [k](int it) { return it == 1 ? 2 : k; }, 0);
            ui::EvolutionPlot plot;
            plot.refresh(runs);
            QCOMPARE(plot.sizeBandCount(), k);
            int listed = 0;
            for (int c = 0; c < k; ++c) listed += plot.legend->hasItemWithPlottable(plot.sizeBand(c)) ? 1 : 0;
            QCOMPARE(listed, std::min(k, 16));
            if (k > 16) QVERIFY2(plot.sizeBand(15)->name().contains("16-19"), qPrintable(plot.sizeBand(15)->name()));
        }
    }

    void evolutionLegendIsInAPictureDrawnOffScreen()
    {
        // A report draws graphs never shown nor replotted (no event loop runs): the
        // legend must be laid out in its strip below the axes for the picture all the
        // same, not left in no layout (drawn nowhere to be seen).
        QTemporaryDir dir;
        ui::EvolutionPlot plot;
        plot.resize(820, 440);
        plot.refresh(m_runs);
        QVERIFY(plot.exportTo(dir.filePath("evolution.svg")));
        const QRect legend = plot.legend->outerRect();
        QVERIFY2(!legend.isEmpty() && legend.top() >= plot.axisRect()->outerRect().bottom() && legend.bottom() <= plot.height(),
                 qPrintable(QString("legend at %1,%2 %3x%4").arg(legend.x()).arg(legend.y()).arg(legend.width()).arg(legend.height())));
    }

    void evolutionCountsKInWholeNumbers()
    {
        // AdaptGrow growing to k = 10: k's axis spans 0 to 12, which automatic ticks cut
        // at 2.5 and 7.5.
        ui::RunSet runs;
        growing(runs, 3, [](int it) { return it == 1 ? 2 : 10; }, 0);
        ui::EvolutionPlot plot;
        plot.resize(820, 440);
        plot.refresh(runs);
        plot.replot();
        QVERIFY(plot.yAxis2->tickVector().size() >= 3);
        for (const QString& label : plot.yAxis2->tickVectorLabels()) QVERIFY2(!label.contains('.'), qPrintable(label));
    }

    void evolutionMarksStayOnTheGraph()
    {
        // Growth that stopped after the last iteration, as AdaptGrow's log says it: its
        // mark and label stand at the graph's end, not past it (where the label was cut).
        ui::RunSet runs;
        ui::RunSeries& run = growing(runs, 6, [](int it) { return it < 4 ? 2 : 4; }, 4);
        ui::RunOutcome outcome;
        outcome.iterations = 6;
        outcome.k = 4;
        outcome.growth.stop = GrowthStop::NoSplit;
        outcome.growth.stopIteration = 6;
        run.finish(outcome);
        ui::EvolutionPlot plot;
        plot.resize(900, 600);
        plot.refresh(runs);
        plot.replot();
        int labels = 0;
        for (int i = 0; i < plot.itemCount(); ++i) {
            auto* label = qobject_cast<QCPItemText*>(plot.item(i));
            if (!label || label->text().isEmpty()) continue;
            ++labels;
            QVERIFY2(label->position->coords().x() <= plot.xAxis->range().upper, qPrintable(label->text()));
            // A label at the right end reads leftwards from its mark.
            if (label->text().startsWith("growth stopped")) QVERIFY(label->positionAlignment() & Qt::AlignRight);
        }
        QCOMPARE(labels, 2);
    }

    void clustersSayWhatToDoBeforeAnyRun()
    {
        ui::ClustersPlot plot;
        QVERIFY(plot.placeholderShown());
        QVERIFY(!plot.xAxis->tickLabels());
        // A run without a projection yet (still running) draws no points: still the hint.
        plot.refresh(m_runs);
        QCOMPARE(plot.pointCount(), 0);
        QVERIFY(plot.placeholderShown());
    }

    void latencyHasOneBarPerIterationAndPhase()
    {
        ui::LatencyPlot plot;
        plot.refresh(m_runs);
        QCOMPARE(plot.assignBars()->dataCount(), m_iterations);
        QCOMPARE(plot.reduceBars()->dataCount(), m_iterations);
        QVERIFY(plot.percentiles().p99 >= plot.percentiles().p50);
        const QStringList lines = plot.csv().trimmed().split('\n');
        QCOMPARE(lines.size(), m_iterations + 1);
        QCOMPARE(lines.front(), QString("iteration,round,assign_ms,update_ms,reduce_ms,total_ms"));
    }

    void powerIntegratesEnergy()
    {
        ui::PowerPlot plot;
        plot.refresh(m_runs);
        QCOMPARE(plot.graphCount(), 1);
        QCOMPARE(plot.graph(0)->name(), QString("cpu package 0 (measured)"));
        // The outcome carries no summary here, so the trace is integrated: 20 W x 1 s.
        QCOMPARE(plot.energyJoules(), 20.0);
        QCOMPARE(plot.pointsPerJoule(), 5000.0 * m_iterations / 20.0);
    }

    void exportsEveryFormat()
    {
        QTemporaryDir dir;
        ui::LatencyPlot plot;
        plot.resize(640, 400);
        plot.refresh(m_runs);
        for (const char* name : {"latency.png", "latency.pdf", "latency.svg"}) {
            QString error;
            QVERIFY2(plot.exportTo(dir.filePath(name), &error), qPrintable(error));
            QVERIFY(QFile(dir.filePath(name)).size() > 500);
        }
        QFile svg(dir.filePath("latency.svg"));
        QVERIFY(svg.open(QIODevice::ReadOnly));
        QVERIFY(svg.readAll().contains("<svg"));
        // Written through temporary files renamed into place: nothing else is left, and
        // an export that cannot be written says so.
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).size(), 3);
        QString error;
        QVERIFY(!plot.exportTo(dir.filePath("missing/latency.png"), &error));
        QVERIFY2(error.contains("missing/latency.png"), qPrintable(error));
        // A kept file (the run store) is never replaced, under any name that reaches it.
        QFile store(dir.filePath("runs.sqlite"));
        QVERIFY(store.open(QIODevice::WriteOnly) && store.write("SQLite format 3") > 0);
        store.close();
        QVERIFY(QFile::link(store.fileName(), dir.filePath("store.png")));
        plot.keepFromExports({{store.fileName().toStdString(), "the run store"}});
        QVERIFY(!plot.exportTo(dir.filePath("store.png"), &error));
        QVERIFY2(error.contains("would overwrite the run store"), qPrintable(error));
        QVERIFY(store.open(QIODevice::ReadOnly));
        QCOMPARE(store.readAll(), QByteArray("SQLite format 3"));
    }

    void copiesDataAsCsv()
    {
        ui::EvolutionPlot plot;
        plot.refresh(m_runs);
        plot.copyCsvToClipboard();
        const QString text = QApplication::clipboard()->text();
        QVERIFY(text.startsWith("iteration,round,k,inertia,size_0,"));
        QCOMPARE(text.trimmed().split('\n').size(), m_iterations + 1);
    }

private:
    ui::RunSet m_runs;
    int m_iterations = 0;
};

QTEST_MAIN(TestPlots)
#include "test_plots.moc"
