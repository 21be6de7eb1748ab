// A sector map attached to price data through the source's `truth` option: every asset
// gets its sector, the note says what was attached, and a bad map is refused naming
// the line and field, or the asset it lacks.
#include "engine/core/error.h"
#include "engine/data/open_source.h"

#include "data_test_support.h"
#include "doctest_support.h"
#include "temp_dir.h"

#include <string>

using namespace clusterdesk;

namespace {

const char* kPrices = "date,AAA,BBB,CCC,DDD\n"
                      "2024-01-01,10,20,30,40\n"
                      "2024-01-02,11,19,31,41\n"
                      "2024-01-03,12,21,29,42\n"
                      "2024-01-04,11,22,30,40\n";

std::string errorOf(test::TempDir& dir, const std::string& map)
{
    try {
        openSource(describeFile(test::writeFile(dir, "p.csv", kPrices), "prices", {{"truth", test::writeFile(dir, "map.csv", map)}}));
    } catch (const DataError& e) {
        return e.what();
    }
    return "<no error>";
}

}  // namespace

TEST_CASE("aSectorMapBecomesTheTruth")
{
    test::TempDir dir;
    const std::string map = test::writeFile(dir, "map.csv", "asset,sector\nDDD,Tech\nAAA,Energy\nBBB,Tech\nCCC,Energy\nZZZ,Banks\n");
    const Dataset d = openSource(describeFile(test::writeFile(dir, "p.csv", kPrices), "prices", {{"truth", map}}));
    REQUIRE(d.hasTruth());
    // Sectors numbered in order of first appearance in the map: Tech 0, Energy 1.
    REQUIRE(d.truth == std::vector<std::int32_t>{1, 0, 1, 0});
    bool noted = false;
    for (const std::string& note : d.notes)
        noted = noted || note == "truth: 2 sectors for the 4 assets, from " + map + " (which also lists 1 asset not in the data)";
    REQUIRE(noted);
    // Without the option, no truth.
    REQUIRE_FALSE(openSource(describeFile(test::writeFile(dir, "p.csv", kPrices), "prices")).hasTruth());
}

TEST_CASE("aBadSectorMapNamesTheLineAndField")
{
    test::TempDir dir;
    const std::string map = dir.filePath("map.csv");
    REQUIRE_EQ(errorOf(dir, "asset,sector\nAAA,Tech\nBBB,Tech,extra\n"), map + ":3:10: expected 2 fields (asset,sector), found 3");
    REQUIRE_EQ(errorOf(dir, "asset,sector\nAAA,Tech\nBBB,\n"), map + ":3:5: empty sector (field 2, sector)");
    REQUIRE_EQ(errorOf(dir, "asset,sector\nAAA,Tech\nBBB,Tech\nAAA,Energy\n"), map + ":4:1: asset AAA is listed twice (first on line 2)");
    REQUIRE(errorOf(dir, "asset,sector\nAAA,Tech\nBBB,Tech\nCCC,Tech\n").find(map + ": no sector for asset DDD (asset 4 of the 4 in ") == 0);
    REQUIRE(errorOf(dir, "").find("empty") != std::string::npos);
}
