#include "engine/core/error.h"
#include "engine/exec/topology.h"

#include "doctest_support.h"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

using namespace clusterdesk;

namespace {

struct ParsesRow {
    std::string tag;
    std::string spec;
    std::string normalised;
    std::vector<std::string> shards;
};

std::vector<ParsesRow> parsesRows()
{
    std::vector<ParsesRow> rows;
    rows.push_back({"host", "host", "host", std::vector<std::string>{"host"}});
    rows.push_back({"shards:3", "shards:3", "shards:3", std::vector<std::string>{"host", "host", "host"}});
    rows.push_back({"cuda", "cuda", "cuda:0", std::vector<std::string>{"cuda:0"}});
    rows.push_back({"cuda:0,1", "cuda:0,1", "cuda:0,1", std::vector<std::string>{"cuda:0", "cuda:1"}});
    // Several shards on one GPU: the multi-shard path on a one-GPU machine.
    rows.push_back({"cuda:0,0", "cuda:0,0", "cuda:0,0", std::vector<std::string>{"cuda:0", "cuda:0"}});
    rows.push_back({"cuda:01,1", "cuda:01,1", "cuda:1,1", std::vector<std::string>{"cuda:1", "cuda:1"}});
    // Pool ranks name their backend: the host by default, or a GPU of their node.
    rows.push_back({"pool:2", "pool:2", "pool:2", std::vector<std::string>{"host", "host"}});
    rows.push_back({"pool:2:cuda", "pool:2:cuda", "pool:2:cuda", std::vector<std::string>{"cuda", "cuda"}});
    rows.push_back({"pool:3:host", "pool:3:host", "pool:3", std::vector<std::string>{"host", "host", "host"}});
    return rows;
}

}  // namespace

TEST_CASE("parses")
{
    for (const ParsesRow& row : parsesRows()) {
        SUBCASE(row.tag.c_str())
        {
            const std::string& spec = row.spec;
            const std::string& normalised = row.normalised;
            const std::vector<std::string>& shards = row.shards;
            const Topology t = parseTopology(spec);
            REQUIRE_EQ(toString(t), normalised);
            std::vector<std::string> got;
            for (int s = 0; s < t.shardCount(); ++s) got.push_back(t.shardBackend(s));
            REQUIRE_EQ(got, shards);
            REQUIRE((parseTopology(toString(t)) == t));  // the spelling round-trips
        }
    }
}

namespace {

struct RejectsRow {
    std::string tag;
    std::string spec;
    std::string message;
};

std::vector<RejectsRow> rejectsRows()
{
    std::vector<RejectsRow> rows;
    rows.push_back({"empty", "", "unknown topology ''"});
    rows.push_back({"shards:0", "shards:0", "'0' is not a number from 1 to 1024"});
    rows.push_back({"shards:5000", "shards:5000", "'5000' is not a number from 1 to 1024"});
    rows.push_back({"pool:0", "pool:0", "'0' is not a number from 1 to 1024"});
    rows.push_back({"shards:x", "shards:x", "'x' is not a number"});
    rows.push_back({"cuda:", "cuda:", "'' is not a number"});
    rows.push_back({"cuda:0,,1", "cuda:0,,1", "'' is not a number"});
    rows.push_back({"cuda:-1", "cuda:-1", "'-1' is not a number from 0 to 1024"});
    rows.push_back({"mpi", "mpi", "unknown topology 'mpi'"});
    rows.push_back({"pool::cuda", "pool::cuda", "cannot read hostfile :cuda"});
    return rows;
}

}  // namespace

TEST_CASE("rejects")
{
    for (const RejectsRow& row : rejectsRows()) {
        SUBCASE(row.tag.c_str())
        {
            const std::string& spec = row.spec;
            const std::string& message = row.message;
            try {
                parseTopology(spec);
                FAIL("accepted");
            } catch (const UsageError& e) {
                REQUIRE_MESSAGE(test::contains(std::string(e.what()), message), e.what());
            }
        }
    }
}

TEST_CASE("a topology spelled with its threads, as runs list and the what-if show it")
{
    const auto split = [](const std::string& s) { return splitThreads(s); };
    CHECK(split("host").topology == "host");
    CHECK(split("host").threads == 0);
    CHECK(split("host@4").topology == "host");
    CHECK(split("host@4").threads == 4);
    CHECK(split("shards:2@1").topology == "shards:2");
    CHECK(split("shards:2@1").threads == 1);
    // A hostfile's own @ is part of its path; digits after the last @ are still threads.
    CHECK(split("pool:/home/me@lab/hosts").topology == "pool:/home/me@lab/hosts");
    CHECK(split("pool:/home/me@lab/hosts").threads == 0);
    CHECK(split("pool:/home/me@lab/hosts@8").topology == "pool:/home/me@lab/hosts");
    CHECK(split("pool:/home/me@lab/hosts@8").threads == 8);
    CHECK(split("pool:hosts@lab").topology == "pool:hosts@lab");
    CHECK(split("pool:2@4").topology == "pool:2");
    CHECK(split("pool:2@4").threads == 4);
    CHECK_THROWS_WITH_AS(split("cuda@2"), doctest::Contains("GPU topologies take no thread count"), UsageError);
    // A hostfile that exists as spelled keeps its name, digits and all.
    const std::filesystem::path named = std::filesystem::temp_directory_path() / ("hosts@2-" + std::to_string(::getpid()));
    std::filesystem::path file = named;
    file += "@2";
    { std::ofstream(file) << "localhost slots=2\n"; }
    CHECK(split("pool:" + file.string()).topology == "pool:" + file.string());
    std::filesystem::remove(file);
    CHECK_THROWS_WITH_AS(split("host@0"), doctest::Contains("the thread count after @: '0' is not a number from 1 to 1024"), UsageError);
    CHECK_THROWS_WITH_AS(split("host@many"), doctest::Contains("the thread count after @: 'many'"), UsageError);
}
