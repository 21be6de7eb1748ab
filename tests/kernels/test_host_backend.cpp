// Host backend edge cases that whole runs rarely reach: Hamerly bounds under many tiny
// centroid moves (rounding must never tighten a bound), and tracked sums against a
// recount after labels move.
#include "kernels/backend_registry.h"

#include <QTest>

using namespace clusterdesk::kernels;

class TestHostBackend : public QObject {
    Q_OBJECT

private slots:
    // One row at 100, centroid A at 200 and B creeping up from -0.003 by 3.5e-6 per
    // step: each move is below half an ulp of the bounds, yet after enough steps B is
    // nearer. A bounded assignment must notice exactly when a full search (same mode) does.
    void boundsSurviveManyTinyMoves_data()
    {
        QTest::addColumn<int>("mode");
        QTest::newRow("exact") << int(Mode::Exact);
        QTest::newRow("fast") << int(Mode::Fast);
    }

    void boundsSurviveManyTinyMoves()
    {
        QFETCH(int, mode);
        auto backend = createBackend("host");
        const std::vector<float> rows{100.f};
        auto bounded = backend->upload({rows.data(), 1, 1}, 0);
        auto plain = backend->upload({rows.data(), 1, 1}, 0);
        std::vector<float> centroids{200.f, -0.003f};
        backend->assignBounded(*bounded, centroids, 2, static_cast<Mode>(mode), Precision::FP32, nullptr);
        std::int32_t boundedLabel = 0, plainLabel = 0;
        int flips = 0;
        for (int step = 0; step < 1500; ++step) {
            const std::vector<float> before = centroids;
            centroids[1] += 3.5e-6f;
            const CentroidMotion motion = measureMotion(before, centroids, 1);
            backend->assignBounded(*bounded, centroids, 2, static_cast<Mode>(mode), Precision::FP32, &motion);
            backend->assign(*plain, centroids, 2, static_cast<Mode>(mode), Precision::FP32);
            backend->downloadLabels(*bounded, std::span(&boundedLabel, 1));
            const std::int32_t previous = plainLabel;
            backend->downloadLabels(*plain, std::span(&plainLabel, 1));
            flips += plainLabel != previous;
            QCOMPARE(boundedLabel, plainLabel);
        }
        QCOMPARE(flips, 1);  // the scenario really crosses over
    }

    void trackedSumsFollowMovedRows()
    {
        auto backend = createBackend("host");
        std::vector<float> rows;
        for (int i = 0; i < 1000; ++i) rows.insert(rows.end(), {static_cast<float>(i % 17), static_cast<float>(i % 5) - 2.f});
        auto shard = backend->upload({rows.data(), 1000, 2}, 0);
        const FixedPointScales scales{{1 << 20, 1 << 20}, 1 << 10};
        PartialSums incremental, recount;
        std::vector<float> centroids{0.f, 0.f, 10.f, 0.f, 16.f, 2.f};
        for (Mode mode : {Mode::Exact, Mode::Fast}) {
            backend->assign(*shard, centroids, 3, mode, Precision::FP32);
            backend->trackedSums(*shard, 3, mode, &scales, true, incremental);
            centroids[2] = 4.f;  // rows change cluster
            backend->assign(*shard, centroids, 3, mode, Precision::FP32);
            backend->trackedSums(*shard, 3, mode, &scales, false, incremental);
            backend->trackedSums(*shard, 3, mode, &scales, true, recount);
            QCOMPARE(incremental.counts, recount.counts);
            QCOMPARE(incremental.fixedSums, recount.fixedSums);
            QCOMPARE(incremental.fixedDist, recount.fixedDist);
            QCOMPARE(incremental.sums, recount.sums);  // small integers: exact in double too
            QCOMPARE(incremental.distSums, recount.distSums);
            centroids[2] = 10.f;
        }
    }
};

QTEST_APPLESS_MAIN(TestHostBackend)
#include "test_host_backend.moc"
