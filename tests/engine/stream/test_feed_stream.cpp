// The live market stream (deterministic, the rotation moves exactly the documented
// assets, prices stay finite and positive, sectors correlate as specified) and the feed's
// wire messages (round trip, every malformed message refused with its own reason,
// sequence gaps and duplicates told apart).
#include "doctest_support.h"

#include "engine/core/error.h"
#include "engine/stream/feed_message.h"
#include "engine/stream/market_stream.h"

#include <cmath>
#include <string>
#include <vector>

using namespace clusterdesk;
using namespace clusterdesk::stream;

TEST_CASE("the market stream is deterministic and its ticks are well formed")
{
    MarketStream a("market:assets=50,sectors=5,seed=3"), b("market:assets=50,sectors=5,seed=3");
    CHECK(a.canonical() == b.canonical());
    CHECK(a.symbols().size() == 50);
    CHECK(a.symbols()[7] == "S02_A007");
    CHECK(a.sectorName(2) == "S02");
    std::vector<MarketTick> ta, tb;
    for (int step = 1; step <= 200; ++step) {
        a.step(ta);
        b.step(tb);
        REQUIRE(ta.size() == 50);
        for (std::size_t i = 0; i < ta.size(); ++i) {
            CHECK(ta[i].price == tb[i].price);  // bit for bit
            CHECK(std::isfinite(ta[i].price));
            CHECK(ta[i].price > 0);
            CHECK(ta[i].size > 0);
            CHECK(ta[i].asset == static_cast<std::int32_t>(i));
            CHECK(ta[i].exchangeMicros == ta[0].exchangeMicros);
        }
    }
    MarketStream other("market:assets=50,sectors=5,seed=4");
    std::vector<MarketTick> to;
    other.step(to);
    MarketStream first("market:assets=50,sectors=5,seed=3");
    std::vector<MarketTick> tf;
    first.step(tf);
    CHECK(tf[0].price != to[0].price);
    CHECK(tf[0].exchangeMicros + 199 * first.stepMicros() == ta[0].exchangeMicros);
}

TEST_CASE("rotate moves every other asset of sector 0 to sector 1 and nothing else")
{
    MarketStream stream("market:assets=100,sectors=10");
    std::vector<std::int32_t> before;
    for (std::int32_t i = 0; i < 100; ++i) before.push_back(stream.sectorOf(i));
    stream.rotate();
    stream.rotate();  // a second call changes nothing
    int moved = 0;
    bool odd = false;
    for (std::int32_t i = 0; i < 100; ++i) {
        if (before[i] != 0) {
            CHECK(stream.sectorOf(i) == before[i]);
            continue;
        }
        CHECK(stream.sectorOf(i) == (odd ? 1 : 0));
        moved += odd ? 1 : 0;
        odd = !odd;
    }
    CHECK(moved == 5);
    std::vector<MarketTick> ticks;
    stream.step(ticks);
    CHECK(ticks[10].sector == 1);  // asset 10 is sector 0's second member
    CHECK(ticks[0].sector == 0);
}

TEST_CASE("assets of one sector move together more than assets of two")
{
    MarketStream stream("market:assets=40,sectors=4");
    std::vector<MarketTick> ticks;
    stream.step(ticks);
    std::vector<double> last(40);
    for (std::size_t i = 0; i < 40; ++i) last[i] = std::log(ticks[i].price);
    // Correlation of 0 with 4 (same sector) and of 0 with 1 (different sectors).
    double sxx = 0, syy = 0, szz = 0, sxy = 0, sxz = 0;
    for (int step = 0; step < 4000; ++step) {
        stream.step(ticks);
        double r[3];
        const int idx[3] = {0, 4, 1};
        for (int j = 0; j < 3; ++j) {
            const double now = std::log(ticks[idx[j]].price);
            r[j] = now - last[idx[j]];
        }
        for (std::size_t i = 0; i < 40; ++i) last[i] = std::log(ticks[i].price);
        sxx += r[0] * r[0], syy += r[1] * r[1], szz += r[2] * r[2], sxy += r[0] * r[1], sxz += r[0] * r[2];
    }
    const double same = sxy / std::sqrt(sxx * syy), across = sxz / std::sqrt(sxx * szz);
    CHECK(same > 0.55);
    CHECK(across < 0.45);
    CHECK(same - across > 0.2);
}

TEST_CASE("a bad market spec is refused with the key named")
{
    CHECK_THROWS_WITH_AS(MarketStream("market:assets=1"), doctest::Contains("assets"), UsageError);
    CHECK_THROWS_WITH_AS(MarketStream("market:speed=2"), doctest::Contains("speed"), UsageError);
    CHECK_THROWS_WITH_AS(MarketStream("blobs"), doctest::Contains("only live demo"), UsageError);
    CHECK_THROWS_AS(MarketStream("market:corr_market=0.8,corr_sector=0.5"), UsageError);
}

TEST_CASE("a tick message round-trips")
{
    FeedTick tick;
    tick.seq = 42;
    tick.symbol = "S03_A017";
    tick.price = 101.25;
    tick.size = 300;
    tick.exchangeMicros = 1767623400100000;
    tick.sector = "S03";
    const ParsedMessage parsed = parseServerMessage(tickMessage(tick));
    REQUIRE(parsed.message);
    CHECK(parsed.message->kind == FeedMessage::Kind::Tick);
    CHECK(parsed.message->tick.seq == 42);
    CHECK(parsed.message->tick.symbol == "S03_A017");
    CHECK(parsed.message->tick.price == 101.25);
    CHECK(parsed.message->tick.size == 300);
    CHECK(parsed.message->tick.exchangeMicros == 1767623400100000);
    CHECK(parsed.message->tick.sector == "S03");

    const ParsedMessage hello = parseServerMessage(helloMessage("market:assets=5", 5, "max"));
    REQUIRE(hello.message);
    CHECK(hello.message->kind == FeedMessage::Kind::Hello);
    CHECK(hello.message->symbols == 5);
    const ParsedMessage error = parseServerMessage(errorMessage("wrong token"));
    REQUIRE(error.message);
    CHECK(error.message->text == "wrong token");
}

TEST_CASE("every malformed message is refused with its own reason")
{
    const struct {
        const char* text;
        BadMessage reason;
    } corpus[] = {
        {"{\"type\":\"tick\",\"seq\":1,", BadMessage::NotJson},
        {"[1,2,3]", BadMessage::NotJson},
        {"", BadMessage::NotJson},
        {"{\"seq\":1}", BadMessage::UnknownType},
        {"{\"type\":\"quote\"}", BadMessage::UnknownType},
        {"{\"type\":\"tick\",\"seq\":1,\"symbol\":\"A\",\"ts\":1}", BadMessage::MissingField},
        {"{\"type\":\"tick\",\"seq\":1,\"symbol\":7,\"price\":1,\"ts\":1}", BadMessage::MissingField},
        // Names with control characters would reach terminals and CSV files.
        {"{\"type\":\"tick\",\"seq\":1,\"symbol\":\"A\\u0000B\",\"price\":1,\"ts\":1}", BadMessage::MissingField},
        {"{\"type\":\"tick\",\"seq\":1,\"symbol\":\"A\\u001b[31m\",\"price\":1,\"ts\":1}", BadMessage::MissingField},
        {"{\"type\":\"tick\",\"seq\":1,\"symbol\":\"A\",\"price\":1,\"ts\":1,\"sector\":\"S\\n2\"}", BadMessage::MissingField},
        {"{\"type\":\"tick\",\"seq\":1,\"symbol\":\"A\",\"price\":1,\"ts\":1,\"venue\":\"X\"}", BadMessage::UnknownField},
        {"{\"type\":\"tick\",\"seq\":1,\"symbol\":\"A\",\"price\":-3,\"ts\":1}", BadMessage::BadPrice},
        {"{\"type\":\"tick\",\"seq\":1,\"symbol\":\"A\",\"price\":0,\"ts\":1}", BadMessage::BadPrice},
        {"{\"type\":\"tick\",\"seq\":1,\"symbol\":\"A\",\"price\":\"NaN\",\"ts\":1}", BadMessage::BadPrice},
        {"{\"type\":\"tick\",\"seq\":1,\"symbol\":\"A\",\"price\":1e400,\"ts\":1}", BadMessage::NotJson},
        {"{\"type\":\"tick\",\"seq\":1,\"symbol\":\"A\",\"price\":1,\"size\":-1,\"ts\":1}", BadMessage::BadSize},
        {"{\"type\":\"tick\",\"seq\":0,\"symbol\":\"A\",\"price\":1,\"ts\":1}", BadMessage::BadSequence},
        {"{\"type\":\"tick\",\"seq\":1.5,\"symbol\":\"A\",\"price\":1,\"ts\":1}", BadMessage::BadSequence},
    };
    for (const auto& c : corpus) {
        CAPTURE(c.text);
        const ParsedMessage parsed = parseServerMessage(c.text);
        CHECK_FALSE(parsed.message);
        CHECK(parsed.reason == c.reason);
        CHECK_FALSE(parsed.detail.empty());
    }
}

TEST_CASE("a name is at most 256 bytes: a longer one is no ticker")
{
    const auto tickOf = [](const std::string& symbol) {
        return "{\"type\":\"tick\",\"seq\":1,\"symbol\":\"" + symbol + "\",\"price\":1,\"ts\":1}";
    };
    CHECK(parseServerMessage(tickOf(std::string(256, 'A'))).message);
    CHECK(parseServerMessage(tickOf(std::string(257, 'A'))).reason == BadMessage::MissingField);
}

TEST_CASE("an empty sector is no sector, not a bad tick")
{
    const ParsedMessage parsed = parseServerMessage("{\"type\":\"tick\",\"seq\":1,\"symbol\":\"A\",\"price\":1,\"ts\":1,\"sector\":\"\"}");
    REQUIRE(parsed.message);
    CHECK(parsed.message->tick.sector.empty());
}

TEST_CASE("subscribe requests parse, and bad ones say why")
{
    Subscribe some;
    some.all = false;
    some.symbols = {"A", "B"};
    some.token = "s3cret";
    std::string problem;
    const auto parsed = parseSubscribe(subscribeMessage(some), &problem);
    REQUIRE(parsed);
    CHECK_FALSE(parsed->all);
    CHECK(parsed->symbols == std::vector<std::string>{"A", "B"});
    CHECK(parsed->token == "s3cret");
    const auto all = parseSubscribe("{\"type\":\"subscribe\"}", &problem);
    REQUIRE(all);
    CHECK(all->all);
    CHECK(all->token.empty());
    CHECK_FALSE(parseSubscribe("hello", &problem));
    CHECK(problem.find("JSON") != std::string::npos);
    CHECK_FALSE(parseSubscribe("{\"type\":\"subscribe\",\"symbols\":[1]}", &problem));
    CHECK(problem.find("symbols") != std::string::npos);
    CHECK_FALSE(parseSubscribe("{\"type\":\"subscribe\",\"password\":\"x\"}", &problem));
    CHECK(problem.find("password") != std::string::npos);
    // A "type" that is not text is refused, not thrown (found by fuzz_feed_message).
    CHECK_FALSE(parseSubscribe("{\"type\":1,\"symor\":\"S03\"}", &problem));
    CHECK(problem == "the first message must be a subscribe");
}

TEST_CASE("the sequence checker tells next, gap, duplicate and out-of-order apart")
{
    SequenceChecker seq;
    std::int64_t missing = -1;
    CHECK(seq.check(5, &missing) == SequenceChecker::Verdict::First);
    CHECK(seq.check(6, &missing) == SequenceChecker::Verdict::Next);
    CHECK(seq.check(10, &missing) == SequenceChecker::Verdict::Gap);
    CHECK(missing == 3);
    CHECK(seq.check(10, &missing) == SequenceChecker::Verdict::Duplicate);
    CHECK(seq.check(8, &missing) == SequenceChecker::Verdict::OutOfOrder);
    CHECK(seq.last() == 10);
    seq.restart();
    CHECK(seq.check(1, &missing) == SequenceChecker::Verdict::First);
}
