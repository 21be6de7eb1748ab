#include "doctest_support.h"

#include "engine/core/error.h"
#include "engine/data/demo.h"
#include "engine/data/load.h"
#include "engine/data/open_source.h"
#include "engine/data/source_registry.h"
#include "data_test_support.h"

#include <filesystem>
#include <set>

using namespace clusterdesk;

namespace {

const std::string kPrices = "date,A,B\n2024-01-01,1,2\n2024-01-02,1.1,2.2\n2024-01-03,1.2,2.1\n2024-01-04,1.1,2.3\n";
const std::string kTicks = "timestamp,symbol,price\n2024-01-02T09:30:00,A,10\n2024-01-02T09:31:00,A,11\n"
                           "2024-01-02T09:32:10,A,12\n2024-01-02T09:33:00,A,11\n2024-01-02T09:31:30,B,5\n"
                           "2024-01-02T09:30:20,B,6\n2024-01-02T09:33:59,B,5.5\n2024-01-02T09:32:00,B,5.2\n";
const std::string kMatrix = "x,y\n1,2\n3,4\n5,6\n";

// A float32 .npy of shape (2, 2).
std::string npyBytes()
{
    std::string header = "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 2), }";
    header.append(128 - 10 - header.size() - 1, ' ');  // the data starts 64-byte aligned
    header += '\n';
    std::string out("\x93NUMPY\x01\x00", 8);
    out += static_cast<char>(header.size());
    out += '\0';
    out += header;
    const float values[4] = {1.5f, -2.f, 3.f, 4.f};
    out.append(reinterpret_cast<const char*>(values), sizeof values);
    return out;
}

std::string usageErrorOf(const std::function<void()>& call)
{
    try {
        call();
    } catch (const UsageError& e) {
        return e.what();
    }
    return "accepted";
}

}  // namespace

TEST_CASE("every source has a unique name, and is found by it")
{
    std::set<std::string> names;
    for (const auto& source : data::dataSources()) {
        CHECK(names.insert(source->name()).second);
        CHECK(&data::findSource(source->name()) == source.get());
        for (const std::string& ext : source->extensions()) {
            CHECK(!ext.empty());
            CHECK(ext.front() != '.');
        }
    }
    for (const char* name : {"csv", "prices", "ticks", "npy", "demo"}) CHECK(names.count(name) == 1);
    const std::string unknown = usageErrorOf([] { data::findSource("parquet"); });
    CHECK(unknown.find("unknown data source 'parquet' (sources: ") != std::string::npos);
    CHECK(unknown.find("csv") != std::string::npos);
}

TEST_CASE("a file's source is detected from its bytes, and its spec lists every option with its default")
{
    test::TempDir dir;
    const SourceSpec matrix = describeFile(test::writeFile(dir, "m.txt", kMatrix));
    CHECK(matrix.source == "csv");
    CHECK(matrix.options.empty());
    const SourceSpec prices = describeFile(test::writeFile(dir, "p.csv", kPrices));
    CHECK(prices.source == "prices");
    CHECK(prices.options == SourceOptions{{"window", "0"}, {"max_forward_fill", "5"}, {"min_history", "0.8"}, {"truth", ""}, {"scale_days", "1"}});
    const SourceSpec ticks = describeFile(test::writeFile(dir, "t.csv", kTicks));
    CHECK(ticks.source == "ticks");
    CHECK(ticks.options.at("bar") == "60");
    CHECK(ticks.options.size() == 6);
    CHECK(describeFile(test::writeFile(dir, "array.bin", npyBytes())).source == "npy");  // by magic
    CHECK(describeFile(test::writeFile(dir, "broken.npy", "not numpy")).source == "npy");  // by name

    // The location is absolute, so the spec opens the same file from anywhere.
    const auto previous = std::filesystem::current_path();
    std::filesystem::current_path(dir.path());
    const SourceSpec relative = describeFile("p.csv");
    std::filesystem::current_path(previous);
    CHECK(relative.location == std::filesystem::path(dir.filePath("p.csv")).lexically_normal().string());
}

TEST_CASE("options are checked and written in one canonical spelling")
{
    test::TempDir dir;
    const std::string ticks = test::writeFile(dir, "t.csv", kTicks);
    const SourceSpec spec = describeFile(ticks, "", {{"bar", "0300"}, {"min_history", "0.50"}, {"window", "+2"}});
    CHECK(spec.options.at("bar") == "300");
    CHECK(spec.options.at("min_history") == "0.5");
    CHECK(spec.options.at("window") == "2");
    CHECK(usageErrorOf([&] { describeFile(ticks, "", {{"bar", "0"}}); }).find("option bar must be in [1, ") !=
          std::string::npos);
    CHECK(usageErrorOf([&] { describeFile(ticks, "", {{"window", "ten"}}); }) ==
          "option window must be an integer, not 'ten'");
    CHECK(usageErrorOf([&] { describeFile(ticks, "", {{"min_history", "1.5"}}); }) ==
          "option min_history must be in [0, 1], got 1.5");
    CHECK(usageErrorOf([&] { describeFile(ticks, "", {{"max_forward_fill", "-1"}}); }).find("max_forward_fill") !=
          std::string::npos);
}

TEST_CASE("an option a source does not take is refused, naming it, where it applies and what the file holds")
{
    test::TempDir dir;
    const std::string matrix = test::writeFile(dir, "m.csv", kMatrix);
    const std::string prices = test::writeFile(dir, "p.csv", kPrices);
    CHECK(usageErrorOf([&] { describeFile(prices, "", {{"bar", "300"}}); }) ==
          "a bar size (--bar 300) applies to ticks files; " + prices + " holds a prices table");
    CHECK(usageErrorOf([&] { describeFile(matrix, "", {{"window", "2"}}); }) ==
          "a return window (--window 2) applies to prices and ticks files; " + matrix + " holds a matrix");
    CHECK(usageErrorOf([&] { describeFile(matrix, "", {{"min_history", "0.5"}}); }) ==
          "a minimum price history (--option min_history=0.5) applies to prices and ticks files; " + matrix +
              " holds a matrix");
    CHECK(usageErrorOf([&] { describeFile(prices, "", {{"colour", "red"}}); }) ==
          "unknown data option 'colour' for " + prices +
              " (the prices source takes window, max_forward_fill, min_history, truth, scale_days)");
    // The same check guards a spec read back from elsewhere.
    CHECK(usageErrorOf([&] { openSource({"csv", matrix, {{"bar", "60"}}}); }).find("applies to ticks files") !=
          std::string::npos);
}

TEST_CASE("a file whose bytes name its format is not read as another")
{
    test::TempDir dir;
    const std::string npy = test::writeFile(dir, "a.npy", npyBytes());
    CHECK(usageErrorOf([&] { describeFile(npy, "prices"); }) ==
          npy + " is a npy file, which holds a matrix; it cannot be read by the prices source");
    CHECK(usageErrorOf([&] { describeFile(npy, "demo"); }).find("generates its data") != std::string::npos);
}

TEST_CASE("openSource reads what the old loaders read, bit for bit, and the spec survives JSON")
{
    test::TempDir dir;
    for (const auto& file : std::vector<std::pair<std::string, std::string>>{
             {"m.csv", kMatrix}, {"p.csv", kPrices}, {"t.csv", kTicks}, {"a.npy", npyBytes()}}) {
        const std::string& name = file.first;  // not a structured binding: INFO captures it, which clang 14 refuses
        const std::string path = test::writeFile(dir, name, file.second);
        const SourceSpec spec = describeFile(path);
        const Dataset data = openSource(spec);
        INFO(name);
        CHECK(data.spec == spec);
        CHECK(data.contentHash() == loadDataset(path).contentHash());
        CHECK(data.rowNames == loadDataset(path).rowNames);
        const SourceSpec copy = sourceSpecFromJson(sourceSpecToJson(spec));
        CHECK(copy == spec);
        CHECK(openSource(copy).contentHash() == data.contentHash());
    }
}

TEST_CASE("openSourceHashed keeps the hash a fresh computation gives, for every source")
{
    test::TempDir dir;
    for (const auto& file : std::vector<std::pair<std::string, std::string>>{
             {"m.csv", kMatrix}, {"p.csv", kPrices}, {"t.csv", kTicks}, {"a.npy", npyBytes()}}) {
        const std::string& name = file.first;  // not a structured binding: INFO captures it, which clang 14 refuses
        const SourceSpec spec = describeFile(test::writeFile(dir, name, file.second));
        const Dataset hashed = openSourceHashed(spec);
        INFO(name);
        REQUIRE_FALSE(hashed.knownHash.empty());
        Dataset afresh = openSource(spec);
        afresh.knownHash.clear();
        CHECK(hashed.knownHash == afresh.contentHash());
        CHECK(hashed.values == afresh.values);
    }
}

TEST_CASE("a spec missing an option (written before it existed) opens with the default, and says so")
{
    test::TempDir dir;
    const std::string path = test::writeFile(dir, "p.csv", kPrices);
    const Dataset data = openSource({"prices", path, {{"window", "2"}}});
    CHECK(data.cols == 2);
    CHECK(data.spec.options.at("min_history") == "0.8");
}

TEST_CASE("demos are a source: described by their canonical spec, generated, same rows as makeDemo")
{
    const SourceSpec spec = describeDemo("blobs:n=200,k=3");
    CHECK(spec.source == "demo");
    CHECK(spec.location.find("n=200") != std::string::npos);
    CHECK(spec.location.find("spread=") != std::string::npos);  // every key spelled out
    CHECK(isGenerated(spec));
    CHECK_FALSE(isGenerated({"csv", "/x.csv", {}}));
    CHECK_FALSE(isGenerated({"no-such-source", "", {}}));
    const Dataset data = openSource(spec);
    CHECK(data.rows == 200);
    CHECK(data.contentHash() == makeDemo("blobs:n=200,k=3").contentHash());
    CHECK_THROWS_AS(describeDemo("spiral"), UsageError);
    CHECK_THROWS_AS(describeDemo("blobs:n=10,colour=red"), UsageError);
    CHECK_THROWS_AS(describeDemo("market:assets=100000,days=100000"), UsageError);  // too large, said before generating
    // Describing does not generate: 2e9 values would take 8 GB.
    CHECK(describeDemo("blobs:n=2000000000,d=1,k=2").location ==
          "blobs:n=2000000000,d=1,k=2,seed=7,spread=1,overlap=0");
    CHECK(usageErrorOf([] { openSource({"demo", "market", {{"window", "5"}}}); }).find("holds a generated demo") !=
          std::string::npos);
}

TEST_CASE("progress runs from 0 to 1 and false cancels")
{
    test::TempDir dir;
    std::string text = "timestamp,symbol,price\n";
    for (int i = 0; i < 20000; ++i)
        text += std::to_string(1700000000 + i * 30) + "," + (i % 2 ? "A" : "B") + "," + std::to_string(100 + i % 7) +
                "\n";
    const SourceSpec spec = describeFile(test::writeFile(dir, "t.csv", text));
    std::vector<double> seen;
    openSource(spec, [&](double f) {
        seen.push_back(f);
        return true;
    });
    REQUIRE(seen.size() >= 3);
    CHECK(seen.front() == 0.0);
    CHECK(seen.back() == 1.0);
    int calls = 0;
    CHECK_THROWS_AS(openSource(spec, [&](double) { return ++calls < 2; }), Cancelled);
}
