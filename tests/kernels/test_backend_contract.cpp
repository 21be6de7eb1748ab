// The Backend contract, checked by the base class before any implementation runs:
// every violation is a ContractError naming the backend, the method and the values.
// And the one bounded-assignment driver: the labels of a full search, bit for bit,
// whichever of its paths (full pass, bounds kept, rows tightened or searched) it takes.
// On the host backend; the CUDA backend goes through the same checks and driver.
#include "doctest_support.h"

#include "kernels/backend.h"
#include "kernels/backend_registry.h"

#include <string>
#include <vector>

using namespace clusterdesk::kernels;

namespace {

// The message of the ContractError that call throws ("" when it throws none).
template <class Call>
std::string contractMessage(Call call)
{
    try {
        call();
    } catch (const ContractError& e) {
        return e.what();
    }
    return {};
}

}  // namespace

TEST_CASE("contract violations are ContractErrors with context")
{
    auto backend = createBackend("host");
    auto other = createBackend("host");
    const std::vector<float> rows{0.f, 0.f, 1.f, 1.f, 5.f, 5.f};
    auto shard = backend->upload({rows.data(), 3, 2}, 0);
    const std::vector<float> oneCentroid{0.f, 0.f};

    CHECK(contractMessage([&] { backend->upload({nullptr, 3, 2}, 0); }) == "host: upload: bad rows view (rows=3, cols=2)");
    CHECK(contractMessage([&] { other->assign(*shard, oneCentroid, 1, Mode::Exact, Precision::FP32); }) ==
          "host: assign: the shard was not uploaded by this backend");
    CHECK(contractMessage([&] { backend->assign(*shard, oneCentroid, 2, Mode::Exact, Precision::FP32); }) ==
          "host: assign: centroids hold 2 values, needs 4 (k=2, cols=2)");
    CHECK(contractMessage([&] { backend->assign(*shard, oneCentroid, -1, Mode::Exact, Precision::FP32); }) ==
          "host: assign: k must not be negative (k=-1)");
    const CentroidMotion shortMotion{{0.f}, {0.f}, {0.f}};
    CHECK(contractMessage([&] {
              backend->assignBounded(*shard, {rows.data(), 4}, 2, Mode::Exact, Precision::FP32, &shortMotion);
          }) == "host: assignBounded: motion.halfGap hold 1 values, needs 2 (k=2)");
    PartialSums sums;
    CHECK(contractMessage([&] {
              backend->clusterSums(*shard, LabelSource::SplitChild, SumParts::All, 1, Mode::Fast, nullptr, sums);
          }) == "host: clusterSums: sums by split child before assignSplit");
    CHECK(contractMessage([&] { backend->trackedSums(*shard, 1, Mode::Exact, nullptr, true, sums); }) ==
          "host: trackedSums: exact mode needs one fixed-point scale per column (scales=0, cols=2)");
    std::vector<float> out(2);
    const std::vector<std::int64_t> outside{3};
    CHECK(contractMessage([&] { backend->copyRows(*shard, outside, out); }) ==
          "host: copyRows: row 3 is outside the shard (rows=3)");
    std::vector<std::int32_t> labels(2);
    CHECK(contractMessage([&] { backend->downloadLabels(*shard, labels); }) ==
          "host: downloadLabels: out hold 2 values, needs 3 (rows=3)");
    // Still a std::invalid_argument for callers that catch that.
    CHECK_THROWS_AS(backend->rowNorms(*shard, out), std::invalid_argument);
}

TEST_CASE("bounded assignment gives a full search's labels on every path")
{
    auto backend = createBackend("host");
    constexpr int kRows = 4000;
    constexpr int kCols = 3;
    constexpr int kClusters = 6;
    std::vector<float> rows;
    for (int i = 0; i < kRows; ++i)
        for (int j = 0; j < kCols; ++j) rows.push_back(static_cast<float>((i * (7 + j)) % 101) * 0.1f);
    auto bounded = backend->upload({rows.data(), kRows, kCols}, 0);
    auto plain = backend->upload({rows.data(), kRows, kCols}, 0);
    std::vector<float> centroids(rows.begin(), rows.begin() + kClusters * kCols);
    std::vector<std::int32_t> boundedLabels(kRows), plainLabels(kRows);
    std::int64_t searchedTotal = 0;
    for (int step = 0; step < 40; ++step) {
        const std::vector<float> before = centroids;
        // Large moves first (most rows in doubt: full passes), then ever smaller ones.
        for (std::size_t c = 0; c < centroids.size(); ++c) centroids[c] += 2.f / static_cast<float>(1 + step * step) * ((c % 2) ? 1.f : -0.5f);
        const CentroidMotion motion = measureMotion(before, centroids, kCols);
        searchedTotal += backend->assignBounded(*bounded, centroids, kClusters, Mode::Exact, Precision::FP32,
                                                step == 0 ? nullptr : &motion);
        backend->assign(*plain, centroids, kClusters, Mode::Exact, Precision::FP32);
        backend->downloadLabels(*bounded, boundedLabels);
        backend->downloadLabels(*plain, plainLabels);
        REQUIRE(boundedLabels == plainLabels);
    }
    CHECK(searchedTotal < 40 * kRows);  // the bounds did spare rows
    // assign() rewrites labels without bounds: the next bounded call is a full pass.
    backend->assign(*bounded, centroids, kClusters, Mode::Exact, Precision::FP32);
    const CentroidMotion still = measureMotion(centroids, centroids, kCols);
    CHECK(backend->assignBounded(*bounded, centroids, kClusters, Mode::Exact, Precision::FP32, &still) == kRows);
    // Then bounds kept: only rows on a tie (which bounds cannot settle) are searched.
    CHECK(backend->assignBounded(*bounded, centroids, kClusters, Mode::Exact, Precision::FP32, &still) < kRows / 10);
}

TEST_CASE("trial centres' weight totals are those updateNearest then leaves, and they change nothing")
{
    auto backend = createBackend("host");
    constexpr int kRows = 3000;
    constexpr int kCols = 4;
    std::vector<float> rows;
    for (int i = 0; i < kRows; ++i)
        for (int j = 0; j < kCols; ++j) rows.push_back(static_cast<float>((i * (5 + 2 * j)) % 97) * 0.25f);
    auto shard = backend->upload({rows.data(), kRows, kCols}, 0);
    const double scale = 1e3;
    const std::span<const float> first = std::span(rows).first(kCols);
    backend->updateNearest(*shard, first, 0);
    std::vector<std::int32_t> labels(kRows), labelsAfter(kRows);
    backend->downloadLabels(*shard, labels);
    const std::int64_t before = backend->weightTotal(*shard, scale);
    // Eleven candidates: more than one batch of kTrialLanes.
    const std::vector<int> candidateRows{17, 1234, 2999, 5, 600, 601, 1500, 2000, 2500, 42, 777};
    std::vector<float> candidates;
    for (const int row : candidateRows) candidates.insert(candidates.end(), rows.begin() + row * kCols, rows.begin() + (row + 1) * kCols);
    const std::vector<std::int64_t> trials = backend->trialWeightTotals(*shard, candidates, scale);
    REQUIRE(trials.size() == candidateRows.size());
    // Nothing stored moved: the total and the labels are as they were.
    CHECK(backend->weightTotal(*shard, scale) == before);
    backend->downloadLabels(*shard, labelsAfter);
    CHECK(labelsAfter == labels);
    for (std::size_t t = 0; t < trials.size(); ++t) {
        CAPTURE(candidateRows[t]);
        CHECK(trials[t] < before);  // rows off the first centre now sit on one
        // Added for real, the candidate leaves exactly the total its trial measured.
        auto copy = backend->upload({rows.data(), kRows, kCols}, 0);
        backend->updateNearest(*copy, first, 0);
        backend->updateNearest(*copy, std::span(candidates).subspan(t * kCols, kCols), 1);
        CHECK(backend->weightTotal(*copy, scale) == trials[t]);
    }
    const std::vector<float> ragged(kCols + 1);
    CHECK(contractMessage([&] { backend->trialWeightTotals(*shard, ragged, scale); }) ==
          "host: trialWeightTotals: candidates hold 5 values, not whole rows of cols=4");
    auto empty = backend->upload({rows.data(), 0, kCols}, 0);
    CHECK(backend->trialWeightTotals(*empty, candidates, scale) == std::vector<std::int64_t>(candidateRows.size(), 0));
}
