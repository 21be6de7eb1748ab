// The History table's model and proxy on their own: numbers sort as numbers, missing
// values sort first, the filter matches any column or the full run id, and the status
// filter keeps only that status.
#include "ui/history/run_filter_proxy.h"
#include "ui/history/run_table_model.h"

#include <QTest>

using namespace clusterdesk;
using namespace clusterdesk::ui;

namespace {

store::RunInfo run(const std::string& id, const std::string& algorithm, store::RunStatus status, const std::string& metrics,
                   std::optional<double> energy)
{
    store::RunInfo r;
    r.id = id;
    r.algorithm = algorithm;
    r.status = status;
    r.metricsJson = metrics;
    r.energyJ = energy;
    r.dataSource = {"demo", "blobs:n=100", {}};
    r.startedAt = "2026-12-02T12:00:0" + id.substr(0, 1) + "Z";
    return r;
}

}  // namespace

class TestHistoryModel : public QObject {
    Q_OBJECT

private slots:
    void init()
    {
        m_model = std::make_unique<RunTableModel>();
        m_model->setRuns({run("1aaaaaaa-0001", "kmeans", store::RunStatus::Ok, R"({"k":9,"inertia":2.5,"seconds_total":0.5})", 12.5),
                          run("2bbbbbbb-0002", "adaptgrow", store::RunStatus::Ok, R"({"k":10,"inertia":100.0,"seconds_total":3})", 100.0),
                          run("3ccccccc-0003", "kmeans", store::RunStatus::Failed, "{}", std::nullopt)});
        m_proxy = std::make_unique<RunFilterProxy>();
        m_proxy->setSourceModel(m_model.get());
    }

    void numbersSortAsNumbers()
    {
        m_proxy->sort(RunTableModel::K, Qt::AscendingOrder);
        // Text would put "10" before "9"; the failed run has no k and comes first.
        QCOMPARE(column(RunTableModel::K), QStringList({"", "9", "10"}));
        m_proxy->sort(RunTableModel::Energy, Qt::DescendingOrder);
        QCOMPARE(column(RunTableModel::Energy), QStringList({"100 J", "12.5 J", ""}));
        m_proxy->sort(RunTableModel::Duration, Qt::AscendingOrder);
        QCOMPARE(column(RunTableModel::Duration), QStringList({"", "500 ms", "3 s"}));
    }

    void filterMatchesAnyColumnAndFullId()
    {
        m_proxy->setText("KMEANS");
        QCOMPARE(m_proxy->rowCount(), 2);
        m_proxy->setText("0002");  // only in the full id (the Run column shows 8 characters)
        QCOMPARE(m_proxy->rowCount(), 1);
        QCOMPARE(m_proxy->index(0, 0).data(RunTableModel::kRunIdRole).toString(), QString("2bbbbbbb-0002"));
        m_proxy->setText("");
        m_proxy->setStatus("failed");
        QCOMPARE(m_proxy->rowCount(), 1);
        m_proxy->setText("adaptgrow");
        QCOMPARE(m_proxy->rowCount(), 0);
    }

    void rowOfFindsRuns()
    {
        QCOMPARE(m_model->rowOf("3ccccccc-0003"), 2);
        QCOMPARE(m_model->rowOf("nope"), -1);
        QCOMPARE(m_model->columnCount(), int(RunTableModel::ColumnCount));
        QCOMPARE(m_model->headerData(RunTableModel::Ari, Qt::Horizontal).toString(), QString("ARI"));
    }

private:
    QStringList column(int c) const
    {
        QStringList values;
        for (int r = 0; r < m_proxy->rowCount(); ++r) values << m_proxy->index(r, c).data().toString();
        return values;
    }

    std::unique_ptr<RunTableModel> m_model;
    std::unique_ptr<RunFilterProxy> m_proxy;
};

QTEST_MAIN(TestHistoryModel)
#include "test_history_model.moc"
