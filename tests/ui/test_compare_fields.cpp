// The Compare dialog's rows: readable names and units, only the fields that apply to
// the two runs, differences marked, one energy row per power source.
#include "ui/history/compare_fields.h"

#include <QTest>

#include <algorithm>

using namespace clusterdesk;

namespace {

store::RunInfo run(const char* id, const char* params, const char* metrics)
{
    store::RunInfo info;
    info.id = id;
    info.paramsJson = params;
    info.metricsJson = metrics;
    info.status = store::RunStatus::Ok;
    info.threads = 1;
    info.energyJ = 0.0123;
    info.energySource = "estimated";
    return info;
}

const ui::CompareRow* find(const std::vector<ui::CompareRow>& rows, const QString& name)
{
    const auto at = std::find_if(rows.begin(), rows.end(), [&](const ui::CompareRow& r) { return r.name == name; });
    return at == rows.end() ? nullptr : &*at;
}

const char* kKMeans = R"json({"algorithm":"kmeans","k":5,"k0":2,"kmax":64,"merge":true,"n_init":1,"init":"kmeans++",
    "parallel_rounds":5,"oversampling":2.0,"split_iterations":8,"max_rounds":32,"max_iterations":100,"tolerance":0.0001,
    "mode":"fast","precision":"fp32","seed":1})json";
const char* kMetrics = R"json({"k":5,"iterations":4,"converged":true,"inertia":3160056.9516251087,"seconds_total":0.007384543,
    "ms_per_iteration":0.32535775,"phases_ms":{"assign":1.046245,"init":0.653291,"reduce":0.00592,"update":0.249266},
    "power_devices":[{"joules":0.0123,"kind":"estimated","label":"cpu (2 hardware threads)","source":"estimated"}]})json";

}  // namespace

class TestCompareFields : public QObject {
    Q_OBJECT
private slots:
    void kmeansRunsShowOnlyWhatApplies()
    {
        const auto rows = ui::compareRows(run("aaaaaaaa-1", kKMeans, kMetrics), run("bbbbbbbb-2", kKMeans, kMetrics));
        QVERIFY(find(rows, "Clusters (k)"));
        QVERIFY(!find(rows, "At most kmax"));
        QVERIFY(!find(rows, "Split iterations"));
        QVERIFY(!find(rows, "k-means|| rounds"));
        QCOMPARE(std::count_if(rows.begin(), rows.end(), [](const ui::CompareRow& r) { return r.name == "Algorithm"; }), 1);
        QCOMPARE(find(rows, "Algorithm")->a, QString("k-means"));
        // Units a person reads, at sensible precision; nothing cut-off JSON.
        QCOMPARE(find(rows, "Wall time")->a, QString("7.38 ms"));
        QCOMPARE(find(rows, "Assign (in all)")->a, QString("1.05 ms"));
        QCOMPARE(find(rows, "Inertia")->a, QString("3.16006e+06"));
        QVERIFY(find(rows, "Energy: cpu (2 hardware threads)"));
        for (const ui::CompareRow& row : rows) QVERIFY2(!row.a.contains('{') && !row.a.contains('['), qPrintable(row.name + ": " + row.a));
        // Only the run ids differ.
        QVERIFY(find(rows, "Run")->differs());
        QVERIFY(!find(rows, "Clusters (k)")->differs());
    }

    void adaptGrowAgainstKMeans()
    {
        QByteArray grow(kKMeans);
        grow.replace("\"algorithm\":\"kmeans\"", "\"algorithm\":\"adaptgrow\"");
        const auto rows = ui::compareRows(run("aaaaaaaa-1", kKMeans, kMetrics), run("bbbbbbbb-2", grow.constData(), kMetrics));
        const ui::CompareRow* kmax = find(rows, "At most kmax");
        QVERIFY(kmax);
        QVERIFY(kmax->a.isEmpty());  // it does not apply to the k-means run
        QCOMPARE(kmax->b, QString("64"));
        QVERIFY(kmax->differs());
        QVERIFY(find(rows, "Algorithm")->differs());
        QCOMPARE(find(rows, "Clusters (k)")->b, QString());
        // Restarts apply to both: AdaptGrow's compete at the k it chose.
        QCOMPARE(find(rows, "Initialisations")->b, QString("1"));
        QVERIFY(!find(rows, "k-means|| rounds"));
    }

    void parallelInitShowsItsSettings()
    {
        QByteArray parallel(kKMeans);
        parallel.replace("\"init\":\"kmeans++\"", "\"init\":\"kmeans||\"");
        const auto rows = ui::compareRows(run("aaaaaaaa-1", kKMeans, kMetrics), run("bbbbbbbb-2", parallel.constData(), kMetrics));
        const ui::CompareRow* rounds = find(rows, "k-means|| rounds");
        QVERIFY(rounds);
        QCOMPARE(rounds->a, QString());
        QCOMPARE(rounds->b, QString("5"));
        QCOMPARE(find(rows, "k-means|| oversampling")->b, QString("2"));
    }
};

QTEST_GUILESS_MAIN(TestCompareFields)
#include "test_compare_fields.moc"
