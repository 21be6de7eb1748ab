// Host backend edge cases that whole runs rarely reach: Hamerly bounds under many tiny
// centroid moves (rounding must never tighten a bound), and tracked sums against a
// recount after labels move.
#include "kernels/backend_registry.h"

#include "doctest_support.h"

#include <cstdint>
#include <string>
#include <vector>

using namespace clusterdesk::kernels;

namespace {

struct BoundsSurviveManyTinyMovesRow {
    std::string tag;
    int mode;
};

std::vector<BoundsSurviveManyTinyMovesRow> boundsSurviveManyTinyMovesRows()
{
    std::vector<BoundsSurviveManyTinyMovesRow> rows;
    rows.push_back({"exact", int(Mode::Exact)});
    rows.push_back({"fast", int(Mode::Fast)});
    return rows;
}

}  // namespace

// One row at 100, centroid A at 200 and B creeping up from -0.003 by 3.5e-6 per
// step: each move is below half an ulp of the bounds, yet after enough steps B is
// nearer. A bounded assignment must notice exactly when a full search (same mode) does.
TEST_CASE("boundsSurviveManyTinyMoves")
{
    for (const BoundsSurviveManyTinyMovesRow& row : boundsSurviveManyTinyMovesRows()) {
        SUBCASE(row.tag.c_str())
        {
            const int& mode = row.mode;
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
                REQUIRE_EQ(boundedLabel, plainLabel);
            }
            REQUIRE_EQ(flips, 1);  // the scenario really crosses over
        }
    }
}

TEST_CASE("trackedSumsFollowMovedRows")
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
        REQUIRE_EQ(incremental.counts, recount.counts);
        REQUIRE_EQ(incremental.fixedSums, recount.fixedSums);
        REQUIRE_EQ(incremental.fixedDist, recount.fixedDist);
        REQUIRE_EQ(incremental.sums, recount.sums);  // small integers: exact in double too
        REQUIRE_EQ(incremental.distSums, recount.distSums);
        centroids[2] = 10.f;
    }
}

// Tile searches move the rows whose label they change in the tracked sums as they go;
// the next trackedSums adds that to what other writers of labels moved (updateNearest
// here). Several searches between two calls, bounded ones over listed rows among them,
// must still sum to a recount, over enough dimensions that row norms are kept.
TEST_CASE("trackedSumsFollowRowsMovedWhileSearching")
{
    auto backend = createBackend("host");
    constexpr int kRows = 6000;
    constexpr int kCols = 12;
    constexpr int kClusters = 6;
    std::vector<float> rows;
    for (int i = 0; i < kRows; ++i)
        for (int j = 0; j < kCols; ++j) rows.push_back(static_cast<float>((i * (3 + j) + j * j) % 23) - 11.f);
    auto shard = backend->upload({rows.data(), kRows, kCols}, 0);
    const FixedPointScales scales{std::vector<double>(kCols, 1 << 20), 1 << 10};
    for (Mode mode : {Mode::Exact, Mode::Fast}) {
        CAPTURE(toString(mode));
        std::vector<float> centroids(rows.begin(), rows.begin() + kClusters * kCols);
        PartialSums incremental, recount;
        backend->assign(*shard, centroids, kClusters, mode, Precision::FP32);
        backend->trackedSums(*shard, kClusters, mode, &scales, true, incremental);
        std::int64_t movedRows = 0;
        std::vector<std::int32_t> before(kRows), after(kRows);
        for (int step = 0; step < 4; ++step) {
            backend->downloadLabels(*shard, before);
            const std::vector<float> previous = centroids;
            for (std::size_t c = 0; c < centroids.size(); ++c) centroids[c] += (c % 3 == 0 ? 1.5f : -0.5f) / (1 + step);
            const CentroidMotion motion = measureMotion(previous, centroids, kCols);
            backend->assignBounded(*shard, centroids, kClusters, mode, Precision::FP32, &motion);
            backend->assign(*shard, centroids, kClusters, mode, Precision::FP32);
            backend->downloadLabels(*shard, after);
            for (int i = 0; i < kRows; ++i) movedRows += before[static_cast<std::size_t>(i)] != after[static_cast<std::size_t>(i)];
            if (step == 2) backend->updateNearest(*shard, std::span(rows).subspan(77 * kCols, kCols), 0);
            backend->trackedSums(*shard, kClusters, mode, &scales, false, incremental);
            backend->trackedSums(*shard, kClusters, mode, &scales, true, recount);
            REQUIRE_EQ(incremental.counts, recount.counts);
            REQUIRE_EQ(incremental.fixedSums, recount.fixedSums);
            REQUIRE_EQ(incremental.fixedDist, recount.fixedDist);
            REQUIRE_EQ(incremental.sums, recount.sums);  // small integers: exact in double too
            REQUIRE_EQ(incremental.distSums, recount.distSums);
        }
        CHECK(movedRows > kRows / 10);  // the searches really moved rows
    }
}
