#include "doctest_support.h"

#include "engine/core/error.h"
#include "engine/data/bar_aggregator.h"
#include "engine/data/open_source.h"
#include "data_test_support.h"

#include <limits>
#include <string>
#include <vector>

using namespace clusterdesk;
using namespace clusterdesk::data;

namespace {

constexpr std::int64_t kSecond = 1000000;
constexpr std::int64_t k0930 = 1704187800LL * kSecond;  // 2024-01-02T09:30:00Z

struct TestTick {
    std::int64_t micros;
    std::string symbol;
    double price;
    double size;
};

// Two symbols over five minutes, with a bar (09:32) in which nothing trades, two ticks
// at the same time, and one symbol missing from a bar.
std::vector<TestTick> session()
{
    return {{k0930 + 5 * kSecond, "AAA", 100.0, 10},  {k0930 + 10 * kSecond, "BBB", 50.0, 1},
            {k0930 + 50 * kSecond, "AAA", 101.0, 3},  {k0930 + 61 * kSecond, "BBB", 49.0, 2},
            {k0930 + 80 * kSecond, "AAA", 99.5, 1},   {k0930 + 80 * kSecond, "AAA", 99.0, 1},
            {k0930 + 100 * kSecond, "BBB", 51.0, 4},  {k0930 + 185 * kSecond, "AAA", 103.0, 1},
            {k0930 + 190 * kSecond, "BBB", 52.0, 5},  {k0930 + 250 * kSecond, "AAA", 104.0, 2},
            {k0930 + 299 * kSecond, "BBB", 52.5, 1}};
}

void check(const std::vector<Bar>& a, const std::vector<Bar>& b)
{
    REQUIRE(a.size() == b.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
        CHECK(a[i].startMicros == b[i].startMicros);
        REQUIRE(a[i].symbols.size() == b[i].symbols.size());
        for (std::size_t s = 0; s < a[i].symbols.size(); ++s) {
            const SymbolBar &x = a[i].symbols[s], &y = b[i].symbols[s];
            CHECK(x.symbol == y.symbol);
            CHECK(x.open == y.open);
            CHECK(x.high == y.high);
            CHECK(x.low == y.low);
            CHECK(x.close == y.close);
            CHECK(x.volume == y.volume);
            CHECK(x.ticks == y.ticks);
            CHECK(x.closeTickId == y.closeTickId);
        }
    }
}

std::string dataErrorOf(BarAggregator& aggregator, std::int64_t micros, const std::string& symbol, double price,
                        double size = 0.0)
{
    try {
        aggregator.add(micros, symbol, price, size);
    } catch (const DataError& e) {
        return e.what();
    }
    return "accepted";
}

}  // namespace

TEST_CASE("a bar closes when a tick reaches the next one, and carries open, high, low, close and volume")
{
    BarAggregator aggregator("feed", 60);
    const std::vector<TestTick> ticks = session();
    for (std::size_t i = 0; i < 3; ++i) aggregator.add(ticks[i].micros, ticks[i].symbol, ticks[i].price, ticks[i].size, i);
    CHECK(aggregator.takeClosed().empty());  // 09:30 is still open

    aggregator.add(ticks[3].micros, ticks[3].symbol, ticks[3].price, ticks[3].size, 3);
    const std::vector<Bar> closed = aggregator.takeClosed();
    REQUIRE(closed.size() == 1);
    CHECK(closed[0].startMicros == k0930);
    REQUIRE(closed[0].symbols.size() == 2);
    const SymbolBar& aaa = closed[0].symbols[0];
    CHECK(aggregator.symbols()[static_cast<std::size_t>(aaa.symbol)] == "AAA");
    CHECK(aaa.open == 100.0);
    CHECK(aaa.close == 101.0);
    CHECK(aaa.high == 101.0);
    CHECK(aaa.low == 100.0);
    CHECK(aaa.volume == 13.0);
    CHECK(aaa.ticks == 2);
    CHECK(aaa.closeTickId == 2);
    CHECK(aggregator.takeClosed().empty());  // taken once
}

TEST_CASE("feeding tick by tick gives the same bars as feeding the whole session at once")
{
    const std::vector<TestTick> ticks = session();
    BarAggregator incremental("feed", 60);
    std::vector<Bar> streamed;
    for (std::size_t i = 0; i < ticks.size(); ++i) {
        incremental.add(ticks[i].micros, ticks[i].symbol, ticks[i].price, ticks[i].size, static_cast<std::int64_t>(i));
        for (Bar& bar : incremental.takeClosed()) streamed.push_back(std::move(bar));
    }
    incremental.finish();
    for (Bar& bar : incremental.takeClosed()) streamed.push_back(std::move(bar));

    BarAggregator batch("file", 60);
    for (std::size_t i = 0; i < ticks.size(); ++i)
        batch.add(ticks[i].micros, ticks[i].symbol, ticks[i].price, ticks[i].size, static_cast<std::int64_t>(i));
    batch.finish();
    const std::vector<Bar> whole = batch.takeClosed();

    check(streamed, whole);
    // 09:32 had no trade: four bars, not five.
    REQUIRE(whole.size() == 4);
    CHECK(whole[2].startMicros == k0930 + 180 * kSecond);
    CHECK(batch.tickCount() == static_cast<std::int64_t>(ticks.size()));
}

TEST_CASE("the ticks source resamples through the aggregator: its periods are the aggregator's bars")
{
    test::TempDir dir;
    std::string csv = "timestamp,symbol,price,size\n";
    const std::vector<TestTick> ticks = session();
    // Listed newest first: the file need not be in time order.
    for (auto it = ticks.rbegin(); it != ticks.rend(); ++it)
        csv += std::to_string(it->micros / kSecond) + "," + it->symbol + "," + std::to_string(it->price) + "," +
               std::to_string(it->size) + "\n";
    const std::string path = test::writeFile(dir, "ticks.csv", csv);
    const Dataset data = openSource(describeFile(path, "ticks", {{"min_history", "0.5"}}));

    BarAggregator aggregator(path, 60);
    for (const TestTick& t : ticks) aggregator.add(t.micros, t.symbol, t.price, t.size);
    aggregator.finish();
    const std::vector<Bar> bars = aggregator.takeClosed();
    // Returns end on every bar but the first (every bar has an AAA price, forward fill covers BBB).
    REQUIRE(data.colNames.size() == bars.size() - 1);
    CHECK(data.colNames[0] == "2024-01-02T09:31:00");
    CHECK(data.colNames.back() == "2024-01-02T09:34:00");
    CHECK(data.rowNames == std::vector<std::string>{"AAA", "BBB"});
}

TEST_CASE("an out-of-order tick is refused, naming the stream, the symbol and both times")
{
    BarAggregator aggregator("tcp://feed:9000", 60);
    aggregator.add(k0930 + 30 * kSecond, "AAA", 100.0);
    aggregator.add(k0930 + 30 * kSecond, "AAA", 101.0);  // the same time is in order
    const std::string error = dataErrorOf(aggregator, k0930 + 29 * kSecond, "BBB", 50.0);
    CHECK(error.find("tcp://feed:9000") != std::string::npos);
    CHECK(error.find("BBB at 2024-01-02T09:30:29") != std::string::npos);
    CHECK(error.find("earlier than the stream's time 2024-01-02T09:30:30") != std::string::npos);
    // The refused tick changed nothing: the bar closes with the last good price.
    aggregator.finish();
    const std::vector<Bar> bars = aggregator.takeClosed();
    REQUIRE(bars.size() == 1);
    REQUIRE(bars[0].symbols.size() == 1);
    CHECK(bars[0].symbols[0].close == 101.0);
}

TEST_CASE("the clock closes a bar when no tick comes")
{
    BarAggregator aggregator("feed", 60);
    aggregator.add(k0930 + 10 * kSecond, "AAA", 100.0);
    aggregator.advanceTo(k0930 + 59 * kSecond);
    CHECK(aggregator.takeClosed().empty());
    aggregator.advanceTo(k0930 + 60 * kSecond);
    CHECK(aggregator.takeClosed().size() == 1);
    // After the clock, a tick from before it is out of order.
    CHECK(dataErrorOf(aggregator, k0930 + 59 * kSecond, "AAA", 100.0).find("earlier") != std::string::npos);
}

TEST_CASE("gaps and times before the epoch: bars are aligned to the epoch, empty bars are skipped")
{
    BarAggregator aggregator("feed", 300);
    aggregator.add(-1 * kSecond, "A", 1.0);  // 1969-12-31T23:59:59 is in the bar starting 23:55
    aggregator.add(0, "A", 2.0);
    aggregator.add(3600 * kSecond, "A", 3.0);  // an hour later: eleven empty bars between
    aggregator.finish();
    const std::vector<Bar> bars = aggregator.takeClosed();
    REQUIRE(bars.size() == 3);
    CHECK(bars[0].startMicros == -300 * kSecond);
    CHECK(bars[1].startMicros == 0);
    CHECK(bars[2].startMicros == 3600 * kSecond);
}

TEST_CASE("bad ticks and bar sizes are refused")
{
    BarAggregator aggregator("feed", 60);
    CHECK(dataErrorOf(aggregator, 0, "A", 0.0).find("price must be finite and positive") != std::string::npos);
    CHECK(dataErrorOf(aggregator, 0, "A", -1.0).find("price must be finite and positive") != std::string::npos);
    CHECK(dataErrorOf(aggregator, 0, "A", std::numeric_limits<double>::infinity()).find("price") != std::string::npos);
    CHECK(dataErrorOf(aggregator, 0, "A", std::numeric_limits<double>::quiet_NaN()).find("price") != std::string::npos);
    CHECK(dataErrorOf(aggregator, 0, "A", 1.0, -2.0).find("size must be finite and non-negative") !=
          std::string::npos);
    CHECK(aggregator.tickCount() == 0);
    CHECK_THROWS_AS(BarAggregator("feed", 0), UsageError);
    CHECK_THROWS_AS(BarAggregator("feed", -60), UsageError);
    CHECK_THROWS_AS(BarAggregator("feed", std::numeric_limits<std::int64_t>::max()), UsageError);
}
