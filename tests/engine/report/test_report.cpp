// The Qt-free part of reports: the membership table and per-cluster statistics (price
// data's return and volatility from the returns before z-scoring), the labels CSV with
// asset names, and the evidence: written into an HTML appendix and read back through
// its escaping, checked against a real store (a report the store recorded passes; one
// changed afterwards, or citing a run edited since, does not).
#include "doctest_support.h"
#include "temp_dir.h"

#include "engine/core/error.h"
#include "engine/core/sha256.h"
#include "engine/report/membership.h"
#include "engine/report/report_content.h"
#include "engine/report/report_evidence.h"
#include "engine/store/run_store.h"
#include "kernels/host/host_gemm.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <string>

using namespace clusterdesk;

namespace {

test::TempDir& dir()
{
    static test::TempDir d;
    static const bool keyed = ::setenv("CLUSTERDESK_CHAIN_KEY", (d.path() + "/keys/chain.key").c_str(), 1) == 0;
    (void)keyed;
    return d;
}

// Four assets in two clusters, one column each side of zero.
Dataset fourAssets()
{
    Dataset d;
    d.rows = 4;
    d.cols = 2;
    d.values = {1, 0, 3, 0, -1, 0, -2, 0};
    d.rowNames = {"AAA", "B,\"B\"", "CCC", "DDD"};
    d.returnMean = {0.01, 0.03, -0.02, -0.04};
    d.returnStd = {0.1, 0.3, 0.2, 0.4};
    return d;
}

std::string html(const report::ReportEvidence& evidence)
{
    std::string escaped;
    for (char c : report::toJson(evidence)) {
        switch (c) {
        case '<': escaped += "&lt;"; break;
        case '>': escaped += "&gt;"; break;
        case '&': escaped += "&amp;"; break;
        case '"': escaped += "&quot;"; break;
        default: escaped += c;
        }
    }
    return std::string("<html><body><p>report</p><pre id=\"") + report::kEvidenceElementId + "\">" + escaped + "</pre></body></html>\n";
}

void write(const std::string& path, const std::string& text)
{
    std::ofstream(path, std::ios::binary) << text;
}

store::NewRun newRun()
{
    store::NewRun run;
    run.dataset = {std::string(64, 'a'), {"demo", "blobs:n=4,d=2,k=2,seed=7", {}}, "matrix", 4, 2, ""};
    run.params.k = 2;
    run.topology = "host";
    run.threads = 1;
    return run;
}

store::RunOutcome outcome()
{
    store::RunOutcome o;
    o.backend = "host";
    o.metricsJson = R"({"inertia":1.25,"iterations":2,"k":2})";
    o.k = 2;
    o.cols = 2;
    o.centroids = {2, 0, -1.5, 0};
    o.labels = {0, 0, 1, 1};
    return o;
}

}  // namespace

TEST_CASE("membership lists every asset by cluster, nearest first, with each cluster's return and volatility")
{
    const Dataset d = fourAssets();
    const report::Membership m = report::membershipOf(d, std::vector<std::int32_t>{0, 0, 1, 1}, std::vector<float>{2, 0, -1.5, 0}, 2, 1);
    REQUIRE(m.members.size() == 4);
    CHECK(m.members[0].cluster == 0);
    CHECK(m.members[0].distance == doctest::Approx(1.0));
    CHECK(m.members[2].cluster == 1);
    REQUIRE(m.clusters.size() == 2);
    CHECK(m.clusters[0].size == 2);
    CHECK(*m.clusters[0].meanReturn == doctest::Approx(0.02));
    CHECK(*m.clusters[1].volatility == doctest::Approx(0.3));
    CHECK(m.clusters[1].central.size() == 1);
    CHECK(m.clusters[0].meanDistance == doctest::Approx(1.0));
    CHECK_THROWS_AS(report::membershipOf(d, std::vector<std::int32_t>{0, 0, 1}, std::vector<float>{2, 0, -1.5, 0}, 2), UsageError);
    CHECK_THROWS_WITH_AS(report::membershipOf(d, std::vector<std::int32_t>{0, 0, 1, 2}, std::vector<float>{2, 0, -1.5, 0}, 2),
                         doctest::Contains("row 4 has label 2"), UsageError);

    // Names are quoted where they hold a separator; without names, row numbers.
    CHECK(report::labelsCsv(d.rowNames, std::vector<std::int32_t>{0, 0, 1, 1}) == "id,cluster\nAAA,0\n\"B,\"\"B\"\"\",0\nCCC,1\nDDD,1\n");
    CHECK(report::labelsCsv({}, std::vector<std::int32_t>{1, 0, 1, 1}) == "id,cluster\n0,1\n1,0\n2,1\n3,1\n");
}

TEST_CASE("evidence survives the HTML appendix and is checked against the store")
{
    const std::string db = dir().filePath("evidence.sqlite");
    store::RunStore runStore(db);
    std::vector<store::RunRecord> runs;
    for (int i = 0; i < 2; ++i) {
        const std::string id = runStore.beginRun(newRun());
        runStore.finishRun(id, outcome());
        runs.push_back(runStore.loadRun(id));
    }
    // A title with everything that needs escaping, inside and outside JSON.
    const report::ReportEvidence evidence = report::collectEvidence(runStore, runs, "Q3 <risk> & \"tail\" </pre> review");
    CHECK(evidence.head.seq == *runs[1].info.chainSeq);
    const std::string path = dir().filePath("report.html");
    write(path, html(evidence));
    const report::ReportEvidence back = report::readEvidence(path);
    CHECK(back.title == evidence.title);
    CHECK(back.head.hash == evidence.head.hash);
    REQUIRE(back.runs.size() == 2);
    CHECK(back.runs[1].recordHash == runs[1].info.recordHash);

    // Not yet recorded as a report: named.
    report::ReportCheck check = report::verifyReport(runStore, path);
    CHECK_FALSE(check.ok);
    CHECK(doctest::String(check.problems.front().c_str()) == doctest::Contains("is not recorded in the store as a report"));
    runStore.recordReport(sha256Hex(html(evidence)), {runs[0].info.id, runs[1].info.id});
    check = report::verifyReport(runStore, path);
    CHECK_MESSAGE(check.ok, (check.problems.empty() ? std::string() : check.problems.front()));
    CHECK(runStore.verify().ok);  // the report's edges are chained
    CHECK(runStore.reportCitations(sha256Hex(html(evidence))).size() == 2);

    // Deleting a cited run through the store is legitimate: a note, not a problem.
    runStore.deleteRun(runs[0].info.id);
    check = report::verifyReport(runStore, path);
    CHECK(check.ok);
    REQUIRE(check.notes.size() == 1);
    CHECK(doctest::String(check.notes[0].c_str()) == doctest::Contains("deleted through the store"));
}

TEST_CASE("a report without evidence, or with malformed evidence, is a clear error")
{
    const std::string plain = dir().filePath("plain.html");
    write(plain, "<html><body>no evidence</body></html>");
    CHECK_THROWS_WITH_AS(report::readEvidence(plain), doctest::Contains("holds no ClusterDesk evidence"), UsageError);
    const std::string broken = dir().filePath("broken.html");
    write(broken, std::string("<pre id=\"") + report::kEvidenceElementId + "\">{\"format\":\"clusterdesk-report-evidence/1\",\"chain_head\":{\"seq\":1e300}}</pre>");
    CHECK_THROWS_WITH_AS(report::readEvidence(broken), doctest::Contains("malformed report evidence"), UsageError);
    CHECK_THROWS_WITH_AS(report::readEvidence(dir().filePath("nothing.pdf")), doctest::Contains("no such file"), DataError);
    const std::string alone = dir().filePath("alone.pdf");
    write(alone, "%PDF-1.4");
    CHECK_THROWS_WITH_AS(report::readEvidence(alone), doctest::Contains("alone.provenance.json is missing"), UsageError);
    CHECK_THROWS_WITH_AS(report::readEvidence(dir().filePath("report.docx")), doctest::Contains(".html or a .pdf"), UsageError);
    CHECK(report::evidencePathFor("/r/q3.pdf") == "/r/q3.provenance.json");
    CHECK(report::labelsPathFor("/r/q3.pdf") == "/r/q3.labels.csv");
}

TEST_CASE("the report's environment names the BLAS the kernels were built with")
{
    const report::Facts facts = report::exportEnvironment();
    const auto blas = std::find_if(facts.begin(), facts.end(), [](const auto& fact) { return fact.first == "OpenBLAS"; });
    REQUIRE(blas != facts.end());
    // The same answer the host backend gives in every run's device line.
    const bool builtIn = std::string(kernels::host::blasName()) == "OpenBLAS";
    CHECK_MESSAGE((blas->second.find("OpenBLAS") == 0) == builtIn, blas->second.c_str());
    CHECK_MESSAGE((blas->second.find("not built in") != std::string::npos) == !builtIn, blas->second.c_str());
}
