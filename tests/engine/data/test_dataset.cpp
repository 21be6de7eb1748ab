#include "engine/data/dataset.h"

#include "doctest_support.h"

#include <cmath>
#include <string>

using namespace clusterdesk;

TEST_CASE("layoutNames")
{
    REQUIRE_EQ(toString(Layout::Matrix), std::string("matrix"));
    REQUIRE_EQ(toString(Layout::Prices), std::string("prices"));
    REQUIRE_EQ(toString(Layout::Ticks), std::string("ticks"));
}

// The hash is SHA-256 over int64 rows, int64 cols (little-endian) and the float32
// bytes; these digests were computed independently with Python's hashlib.
TEST_CASE("hashIsStable")
{
    Dataset d;
    d.rows = 2;
    d.cols = 2;
    d.values = {1.0f, 2.0f, 3.0f, 4.0f};
    REQUIRE_EQ(d.contentHash(), std::string("b38757ab1711b1f7979452dddc8bc6a764e4289e2b28fa469aa9fabaf25876ad"));
    REQUIRE_EQ(Dataset{}.contentHash(), std::string("374708fff7719dd5979ec875d56cd2286f6d3cf7ec317a3b25632aab28ec37bb"));
}

TEST_CASE("hashCoversShapeAndValuesOnly")
{
    Dataset a;
    a.rows = 2;
    a.cols = 2;
    a.values = {1.0f, 2.0f, 3.0f, 4.0f};
    Dataset b = a;
    b.rowNames = {"x", "y"};
    b.source = "elsewhere";
    REQUIRE_EQ(a.contentHash(), b.contentHash());
    Dataset reshaped = a;
    reshaped.rows = 1;
    reshaped.cols = 4;
    REQUIRE(a.contentHash() != reshaped.contentHash());
    Dataset changed = a;
    changed.values[3] = std::nextafter(4.0f, 5.0f);
    REQUIRE(a.contentHash() != changed.contentHash());
    REQUIRE_EQ(a.contentHash().size(), std::size_t{64});
}
