// The in-process communicator: every collective gives every rank the same values in
// rank order, and a failing rank releases the others instead of hanging them.
#include "engine/core/error.h"
#include "engine/exec/local_communicator.h"

#include "doctest_support.h"

#include <cstdint>
#include <string>
#include <vector>

#include <atomic>
#include <thread>

using namespace clusterdesk;

namespace {

template <class F>
void onRanks(LocalGroup& group, int n, F body)
{
    std::vector<std::thread> threads;
    for (int r = 0; r < n; ++r)
        threads.emplace_back([&, r] {
            auto comm = group.member(r);
            body(*comm);
        });
    for (auto& t : threads) t.join();
}

}  // namespace

namespace {

struct CollectivesRow {
    std::string tag;
    int ranks;
};

std::vector<CollectivesRow> collectivesRows()
{
    std::vector<CollectivesRow> rows;
    for (int n : {1, 2, 3, 7}) rows.push_back({test::format("%d ranks", n), n});
    return rows;
}

}  // namespace

TEST_CASE("collectives")
{
    for (const CollectivesRow& row : collectivesRows()) {
        SUBCASE(row.tag.c_str())
        {
            const int& ranks = row.ranks;
            LocalGroup group(ranks);
            std::vector<std::vector<std::int64_t>> sums(static_cast<std::size_t>(ranks));
            std::vector<std::vector<double>> maxima(static_cast<std::size_t>(ranks));
            std::vector<std::vector<std::int32_t>> gathered(static_cast<std::size_t>(ranks));
            onRanks(group, ranks, [&](Communicator& comm) {
                const int r = comm.rank();
                REQUIRE_EQ(comm.size(), ranks);
                std::vector<std::int64_t> s{r + 1, 10 * r};
                for (int repeat = 0; repeat < 50; ++repeat) {  // back-to-back collectives must not mix
                    s = {r + 1, 10 * r};
                    comm.allreduceSum(s);
                }
                sums[static_cast<std::size_t>(r)] = s;
                std::vector<double> m{static_cast<double>(r), -static_cast<double>(r)};
                comm.allreduceMax(m);
                maxima[static_cast<std::size_t>(r)] = m;
                std::vector<std::int32_t> mine(static_cast<std::size_t>(r), r);  // rank r sends r copies of r
                gathered[static_cast<std::size_t>(r)] = allgatherValues<std::int32_t>(comm, mine);
            });
            std::vector<std::int32_t> expectedGather;
            for (int r = 0; r < ranks; ++r) expectedGather.insert(expectedGather.end(), static_cast<std::size_t>(r), r);
            for (int r = 0; r < ranks; ++r) {
                REQUIRE_EQ(sums[static_cast<std::size_t>(r)], (std::vector<std::int64_t>{ranks * (ranks + 1) / 2, 10 * ranks * (ranks - 1) / 2}));
                REQUIRE_EQ(maxima[static_cast<std::size_t>(r)], (std::vector<double>{double(ranks - 1), 0.0}));
                REQUIRE_EQ(gathered[static_cast<std::size_t>(r)], expectedGather);
            }
        }
    }
}

// Double sums are formed in rank order on every rank: identical bits everywhere.
TEST_CASE("doubleSumsAreIdenticalOnEveryRank")
{
    LocalGroup group(5);
    std::vector<double> results(5);
    onRanks(group, 5, [&](Communicator& comm) {
        std::vector<double> v{1e16 * (comm.rank() % 2 ? 1 : -1) + comm.rank() * 0.1};
        comm.allreduceSum(v);
        results[static_cast<std::size_t>(comm.rank())] = v[0];
    });
    for (double r : results) REQUIRE_EQ(r, results[0]);
}

TEST_CASE("abortReleasesWaitingRanks")
{
    LocalGroup group(3);
    std::atomic<int> released{0};
    onRanks(group, 3, [&](Communicator& comm) {
        if (comm.rank() == 2) {
            group.abort();  // as a failing shard does
            return;
        }
        std::vector<std::int64_t> v{1};
        try {
            comm.allreduceSum(v);
        } catch (const DeviceError&) {
            ++released;
        }
    });
    REQUIRE_EQ(released.load(), 2);
}
