#include "report_evidence.h"

#include "engine/cluster/cluster_codec.h"
#include "engine/core/error.h"
#include "engine/core/iso_time.h"
#include "engine/core/sha256.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <sstream>

namespace clusterdesk::report {
namespace {

using nlohmann::json;

std::string readWhole(const std::filesystem::path& file)
{
    std::error_code ignored;
    if (!std::filesystem::is_regular_file(file, ignored))
        throw DataError(file.string(), 0, 0, std::filesystem::exists(file, ignored) ? "not a regular file" : "no such file");
    std::ifstream in(file, std::ios::binary);
    if (!in) throw DataError(file.string(), 0, 0, "cannot be read");
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// The inverse of the five entities an HTML writer escapes in text.
std::string unescapeHtml(const std::string& text)
{
    static const std::pair<const char*, char> entities[] = {{"&lt;", '<'}, {"&gt;", '>'}, {"&quot;", '"'}, {"&#39;", '\''}, {"&amp;", '&'}};
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size();) {
        bool replaced = false;
        if (text[i] == '&') {
            for (const auto& [entity, c] : entities) {
                if (text.compare(i, std::char_traits<char>::length(entity), entity) == 0) {
                    out += c;
                    i += std::char_traits<char>::length(entity);
                    replaced = true;
                    break;
                }
            }
        }
        if (!replaced) out += text[i++];
    }
    return out;
}

std::string shortSeal(const std::string& seal)
{
    return seal.substr(0, 16) + "…";
}

}  // namespace

ReportEvidence collectEvidence(const store::RunStore& runStore, const std::vector<store::RunRecord>& runs, const std::string& title)
{
    ReportEvidence evidence;
    evidence.title = title;
    evidence.exportedAt = isoNowUtc();
    evidence.store = runStore.path();
    evidence.head = runStore.chainHead();
    for (const store::RunRecord& run : runs) {
        if (!run.info.chainSeq) throw UsageError("run " + run.info.id + " is still running: it has no record in the hash chain to cite yet");
        evidence.runs.push_back({run.info.id, *run.info.chainSeq, run.info.recordHash, run.info.datasetHash});
    }
    return evidence;
}

std::string toJson(const ReportEvidence& evidence)
{
    json runs = json::array();
    for (const CitedRun& run : evidence.runs)
        runs.push_back({{"id", run.id}, {"chain_seq", run.chainSeq}, {"record_hash", run.recordHash}, {"dataset_hash", run.datasetHash}});
    const json j = {{"format", kEvidenceFormat},
                    {"title", evidence.title},
                    {"exported_at", evidence.exportedAt},
                    {"store", evidence.store},
                    {"chain_head", {{"seq", evidence.head.seq}, {"seal", evidence.head.hash}}},
                    {"runs", std::move(runs)}};
    return j.dump(2, ' ', false, json::error_handler_t::replace);
}

ReportEvidence evidenceFromJson(const std::string& text, const std::string& where)
{
    try {
        const json j = codec::parseJson(text, where);
        if (j.value("format", std::string()) != kEvidenceFormat)
            throw UsageError(where + ": not a ClusterDesk report's evidence (format is not " + kEvidenceFormat + ")");
        ReportEvidence evidence;
        evidence.title = j.value("title", std::string());
        evidence.exportedAt = j.value("exported_at", std::string());
        evidence.store = j.value("store", std::string());
        const json& head = j.at("chain_head");
        evidence.head = {codec::integerField<std::int64_t>(head, "seq"), head.at("seal").get<std::string>()};
        for (const json& run : j.at("runs"))
            evidence.runs.push_back({run.at("id").get<std::string>(), codec::integerField<std::int64_t>(run, "chain_seq"),
                                     run.at("record_hash").get<std::string>(), run.value("dataset_hash", std::string())});
        return evidence;
    } catch (const json::exception& e) {
        throw UsageError(where + ": malformed report evidence: " + e.what());
    } catch (const CodecError& e) {
        throw UsageError(where + ": malformed report evidence: " + e.what());
    }
}

std::filesystem::path evidencePathFor(const std::filesystem::path& report)
{
    std::filesystem::path path = report;
    return path.replace_extension(".provenance.json");
}

std::filesystem::path labelsPathFor(const std::filesystem::path& report)
{
    std::filesystem::path path = report;
    return path.replace_extension(".labels.csv");
}

ReportEvidence readEvidence(const std::filesystem::path& report)
{
    const std::string suffix = report.extension().string();
    if (suffix != ".pdf" && suffix != ".html" && suffix != ".htm") throw UsageError(report.string() + ": a report is an .html or a .pdf file");
    // The report itself first: its evidence file alone says nothing of it.
    std::error_code ignored;
    if (!std::filesystem::exists(report, ignored)) throw DataError(report.string(), 0, 0, "no such file: there is no report to verify");
    if (suffix == ".pdf") {
        const std::filesystem::path beside = evidencePathFor(report);
        if (!std::filesystem::exists(beside))
            throw UsageError(report.string() + ": its evidence file " + beside.string() + " is missing (it is written beside the PDF)");
        return evidenceFromJson(readWhole(beside), beside.string());
    }
    const std::string html = readWhole(report);
    const std::string open = std::string("<pre id=\"") + kEvidenceElementId + "\">";
    const std::size_t start = html.find(open);
    const std::size_t end = start == std::string::npos ? start : html.find("</pre>", start);
    if (end == std::string::npos) throw UsageError(report.string() + ": holds no ClusterDesk evidence (no " + open + " element)");
    return evidenceFromJson(unescapeHtml(html.substr(start + open.size(), end - start - open.size())), report.string());
}

ReportCheck verifyReport(const store::RunStore& runStore, const std::filesystem::path& report)
{
    const ReportEvidence evidence = readEvidence(report);
    ReportCheck check;
    const auto problem = [&](const std::string& text) {
        check.ok = false;
        check.problems.push_back(text);
    };

    const store::VerifyReport chain = runStore.verify();
    if (!chain.ok) problem("the store's hash chain: " + chain.problem);

    const std::string quoted = "record #" + std::to_string(evidence.head.seq);
    if (evidence.head.seq > 0) {
        const std::optional<std::string> seal = runStore.sealAt(evidence.head.seq);
        if (!seal)
            problem("the chain no longer holds " + quoted + ", its newest record when the report was exported (" + evidence.exportedAt +
                    "): the newest records were removed, or the store was replaced by an older copy");
        else if (*seal != evidence.head.hash)
            problem(quoted + " is not the one the report quotes (sealed " + shortSeal(*seal) + ", the report says " +
                    shortSeal(evidence.head.hash) + "): the chain was rewritten after the report was exported");
    }

    for (const CitedRun& cited : evidence.runs) {
        store::RunFilter filter;
        filter.text = cited.id;
        filter.includeDeleted = true;
        const std::vector<store::RunInfo> found = runStore.listRuns(filter);
        const auto run = std::find_if(found.begin(), found.end(), [&](const store::RunInfo& r) { return r.id == cited.id; });
        if (run == found.end()) {
            problem("run " + cited.id + ", cited by the report, is not in the store: it was removed outside the store");
            continue;
        }
        if (run->recordHash != cited.recordHash || run->chainSeq != cited.chainSeq) {
            const std::string now = run->chainSeq ? "record #" + std::to_string(*run->chainSeq) : std::string("no record");
            problem("run " + cited.id + "'s record is not the one the report cites (record #" + std::to_string(cited.chainSeq) + " sealed " +
                    shortSeal(cited.recordHash) + "; now " + now + " sealed " + shortSeal(run->recordHash) + "): it was edited and re-sealed");
        }
        if (run->datasetHash != cited.datasetHash && !cited.datasetHash.empty())
            problem("run " + cited.id + " now names dataset " + run->datasetHash.substr(0, 12) + ", the report " + cited.datasetHash.substr(0, 12));
        if (run->deleted) check.notes.push_back("run " + cited.id + " was deleted through the store after the report (its record stays in the chain)");
    }

    const std::string sha = sha256Hex(readWhole(report));
    const std::vector<std::string> citations = runStore.reportCitations(sha);
    if (citations.empty())
        problem(report.string() + " (SHA-256 " + sha.substr(0, 16) +
                "…) is not recorded in the store as a report: the file was changed after export, or it comes from another store");
    for (const CitedRun& cited : evidence.runs)
        if (!citations.empty() && std::find(citations.begin(), citations.end(), cited.id) == citations.end())
            problem("the store does not record the report as citing run " + cited.id);
    return check;
}

}  // namespace clusterdesk::report
