// Several runs side by side: the graphs draw every member of a RunSet (Clusters the
// selected one), named as the runs, with exactly the points each run holds; a running
// and a finished run coexist; removing a run removes its graphs. Histories are made up
// here, so every count is known.
#include "ui/plots/clusters_plot.h"
#include "ui/plots/evolution_plot.h"
#include "ui/plots/latency_plot.h"
#include "ui/plots/power_plot.h"
#include "ui/run_set.h"

#include <QSignalSpy>
#include <QTest>

using namespace clusterdesk;

namespace {

// `iterations` k-means iterations at k clusters of 100 rows each, inertia falling from
// `inertia`, each phase taking `ms`.
void feed(ui::RunSeries& run, int iterations, int k, double inertia, double ms)
{
    run.beginRun(100 * k, 50);
    for (int i = 1; i <= iterations; ++i) {
        IterationStats s;
        s.iteration = i;
        s.k = k;
        s.inertia = inertia / i;
        s.sizes.assign(static_cast<std::size_t>(k), 100);
        s.assignMs = s.updateMs = s.reduceMs = ms;
        run.addIteration(s);
    }
}

void finish(ui::RunSeries& run)
{
    ui::RunOutcome outcome;
    outcome.iterations = static_cast<int>(run.iterations().size());
    outcome.k = run.iterations().back().k;
    run.finish(outcome);
}

// `samples` readings of one device, one a second.
void addPower(ui::RunSeries& run, const QString& device, int samples, double watts)
{
    ui::PowerBatch batch;
    batch.devices << device;
    for (int i = 0; i < samples; ++i) batch.samples.push_back({double(i), 0, watts, PowerKind::Measured});
    run.addPower(batch);
}

// `points` rows all in cluster 0, on a line.
ui::ClusterProjection projection(int points)
{
    ui::ClusterProjection p;
    for (int i = 0; i < points; ++i) {
        p.x.push_back(i);
        p.y.push_back(i);
        p.cluster.push_back(0);
        p.row.push_back(i);
    }
    p.centroidX = {0};
    p.centroidY = {0};
    p.totalRows = points;
    p.clusterRows = {points};
    return p;
}

// The names the legend shows, in its order.
QStringList legendNames(const QCustomPlot& plot)
{
    QStringList names;
    for (int i = 0; i < plot.legend->itemCount(); ++i)
        if (auto* item = dynamic_cast<QCPPlottableLegendItem*>(plot.legend->item(i))) names << item->plottable()->name();
    return names;
}

}  // namespace

class TestRunSet : public QObject {
    Q_OBJECT

private slots:
    void init()
    {
        m_runs = std::make_unique<ui::RunSet>();
        ui::RunSeries& host = m_runs->add("a", "host");
        feed(host, 4, 3, 900, 1.0);
        addPower(host, "cpu package 0 (measured)", 5, 20);
        host.setProjection(projection(7));
        finish(host);
        ui::RunSeries& pool = m_runs->add("b", "pool:2");
        feed(pool, 6, 5, 500, 2.0);
        addPower(pool, "gpu 0 (measured)", 3, 200);
        pool.setProjection(projection(11));
        finish(pool);
    }

    void setFindsSelectsAndRemovesByIdAndSaysSo()
    {
        QSignalSpy changed(m_runs.get(), &ui::RunSet::changed);
        QCOMPARE(m_runs->size(), 2);
        QCOMPARE(m_runs->find("b")->name(), QString("pool:2"));
        QCOMPARE(m_runs->find("c"), nullptr);
        QCOMPARE(m_runs->selected()->id(), QString("a"));  // the first added, until one is selected
        m_runs->select("b");
        QCOMPARE(m_runs->selected()->id(), QString("b"));
        QVERIFY(!m_runs->remove("c"));
        QVERIFY(m_runs->remove("b"));
        QCOMPARE(m_runs->selected()->id(), QString("a"));  // the selected one is gone
        QCOMPARE(changed.count(), 2);                        // select, remove
        m_runs->find("a")->addIteration({});
        QCOMPARE(changed.count(), 3);  // a member's change is the set's
    }

    void evolutionDrawsOneInertiaCurvePerRun()
    {
        ui::EvolutionPlot plot;
        plot.refresh(*m_runs);
        QCOMPARE(plot.runInertiaCount(), 2);
        QCOMPARE(plot.sizeBandCount(), 0);  // stacked sizes are for one run
        QCOMPARE(plot.graphCount(), 4);     // inertia and k of each run
        QCOMPARE(legendNames(plot), QStringList({"host", "pool:2"}));
        for (int r = 0; r < 2; ++r) {
            QCOMPARE(plot.runInertia(r)->name(), m_runs->at(r).name());
            QCOMPARE(plot.runInertia(r)->dataCount(), int(m_runs->at(r).iterations().size()));
            QCOMPARE(plot.runInertia(r)->data()->at(0)->value, m_runs->at(r).iterations().front().inertia);
        }
        const QStringList csv = plot.csv().trimmed().split('\n');
        QCOMPARE(csv.front(), QString("run,iteration,round,k,inertia,event"));
        QCOMPARE(csv.size(), 1 + 4 + 6);
        QVERIFY(csv.back().startsWith("pool:2,6,"));
    }

    void latencyDrawsEachRunsPhases()
    {
        ui::LatencyPlot plot;
        plot.refresh(*m_runs);
        QCOMPARE(plot.runBarsCount(), 2);
        QCOMPARE(legendNames(plot), QStringList({"host", "pool:2"}));
        for (int r = 0; r < 2; ++r) {
            const ui::LatencyPlot::PhaseBars bars = plot.runBars(r);
            const int iterations = int(m_runs->at(r).iterations().size());
            QCOMPARE(bars.assign->name(), m_runs->at(r).name());
            QCOMPARE(bars.assign->dataCount(), iterations);
            QCOMPARE(bars.update->dataCount(), iterations);
            QCOMPARE(bars.reduce->dataCount(), iterations);
            QCOMPARE(bars.reduce->data()->at(0)->value, m_runs->at(r).iterations().front().reduceMs);
            QCOMPARE(bars.reduce->barBelow(), bars.update);  // stacked
            QCOMPARE(bars.update->barBelow(), bars.assign);
        }
        QVERIFY(!plot.assignBars()->visible());
        QCOMPARE(plot.assignBars()->dataCount(), 0);
        const QStringList csv = plot.csv().trimmed().split('\n');
        QCOMPARE(csv.front(), QString("run,iteration,round,assign_ms,update_ms,reduce_ms,total_ms"));
        QCOMPARE(csv.size(), 1 + 4 + 6);
    }

    void powerDrawsEveryRunsDevices()
    {
        ui::PowerPlot plot;
        plot.refresh(*m_runs);
        QCOMPARE(plot.graphCount(), 2);
        QCOMPARE(legendNames(plot), QStringList({"host: cpu package 0 (measured)", "pool:2: gpu 0 (measured)"}));
        QCOMPARE(plot.graph(0)->dataCount(), 5);
        QCOMPARE(plot.graph(1)->dataCount(), 3);
        QCOMPARE(plot.energyJoules(), 80.0);  // the selected run (host): 20 W for 4 s
        // Finished without an energy summary: each run's joules integrated from its samples.
        QCOMPARE(plot.title(), QString("Power per device: host 80 J (integrated from the samples), "
                                       "pool:2 400 J (integrated from the samples)"));
        m_runs->select("b");
        plot.refresh(*m_runs);
        QCOMPARE(plot.energyJoules(), 400.0);  // 200 W for 2 s
    }

    void clustersLegendGivesEachClustersSizeNotItsSample()
    {
        // 100 rows, a sample of 10 drawn: cluster 0 holds 60 rows (6 drawn), cluster 1 40 (4);
        // the title says how many are drawn.
        ui::ClusterProjection sampled;
        for (int i = 0; i < 10; ++i) {
            sampled.x.push_back(i);
            sampled.y.push_back(i % 3);
            sampled.cluster.push_back(i < 6 ? 0 : 1);
            sampled.row.push_back(10 * i);
        }
        sampled.centroidX = {2, 7};
        sampled.centroidY = {1, 1};
        sampled.totalRows = 100;
        sampled.clusterRows = {60, 40};
        ui::RunSet runs;
        runs.add("s", "sampled").setProjection(sampled);
        ui::ClustersPlot plot;
        plot.refresh(runs);
        QCOMPARE(plot.pointCount(), 10);
        QCOMPARE(plot.graph(0)->name(), QString("cluster 0 (60)"));
        QCOMPARE(plot.graph(1)->name(), QString("cluster 1 (40)"));
    }

    void clustersDrawTheSelectedRun()
    {
        ui::ClustersPlot plot;
        plot.refresh(*m_runs);
        QCOMPARE(plot.pointCount(), 7);
        QVERIFY2(plot.title().startsWith("Clusters of host on the first two"), qPrintable(plot.title()));
        m_runs->select("b");
        plot.refresh(*m_runs);
        QCOMPARE(plot.pointCount(), 11);
        QVERIFY2(plot.title().startsWith("Clusters of pool:2 on"), qPrintable(plot.title()));
        // Alone again, the run needs no name: the title is the single-run one.
        QVERIFY(m_runs->remove("a"));
        plot.refresh(*m_runs);
        QCOMPARE(plot.pointCount(), 11);
        QVERIFY2(plot.title().startsWith("Clusters on the first two"), qPrintable(plot.title()));
    }

    void runningAndFinishedRunsCoexist()
    {
        ui::RunSeries& live = m_runs->add("live", "host");
        feed(live, 2, 2, 300, 0.5);
        QVERIFY(live.running());
        QVERIFY(m_runs->find("a")->finished());
        ui::EvolutionPlot evolution;
        ui::LatencyPlot latency;
        evolution.refresh(*m_runs);
        latency.refresh(*m_runs);
        QCOMPARE(evolution.runInertiaCount(), 3);
        QCOMPARE(evolution.runInertia(2)->dataCount(), 2);
        QCOMPARE(latency.runBars(2).assign->dataCount(), 2);

        // The live run goes on: only its curve grows, the finished runs stay as they were.
        IterationStats next;
        next.iteration = 3;
        next.k = 2;
        live.addIteration(next);
        evolution.refresh(*m_runs);
        QCOMPARE(evolution.runInertia(0)->dataCount(), 4);
        QCOMPARE(evolution.runInertia(1)->dataCount(), 6);
        QCOMPARE(evolution.runInertia(2)->dataCount(), 3);
        finish(live);
        QVERIFY(live.finished());
    }

    void removingARunRemovesItsGraphs()
    {
        m_runs->add("c", "cuda:0,1");
        feed(*m_runs->find("c"), 3, 4, 700, 1.5);
        ui::EvolutionPlot evolution;
        ui::LatencyPlot latency;
        ui::PowerPlot power;
        for (ui::PlotView* plot : std::initializer_list<ui::PlotView*>{&evolution, &latency, &power}) plot->refresh(*m_runs);
        QCOMPARE(legendNames(evolution), QStringList({"host", "pool:2", "cuda:0,1"}));

        QVERIFY(m_runs->remove("b"));
        for (ui::PlotView* plot : std::initializer_list<ui::PlotView*>{&evolution, &latency, &power}) plot->refresh(*m_runs);
        QCOMPARE(legendNames(evolution), QStringList({"host", "cuda:0,1"}));
        QCOMPARE(evolution.graphCount(), 4);
        QCOMPARE(legendNames(latency), QStringList({"host", "cuda:0,1"}));
        QCOMPARE(latency.plottableCount(), 3 + 2 * 3);  // the hidden single-run phases, and each run's
        QCOMPARE(legendNames(power), QStringList({"host: cpu package 0 (measured)"}));  // cuda:0,1 reported no power

        // Down to one run: its own detail again, stacked sizes and phases.
        QVERIFY(m_runs->remove("c"));
        evolution.refresh(*m_runs);
        latency.refresh(*m_runs);
        QCOMPARE(evolution.runInertiaCount(), 0);
        QCOMPARE(evolution.sizeBandCount(), 3);
        QCOMPARE(evolution.kGraph()->dataCount(), 4);
        QCOMPARE(latency.runBarsCount(), 0);
        QCOMPARE(latency.plottableCount(), 3);
        QVERIFY(latency.assignBars()->visible());
        QCOMPARE(latency.assignBars()->dataCount(), 4);
        QCOMPARE(legendNames(latency).size(), 3);  // the three phases
    }

private:
    std::unique_ptr<ui::RunSet> m_runs;
};

QTEST_MAIN(TestRunSet)
#include "test_run_set.moc"
