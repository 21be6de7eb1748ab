// A recorded run and its data: what a run records (the precision it computed in), whether
// data is what a run read (values, row names), and reopening it: runs recorded before
// prices were scaled day by day (data::kScaleDaysOption) read their rows unscaled again,
// so their content hash still matches and a re-run repeats them; specs that name the
// option keep it.
#include "engine/session/run_record.h"
#include "engine/session/run_session.h"

#include "engine/data/demo.h"
#include "engine/data/open_source.h"
#include "engine/data/price_pipeline.h"

#include "../data/data_test_support.h"

#include <memory>
#include <string>

using namespace clusterdesk;

namespace {

const char* kPrices =
    "Date,AAA,BBB,CCC\n"
    "2024-01-02,100,50,10\n"
    "2024-01-03,101,49,10.5\n"
    "2024-01-04,90,45,9\n"
    "2024-01-05,91,46,9.4\n"
    "2024-01-08,92,45,9.1\n";

}  // namespace

TEST_CASE("a prices spec recorded before day scaling reopens unscaled")
{
    test::TempDir dir;
    const std::string path = test::writeFile(dir, "p.csv", kPrices);
    const std::string key(data::kScaleDaysOption);
    SourceSpec old = describeFile(path);
    REQUIRE(old.options.at(key) == "1");  // today's default
    const std::string scaledHash = openSource(old).contentHash();
    old.options.erase(key);  // as the store holds it for an older run
    const SourceSpec reopened = session::reopenableSpec(old);
    CHECK(reopened.options.at(key) == "0");
    SourceSpec unscaled = describeFile(path, "prices", {{key, "0"}});
    CHECK(openSource(reopened).contentHash() == openSource(unscaled).contentHash());
    CHECK(openSource(reopened).contentHash() != scaledHash);

    // Recorded before sources were described (no source, the layout sniffed again): unscaled too.
    const SourceSpec oldest = session::reopenableSpec(SourceSpec{"", path, {}});
    CHECK(oldest.source == "prices");
    CHECK(oldest.options.at(key) == "0");

    // Recorded today: as it is.
    const SourceSpec today = describeFile(path);
    CHECK(session::reopenableSpec(today) == today);
    // A matrix source has no such option and gets none.
    const SourceSpec matrix = describeFile(test::writeFile(dir, "m.csv", "1,2\n3,4\n5,6\n"));
    CHECK_FALSE(session::reopenableSpec(matrix).options.contains(key));
}

TEST_CASE("a market demo recorded before day scaling reopens unscaled")
{
    const std::string spec = "market:assets=30,sectors=3,days=60,seed=5,window=0,strong=0,corr_market=0.37,corr_sector=0.57";
    const SourceSpec old{"demo", spec, {}};
    const SourceSpec reopened = session::reopenableSpec(old);
    CHECK(reopened.location == spec + ",scale_days=0");
    CHECK(openSource(reopened).contentHash() == makeDemo(spec + ",scale_days=0").contentHash());
    CHECK(makeDemo(spec).contentHash() != makeDemo(spec + ",scale_days=0").contentHash());
    // A spec that names it, and any other demo, as they are.
    const SourceSpec today{"demo", spec + ",scale_days=1", {}};
    CHECK(session::reopenableSpec(today) == today);
    const SourceSpec blobs{"demo", "blobs:n=100,d=2,k=2,seed=7,spread=1,overlap=0", {}};
    CHECK(session::reopenableSpec(blobs) == blobs);
}

TEST_CASE("data is the run's only with its values and, when recorded, its row names")
{
    test::TempDir dir;
    const std::string path = test::writeFile(dir, "p.csv", kPrices);
    const Dataset data = openSource(describeFile(path));
    store::RunInfo run;
    run.id = "0123456789abcdef";
    run.datasetHash = data.contentHash();
    run.metricsJson = R"({"row_names_hash":")" + data.rowNamesHash() + R"("})";
    CHECK(session::whyNotTheData(run, data).empty());

    // Two assets' names swapped, the same prices under them: the same values, other names.
    const Dataset swapped = openSource(describeFile(test::writeFile(dir, "swapped.csv", std::string(kPrices).replace(5, 7, "BBB,AAA"))));
    REQUIRE(swapped.contentHash() == data.contentHash());
    CHECK(session::whyNotTheData(run, swapped).find("row names changed since run 01234567") != std::string::npos);
    // A run recorded before names were hashed is judged by its values alone.
    run.metricsJson = "{}";
    CHECK(session::whyNotTheData(run, swapped).empty());
    // Other values: the content hash says so.
    Dataset changed = data;
    changed.values[0] += 1;
    changed.knownHash.clear();
    CHECK(session::whyNotTheData(run, changed).find("the data changed since run 01234567") != std::string::npos);
}

TEST_CASE("two runs' labels are compared row by row only when the rows are the same rows")
{
    test::TempDir dir;
    const Dataset data = openSource(describeFile(test::writeFile(dir, "p.csv", kPrices)));
    const Dataset swapped = openSource(describeFile(test::writeFile(dir, "swapped.csv", std::string(kPrices).replace(5, 7, "BBB,AAA"))));
    const auto recorded = [](const char* id, const Dataset& read) {
        store::RunRecord run;
        run.info.id = id;
        run.info.status = store::RunStatus::Ok;
        run.info.metricsJson = R"({"row_names_hash":")" + read.rowNamesHash() + R"("})";
        run.labels.assign(static_cast<std::size_t>(read.rows), 0);
        return run;
    };
    const store::RunRecord a = recorded("aaaaaaaa-1", data);
    store::RunRecord b = recorded("bbbbbbbb-2", data);
    CHECK(session::whyLabelsNotComparable(a, b).empty());
    // The same values under other names: position would pair AAA with BBB.
    b = recorded("bbbbbbbb-2", swapped);
    CHECK(session::whyLabelsNotComparable(a, b).find("rows are named differently") != std::string::npos);
    // Recorded before names were hashed: compared by position, as before.
    b.info.metricsJson = "{}";
    CHECK(session::whyLabelsNotComparable(a, b).empty());
    b.labels.push_back(0);
    CHECK(session::whyLabelsNotComparable(a, b).find("different numbers of rows (3 and 4)") != std::string::npos);
    b.labels.clear();
    b.artifactsCollected = true;
    CHECK(session::whyLabelsNotComparable(a, b) == "run bbbbbbbb has no stored labels (ok, removed by runs gc)");
}

TEST_CASE("a run without GPUs is recorded with the FP32 it computed in, whatever precision it was asked for")
{
    session::RunRequest request;
    request.data = std::make_shared<const Dataset>(makeDemo("blobs:n=200,d=2,k=2,seed=3"));
    request.params.k = 2;
    request.params.precision = kernels::Precision::BF16;
    request.topology = parseTopology("shards:2");
    CHECK(session::RunSession(request).params().precision == kernels::Precision::FP32);
    // On GPUs it is theirs to use (checked before any device is opened).
    request.topology = parseTopology("cuda");
    CHECK(session::RunSession(request).params().precision == kernels::Precision::BF16);
}

TEST_CASE("a recorded run's input files are what it read from disk, and a live window is never reopened")
{
    store::RunInfo run;
    run.id = "0123456789abcdef";
    run.dataSource = {"prices", "/data/p.csv", {{"truth", "/data/sectors.csv"}, {"window", "0"}}};
    const std::vector<ProtectedFile> files = session::inputFilesOf(run);
    REQUIRE(files.size() == 2);
    CHECK(files[0].path == "/data/p.csv");
    CHECK(files[0].role == "the data of run 01234567");
    CHECK(files[1].path == "/data/sectors.csv");
    run.dataSource = {"demo", "blobs:n=10,d=2,k=2,seed=7,spread=1,overlap=0", {}};
    CHECK(session::inputFilesOf(run).empty());

    run.dataSource = {kLiveSource, "ws://127.0.0.1:9001", {}};
    CHECK(session::inputFilesOf(run).empty());
    std::string message;
    try {
        session::openRecordedDataset(run);
    } catch (const UsageError& e) {
        message = e.what();
    }
    CHECK(message.find("run 01234567 is an update of the live session on ws://127.0.0.1:9001") != std::string::npos);
}
