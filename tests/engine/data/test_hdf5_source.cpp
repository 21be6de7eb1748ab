#include "doctest_support.h"

#include "engine/core/error.h"
#include "engine/data/open_source.h"
#include "data_test_support.h"

#include <hdf5.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <functional>
#include <limits>
#include <vector>

using namespace clusterdesk;

namespace {

// Creates the file at path, lets `fill` add to it, closes it.
void writeH5(const std::string& path, const std::function<void(hid_t)>& fill)
{
    const hid_t file = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    REQUIRE(file >= 0);
    fill(file);
    REQUIRE(H5Fclose(file) >= 0);
}

// A dataset of `dims` holding `values` (given as double, stored as `type`), at `name`
// (intermediate groups created).
void addNumbers(hid_t file, const std::string& name, std::vector<hsize_t> dims, hid_t type,
                const std::vector<double>& values)
{
    const hid_t space = H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr);
    const hid_t links = H5Pcreate(H5P_LINK_CREATE);
    H5Pset_create_intermediate_group(links, 1);
    const hid_t d = H5Dcreate2(file, name.c_str(), type, space, links, H5P_DEFAULT, H5P_DEFAULT);
    REQUIRE(d >= 0);
    if (!values.empty()) REQUIRE(H5Dwrite(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()) >= 0);
    H5Dclose(d);
    H5Pclose(links);
    H5Sclose(space);
}

// A 1-D dataset of variable-length strings (h5py's default) or of fixed-length ones
// (numpy bytes, as pandas writes its axes).
void addStrings(hid_t file, const std::string& name, const std::vector<std::string>& strings, bool variable)
{
    const hsize_t n = strings.size();
    const hid_t space = H5Screate_simple(1, &n, nullptr);
    const hid_t type = H5Tcopy(H5T_C_S1);
    std::size_t width = 1;
    for (const auto& s : strings) width = std::max(width, s.size());
    H5Tset_size(type, variable ? H5T_VARIABLE : width);
    const hid_t d = H5Dcreate2(file, name.c_str(), type, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    REQUIRE(d >= 0);
    if (variable) {
        std::vector<const char*> pointers;
        for (const auto& s : strings) pointers.push_back(s.c_str());
        REQUIRE(H5Dwrite(d, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, pointers.data()) >= 0);
    } else {
        std::vector<char> bytes(strings.size() * width, '\0');
        for (std::size_t i = 0; i < strings.size(); ++i) std::memcpy(bytes.data() + i * width, strings[i].data(), strings[i].size());
        REQUIRE(H5Dwrite(d, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, bytes.data()) >= 0);
    }
    H5Dclose(d);
    H5Tclose(type);
    H5Sclose(space);
}

const std::vector<double> kValues{1.5, -2, 3, 4, 5.25, -6};  // 3 x 2 or 2 x 3

// what() of the DataError that opening `path` (with options) throws, or "loaded".
std::string dataErrorOf(const std::string& path, const SourceOptions& options = {})
{
    try {
        openSource(describeFile(path, "", options));
    } catch (const DataError& e) {
        return e.what();
    }
    return "loaded";
}

bool contains(const std::string& text, const std::string& fragment)
{
    return text.find(fragment) != std::string::npos;
}

}  // namespace

TEST_CASE("the only 2-D dataset is read, detected by signature, and hashes like the same numbers from a CSV")
{
    test::TempDir dir;
    const std::string path = dir.filePath("m.hdf5");
    writeH5(path, [](hid_t f) {
        addNumbers(f, "/group/matrix", {3, 2}, H5T_IEEE_F32LE, kValues);
        addNumbers(f, "/vector", {4}, H5T_IEEE_F64LE, {1, 2, 3, 4});  // not a candidate: 1-D
    });
    // A renamed copy is still found by its bytes.
    const std::string renamed = dir.filePath("m.data");
    std::filesystem::copy_file(path, renamed);
    const SourceSpec spec = describeFile(renamed);
    CHECK(spec.source == "hdf5");
    CHECK(spec.options == SourceOptions{{"dataset", "/group/matrix"}});  // the default, recorded by name

    const Dataset data = openSource(spec);
    CHECK(data.rows == 3);
    CHECK(data.cols == 2);
    CHECK(data.values == std::vector<float>{1.5f, -2.f, 3.f, 4.f, 5.25f, -6.f});
    CHECK(toString(data.layout) == "matrix");
    CHECK(data.rowNames.empty());
    const std::string csv = test::writeFile(dir, "m.csv", "1.5,-2\n3,4\n5.25,-6\n");
    CHECK(data.contentHash() == openSource(describeFile(csv)).contentHash());
}

TEST_CASE("float64 and integer datasets are converted to float32")
{
    test::TempDir dir;
    const std::string path = dir.filePath("types.h5");
    writeH5(path, [](hid_t f) {
        addNumbers(f, "f64", {2, 3}, H5T_IEEE_F64BE, kValues);  // big-endian too
        addNumbers(f, "i32", {2, 3}, H5T_STD_I32LE, {1, -2, 3, 4, 5, -6});
        addNumbers(f, "u8", {2, 3}, H5T_STD_U8LE, {1, 2, 3, 4, 5, 255});
    });
    CHECK(openSource(describeFile(path, "", {{"dataset", "f64"}})).values ==
          std::vector<float>{1.5f, -2.f, 3.f, 4.f, 5.25f, -6.f});
    CHECK(openSource(describeFile(path, "", {{"dataset", "/i32"}})).values ==
          std::vector<float>{1.f, -2.f, 3.f, 4.f, 5.f, -6.f});
    CHECK(openSource(describeFile(path, "", {{"dataset", "u8"}})).values.back() == 255.f);
}

TEST_CASE("several candidates: an error lists them, and the dataset option picks one in canonical form")
{
    test::TempDir dir;
    const std::string path = dir.filePath("two.h5");
    writeH5(path, [](hid_t f) {
        addNumbers(f, "a", {3, 2}, H5T_IEEE_F32LE, kValues);
        addNumbers(f, "b/c", {2, 3}, H5T_IEEE_F32LE, kValues);
    });
    const std::string error = dataErrorOf(path);
    CHECK(contains(error, path));
    CHECK(contains(error, "several 2-D numeric datasets (/a, /b/c)"));
    const SourceSpec spec = describeFile(path, "", {{"dataset", "b/c"}});
    CHECK(spec.options.at("dataset") == "/b/c");
    CHECK(openSource(spec).rows == 2);
    CHECK_THROWS_AS(openSource({"hdf5", path, {}}), DataError);  // no dataset named: ambiguous, not guessed
    // The spec travels as JSON and opens the same rows again.
    CHECK(openSource(sourceSpecFromJson(sourceSpecToJson(spec))).contentHash() == openSource(spec).contentHash());
}

TEST_CASE("row and column names: h5py's row_names/col_names and pandas' fixed format")
{
    test::TempDir dir;
    const std::string h5py = dir.filePath("named.h5");
    writeH5(h5py, [](hid_t f) {
        addNumbers(f, "x", {3, 2}, H5T_IEEE_F32LE, kValues);
        addStrings(f, "row_names", {"AAPL", "MSFT", "GOOG"}, true);
        addStrings(f, "col_names", {"ret_1", "ret_2"}, false);
    });
    const Dataset named = openSource(describeFile(h5py));
    CHECK(named.rowNames == std::vector<std::string>{"AAPL", "MSFT", "GOOG"});
    CHECK(named.colNames == std::vector<std::string>{"ret_1", "ret_2"});

    const std::string pandas = dir.filePath("frame.h5");
    writeH5(pandas, [](hid_t f) {
        H5Gclose(H5Gcreate2(f, "/df", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
        addNumbers(f, "/df/block0_values", {2, 3}, H5T_IEEE_F64LE, kValues);
        addStrings(f, "/df/block0_items", {"a", "b", "c"}, false);
        addStrings(f, "/df/axis0", {"a", "b", "c"}, false);
        addStrings(f, "/df/axis1", {"first", "second"}, false);
    });
    const Dataset frame = openSource(describeFile(pandas));
    CHECK(frame.rowNames == std::vector<std::string>{"first", "second"});
    CHECK(frame.colNames == std::vector<std::string>{"a", "b", "c"});

    // Names whose count does not match are not attached to the wrong rows, and that is said.
    const std::string mismatched = dir.filePath("mismatch.h5");
    writeH5(mismatched, [](hid_t f) {
        addNumbers(f, "x", {3, 2}, H5T_IEEE_F32LE, kValues);
        addStrings(f, "row_names", {"only", "two"}, true);
    });
    const Dataset unnamed = openSource(describeFile(mismatched));
    CHECK(unnamed.rowNames.empty());
    const auto said = [](const Dataset& d, const std::string& text) {
        return std::any_of(d.notes.begin(), d.notes.end(), [&](const std::string& n) { return n.find(text) != std::string::npos; });
    };
    CHECK(said(unnamed, "row_names beside /x holds 2 names for its 3 rows"));

    // A name on two rows is kept, and said, as a CSV's repeated id is.
    const std::string repeated = dir.filePath("repeated.h5");
    writeH5(repeated, [](hid_t f) {
        addNumbers(f, "x", {3, 2}, H5T_IEEE_F32LE, kValues);
        addStrings(f, "row_names", {"AAPL", "MSFT", "AAPL"}, true);
    });
    const Dataset twice = openSource(describeFile(repeated));
    CHECK(twice.rowNames == std::vector<std::string>{"AAPL", "MSFT", "AAPL"});
    CHECK(said(twice, "hdf5 row_names: 1 row repeats a name of an earlier row (first: 'AAPL' on data rows 1 and 3)"));
}

TEST_CASE("bad datasets are DataErrors naming the file and the dataset")
{
    test::TempDir dir;
    const std::string path = dir.filePath("bad.h5");
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const double inf = std::numeric_limits<double>::infinity();
    writeH5(path, [&](hid_t f) {
        addNumbers(f, "rank1", {4}, H5T_IEEE_F32LE, {1, 2, 3, 4});
        addNumbers(f, "rank3", {2, 2, 2}, H5T_IEEE_F32LE, {1, 2, 3, 4, 5, 6, 7, 8});
        addNumbers(f, "nan", {2, 3}, H5T_IEEE_F64LE, {1, 2, 3, 4, 5, nan});
        addNumbers(f, "inf", {2, 3}, H5T_IEEE_F32LE, {1, -inf, 3, 4, 5, 6});
        addNumbers(f, "huge", {1, 2}, H5T_IEEE_F64LE, {1e300, 1});
        addNumbers(f, "empty", {0, 3}, H5T_IEEE_F32LE, {});
        addStrings(f, "text", {"a", "b"}, true);
        const hid_t pair = H5Tcreate(H5T_COMPOUND, 16);
        H5Tinsert(pair, "x", 0, H5T_NATIVE_DOUBLE);
        H5Tinsert(pair, "y", 8, H5T_NATIVE_DOUBLE);
        const hsize_t dims[2] = {2, 2};
        const hid_t space = H5Screate_simple(2, dims, nullptr);
        H5Dclose(H5Dcreate2(f, "compound", pair, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
        H5Sclose(space);
        H5Tclose(pair);
        // Chunked storage never written: HDF5 would read fill values.
        const hid_t chunked = H5Pcreate(H5P_DATASET_CREATE);
        H5Pset_chunk(chunked, 2, dims);
        const hid_t space2 = H5Screate_simple(2, dims, nullptr);
        H5Dclose(H5Dcreate2(f, "unwritten", H5T_IEEE_F32LE, space2, H5P_DEFAULT, chunked, H5P_DEFAULT));
        H5Sclose(space2);
        H5Pclose(chunked);
    });
    const auto expect = [&](const std::string& dataset, const std::string& fragment) {
        const std::string error = dataErrorOf(path, {{"dataset", dataset}});
        INFO(error);
        CHECK(contains(error, path));
        CHECK(contains(error, "dataset '/" + dataset + "'"));
        CHECK(contains(error, fragment));
    };
    expect("missing", "no such dataset in the file (datasets: /compound, /empty");
    expect("no/such/group", "no such dataset");
    expect("rank1", "has rank 1, shape (4,); a 2-D dataset");
    expect("rank3", "has rank 3, shape (2, 2, 2)");
    expect("nan", "not a finite number at row 2, column 3");
    expect("inf", "not a finite number at row 1, column 2");
    expect("huge", "value too large at row 1, column 1");
    expect("empty", "is empty, shape (0, 3)");
    expect("text", "holds string values");
    expect("compound", "holds compound values");
    expect("unwritten", "has no data written");
}

TEST_CASE("a file that is not HDF5, a truncated one and an empty one are DataErrors naming the file")
{
    test::TempDir dir;
    const std::string text = test::writeFile(dir, "text.h5", "1,2\n3,4\n");
    // By name: a damaged .h5 gets an HDF5 diagnosis (naming the dataset, nothing is opened yet).
    CHECK(describeFile(text, "", {{"dataset", "x"}}).source == "hdf5");
    CHECK(contains(dataErrorOf(text), text + ": not an HDF5 file"));
    const std::string empty = test::writeFile(dir, "empty.hdf5", "");
    CHECK(contains(dataErrorOf(empty), empty + ": not an HDF5 file"));

    const std::string whole = dir.filePath("whole.h5");
    std::vector<double> many(4000);
    for (std::size_t i = 0; i < many.size(); ++i) many[i] = static_cast<double>(i);
    writeH5(whole, [&](hid_t f) { addNumbers(f, "x", {1000, 4}, H5T_IEEE_F64LE, many); });
    const auto size = std::filesystem::file_size(whole);
    for (const double keep : {0.9, 0.5, 0.01}) {
        const std::string cut = dir.filePath("cut" + std::to_string(keep) + ".h5");
        std::filesystem::copy_file(whole, cut);
        std::filesystem::resize_file(cut, static_cast<std::uintmax_t>(static_cast<double>(size) * keep));
        const std::string error = dataErrorOf(cut);
        INFO(error);
        CHECK(contains(error, cut + ": "));
        CHECK((contains(error, "damaged or truncated") || contains(error, "not an HDF5 file")));
    }
}

TEST_CASE("options the hdf5 source does not take are refused, naming the file and what it holds")
{
    test::TempDir dir;
    const std::string path = dir.filePath("m.h5");
    writeH5(path, [](hid_t f) { addNumbers(f, "x", {3, 2}, H5T_IEEE_F32LE, kValues); });
    try {
        describeFile(path, "", {{"window", "5"}});
        FAIL("a return window was accepted for an HDF5 matrix");
    } catch (const UsageError& e) {
        CHECK(std::string(e.what()) == "a return window (--window 5) applies to prices and ticks files; " + path +
                                           " holds a matrix");
    }
    CHECK_THROWS_AS(describeFile(path, "prices"), UsageError);  // its signature says HDF5
}
