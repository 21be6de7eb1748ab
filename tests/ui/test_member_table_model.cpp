// The Members table's sort and filter: every column both ways, ties in the
// membership's order, rows without a value last, names in any case, cluster numbers;
// worked out on a pool thread, the table showing the old rows until the new ones are
// ready, a newer request or membership winning over a pending one, a selected member
// followed through a sort and a filter, a model ended mid-sort. Memberships are made up here, so every key is known.
#include "ui/members/member_order.h"
#include "ui/members/member_table_model.h"

#include <QItemSelectionModel>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>
#include <QThreadPool>

#include <algorithm>
#include <random>
#include <set>

using namespace clusterdesk;
using ui::MemberTableModel;

namespace {

// n members over k clusters of unequal sizes, in the membership's order (by cluster);
// names in both cases, each its own; distances coarse (ties); only even clusters have
// returns (price data with gaps, so "no value" is exercised).
std::shared_ptr<report::Membership> madeUp(int n, int k, unsigned seed)
{
    auto m = std::make_shared<report::Membership>();
    std::mt19937 rng(seed);
    for (int c = 0; c < k; ++c) {
        report::ClusterProfile profile;
        profile.cluster = c;
        if (c % 2 == 0) {
            profile.meanReturn = 0.001 * static_cast<double>(rng() % 7) - 0.003;
            profile.volatility = 0.01 * static_cast<double>(1 + rng() % 5);
        }
        m->clusters.push_back(profile);
    }
    for (int i = 0; i < n; ++i) {
        const double at = static_cast<double>(i) / n;
        const int cluster = static_cast<int>(at * at * k);
        const char* prefix = (rng() % 2) ? "S" : "s";
        m->members.push_back({std::string(prefix) + std::to_string(rng() % 50) + "_" + std::to_string(i), cluster,
                              0.25 * static_cast<double>(rng() % 16)});
        ++m->clusters[static_cast<std::size_t>(cluster)].size;
    }
    return m;
}

// The value a row sorts by, as the table's sort role gives it (invalid: none).
QVariant key(const report::Membership& m, std::int32_t row, int column)
{
    const report::Member& member = m.members[static_cast<std::size_t>(row)];
    const report::ClusterProfile& cluster = m.clusters[static_cast<std::size_t>(member.cluster)];
    switch (column) {
    case MemberTableModel::Name: return QString::fromStdString(member.name);
    case MemberTableModel::Cluster: return member.cluster;
    case MemberTableModel::Distance: return member.distance;
    case MemberTableModel::ClusterSize: return qlonglong(cluster.size);
    case MemberTableModel::MeanReturn: return cluster.meanReturn ? QVariant(*cluster.meanReturn) : QVariant();
    case MemberTableModel::Volatility: return cluster.volatility ? QVariant(*cluster.volatility) : QVariant();
    default: return {};
    }
}

// -1, 0, 1 as a < b, a == b, a > b (both with values).
int compare(const QVariant& a, const QVariant& b)
{
    if (a.typeId() == QMetaType::QString) {
        const std::string x = a.toString().toStdString(), y = b.toString().toStdString();
        return x < y ? -1 : (y < x ? 1 : 0);
    }
    const double x = a.toDouble(), y = b.toDouble();
    return x < y ? -1 : (y < x ? 1 : 0);
}

// rows is the kept rows in the asked order: no row twice, each adjacent pair in order
// (ties by membership index), those without a value after all those with one.
void checkOrder(const report::Membership& m, const std::vector<std::int32_t>& rows, int column, bool descending)
{
    QCOMPARE(std::set<std::int32_t>(rows.begin(), rows.end()).size(), rows.size());
    for (std::size_t i = 1; i < rows.size(); ++i) {
        const QVariant a = key(m, rows[i - 1], column), b = key(m, rows[i], column);
        QVERIFY2(a.isValid() || !b.isValid(), "a row without a value before one with a value");
        if (!a.isValid() || !b.isValid()) {
            if (!a.isValid() && !b.isValid()) QVERIFY(rows[i - 1] < rows[i]);
            continue;
        }
        const int c = compare(a, b) * (descending ? -1 : 1);
        QVERIFY2(c < 0 || (c == 0 && rows[i - 1] < rows[i]),
                 qPrintable(QString("column %1 at %2: %3 then %4").arg(column).arg(i).arg(a.toString(), b.toString())));
    }
}

std::vector<std::int32_t> shown(const MemberTableModel& model)
{
    std::vector<std::int32_t> rows;
    const auto& members = model.membership()->members;
    for (int r = 0; r < model.rowCount(); ++r) {
        const std::string name = model.index(r, MemberTableModel::Name).data().toString().toStdString();
        const auto at = std::find_if(members.begin(), members.end(), [&](const report::Member& m) { return m.name == name; });
        rows.push_back(at == members.end() ? -1 : static_cast<std::int32_t>(at - members.begin()));
    }
    return rows;
}

// Every pool task finished and its result delivered (or dropped), including the
// task a superseded one's end starts for the latest request.
void settle()
{
    do {
        QThreadPool::globalInstance()->waitForDone();
        QCoreApplication::processEvents();
    } while (QThreadPool::globalInstance()->activeThreadCount() > 0);
}

}  // namespace

class TestMemberTableModel : public QObject {
    Q_OBJECT
private slots:
    void everyColumnSortsBothWays()
    {
        const auto m = madeUp(3000, 9, 1);
        for (int column = 0; column < MemberTableModel::ColumnCount; ++column) {
            for (const bool descending : {false, true}) {
                const auto rows = ui::arrangeMembers(*m, {column, descending, {}});
                QCOMPARE(rows.size(), m->members.size());
                checkOrder(*m, rows, column, descending);
                if (QTest::currentTestFailed()) return;
            }
        }
        // Ascending by cluster is the membership as it came: nearest first within a cluster.
        const auto asIs = ui::arrangeMembers(*m, {});
        for (std::size_t i = 0; i < asIs.size(); ++i) QCOMPARE(asIs[i], std::int32_t(i));
    }

    void filtersByNameInAnyCaseOrByClusterNumber()
    {
        const auto m = madeUp(3000, 9, 2);
        const auto named = ui::arrangeMembers(*m, {MemberTableModel::Distance, false, "s1_"});
        std::size_t expected = 0;
        for (const report::Member& member : m->members)
            expected += QString::fromStdString(member.name).contains("S1_", Qt::CaseInsensitive);
        QVERIFY(expected > 0 && expected < m->members.size());
        QCOMPARE(named.size(), expected);
        for (const std::int32_t row : named)
            QVERIFY(QString::fromStdString(m->members[static_cast<std::size_t>(row)].name).contains("s1_", Qt::CaseInsensitive));
        checkOrder(*m, named, MemberTableModel::Distance, false);

        const auto cluster = ui::arrangeMembers(*m, {MemberTableModel::Name, true, " 4 "});
        QCOMPARE(qlonglong(cluster.size()), qlonglong(m->clusters[4].size));
        for (const std::int32_t row : cluster) QCOMPARE(m->members[static_cast<std::size_t>(row)].cluster, 4);
        QVERIFY(ui::arrangeMembers(*m, {MemberTableModel::Name, false, "no such asset"}).empty());
    }

    void sortsOffTheUiThreadShowingTheOldRowsMeanwhile()
    {
        const auto m = madeUp(200000, 40, 3);
        MemberTableModel model;
        model.setMembership(m);
        QVERIFY(!model.isArranging());  // the membership's own order needs no sort
        QSignalSpy arranged(&model, &MemberTableModel::arranged);
        QSignalSpy arranging(&model, &MemberTableModel::arrangingChanged);
        model.sort(MemberTableModel::Distance, Qt::DescendingOrder);
        // The result can only arrive through the event loop, which has not run yet.
        QVERIFY(model.isArranging());
        QCOMPARE(arranging.size(), 1);
        QCOMPARE(arranging.front().front().toBool(), true);
        QCOMPARE(model.index(0, MemberTableModel::Distance).data(MemberTableModel::kSortRole).toDouble(), m->members[0].distance);
        QVERIFY(arranged.wait(60000));
        QVERIFY(!model.isArranging());
        QCOMPARE(arranging.back().front().toBool(), false);
        QCOMPARE(model.rowCount(), 200000);
        for (int r = 1; r < model.rowCount(); ++r)
            QVERIFY(model.index(r - 1, MemberTableModel::Distance).data(MemberTableModel::kSortRole).toDouble() >=
                    model.index(r, MemberTableModel::Distance).data(MemberTableModel::kSortRole).toDouble());
    }

    void theLastRequestWins()
    {
        const auto m = madeUp(3000, 9, 4);
        MemberTableModel model;
        model.setMembership(m);
        QSignalSpy arranged(&model, &MemberTableModel::arranged);
        model.sort(MemberTableModel::Distance, Qt::AscendingOrder);
        model.setFilterText("s2");
        model.sort(MemberTableModel::Name, Qt::DescendingOrder);
        settle();
        QVERIFY(!model.isArranging());
        QCOMPARE(arranged.size(), 1);  // the two superseded results were dropped
        const ui::MemberArrangement last{MemberTableModel::Name, true, "s2"};
        QVERIFY(model.arrangement() == last);
        QCOMPARE(shown(model), ui::arrangeMembers(*m, last));
    }

    void aNewMembershipDropsAPendingSortAndIsSortedAlike()
    {
        const auto first = madeUp(50000, 12, 5);
        const auto second = madeUp(2000, 5, 6);
        MemberTableModel model;
        model.setMembership(first);
        model.sort(MemberTableModel::ClusterSize, Qt::DescendingOrder);
        model.setMembership(second);
        QCOMPARE(model.rowCount(), 2000);  // never the first's rows, even for a moment
        settle();
        QVERIFY(!model.isArranging());
        QCOMPARE(shown(model), ui::arrangeMembers(*second, {MemberTableModel::ClusterSize, true, {}}));
    }

    void theSelectionStaysOnItsMembersThroughSortsAndFilters()
    {
        const auto m = madeUp(3000, 9, 7);
        MemberTableModel model;
        model.setMembership(m);
        QTableView view;
        view.setModel(&model);
        view.setSelectionBehavior(QAbstractItemView::SelectRows);
        const std::int32_t member = 1234;  // the membership's order is shown
        view.selectRow(member);
        view.setCurrentIndex(model.index(member, MemberTableModel::Distance));
        const std::string name = m->members[member].name;
        const auto selectedNames = [&] {
            std::vector<std::string> names;
            for (const QModelIndex& row : view.selectionModel()->selectedRows(MemberTableModel::Name))
                names.push_back(row.data().toString().toStdString());
            return names;
        };
        model.sort(MemberTableModel::Name, Qt::AscendingOrder);
        settle();
        QCOMPARE(view.currentIndex().data(MemberTableModel::kSortRole).toDouble(), m->members[member].distance);
        QCOMPARE(view.currentIndex().column(), int(MemberTableModel::Distance));
        QCOMPARE(model.index(view.currentIndex().row(), MemberTableModel::Name).data().toString().toStdString(), name);
        QCOMPARE(selectedNames(), std::vector<std::string>{name});
        // A filter that keeps the member keeps it selected, on its new row.
        const QString part = QString::fromStdString(name.substr(name.find('_')));  // "_1234"
        model.setFilterText(part);
        settle();
        QVERIFY(model.rowCount() < 3000);
        QCOMPARE(selectedNames(), std::vector<std::string>{name});
        // One that leaves it out leaves nothing selected.
        model.setFilterText("no such asset");
        settle();
        QCOMPARE(model.rowCount(), 0);
        QVERIFY(selectedNames().empty());
        QVERIFY(!view.currentIndex().isValid());
    }

    void aModelEndedWhileSortingLeavesNothingBehind()
    {
        const auto m = madeUp(200000, 40, 8);
        {
            MemberTableModel model;
            model.setMembership(m);
            model.sort(MemberTableModel::Name, Qt::DescendingOrder);
            model.setFilterText("s1");
            QVERIFY(model.isArranging());
        }
        settle();  // the task ends with nothing to deliver to; the membership is the test's again
        QCOMPARE(m.use_count(), 1L);
    }
};

QTEST_MAIN(TestMemberTableModel)
#include "test_member_table_model.moc"
