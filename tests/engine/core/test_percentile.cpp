// Nearest-rank percentiles: always one of the measured values, the smallest with at
// least the asked share at or below it, the same whether the input is sorted or not.
#include "engine/core/percentile.h"

#include "doctest_support.h"

#include <algorithm>
#include <random>
#include <vector>

using namespace clusterdesk;

TEST_CASE("no values give 0, one value gives itself at every share")
{
    CHECK(percentile({}, 0.5) == 0);
    CHECK(percentileOfSorted({}, 0.99) == 0);
    for (const double q : {0.0, 0.5, 0.99, 1.0}) CHECK(percentile({7.5}, q) == 7.5);
}

TEST_CASE("ranks of 1..100 are the percentiles themselves")
{
    std::vector<double> values;
    for (int i = 100; i >= 1; --i) values.push_back(i);  // descending: percentile() must select
    CHECK(percentile(values, 0.50) == 50);
    CHECK(percentile(values, 0.95) == 95);
    CHECK(percentile(values, 0.99) == 99);
    CHECK(percentile(values, 0.999) == 100);  // ceil(99.9) = rank 100, never interpolated
    CHECK(percentile(values, 0.0) == 1);
    CHECK(percentile(values, 1.0) == 100);
}

TEST_CASE("a small sample: the p99 of ten values is the largest, the median the fifth")
{
    const std::vector<double> sorted{1, 2, 3, 4, 5, 6, 7, 8, 9, 1000};
    CHECK(percentileOfSorted(sorted, 0.50) == 5);
    CHECK(percentileOfSorted(sorted, 0.90) == 9);
    CHECK(percentileOfSorted(sorted, 0.99) == 1000);
}

TEST_CASE("sorted and unsorted inputs agree on random samples")
{
    std::mt19937 rng(11);
    std::uniform_real_distribution<double> draw(0, 50);
    for (int n = 1; n < 200; n += 7) {
        std::vector<double> values(static_cast<std::size_t>(n));
        for (double& v : values) v = draw(rng);
        std::vector<double> sorted = values;
        std::sort(sorted.begin(), sorted.end());
        for (const double q : {0.01, 0.25, 0.5, 0.9, 0.99, 0.999}) {
            const double p = percentile(values, q);
            CHECK(p == percentileOfSorted(sorted, q));
            const auto atOrBelow = std::count_if(sorted.begin(), sorted.end(), [&](double v) { return v <= p; });
            CHECK(static_cast<double>(atOrBelow) >= q * n);  // at least the share q at or below
        }
    }
}
