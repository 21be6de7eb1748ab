// What a report carries so that an auditor can check it later against the store: the
// store's chain head when it was exported and the chained record of every run it cites.
// The store in turn records the report file's SHA-256 (run -> report lineage edges,
// chained). `runs verify --report FILE` re-reads both and says what no longer matches:
// it catches what `runs verify` alone cannot, the newest records deleted or the chain's
// tail rewritten consistently (by someone holding the chain key), because the report
// quotes a head the rewritten chain no longer has.
//
// Where the evidence lives: inside an HTML report, as the text of its provenance
// appendix (<pre id="clusterdesk-evidence">, HTML-escaped JSON); beside a PDF report, as
// REPORT.provenance.json (the PDF shows the same text in its appendix).
#pragma once

#include "engine/store/run_store.h"

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace clusterdesk::report {

struct CitedRun {
    std::string id;
    std::int64_t chainSeq = 0;
    std::string recordHash;
    std::string datasetHash;
};

struct ReportEvidence {
    std::string title;
    std::string exportedAt;   // ISO 8601 UTC
    std::string store;        // the store's path when exported (informative)
    store::ChainHead head;    // the chain's newest record before the report was recorded
    std::vector<CitedRun> runs;
};

inline constexpr const char* kEvidenceFormat = "clusterdesk-report-evidence/1";
inline constexpr const char* kEvidenceElementId = "clusterdesk-evidence";

// Reads what the store holds now about these completed runs. UsageError for a run that
// is still running (it has no chained record yet).
ReportEvidence collectEvidence(const store::RunStore& runStore, const std::vector<store::RunRecord>& runs, const std::string& title);

std::string toJson(const ReportEvidence& evidence);  // pretty-printed, keys sorted
// UsageError naming `where` and the field for anything malformed.
ReportEvidence evidenceFromJson(const std::string& text, const std::string& where);

// The file beside a PDF report that holds its evidence, and the one with its labels.
std::filesystem::path evidencePathFor(const std::filesystem::path& report);
std::filesystem::path labelsPathFor(const std::filesystem::path& report);

// The evidence of a report file: from an .html file's appendix, or from the file beside
// a .pdf. UsageError when there is none or it is malformed, naming the file.
ReportEvidence readEvidence(const std::filesystem::path& report);

struct ReportCheck {
    bool ok = true;
    std::vector<std::string> problems;  // each names the record or file concerned
    std::vector<std::string> notes;     // what changed legitimately (a run deleted since, through the store)
};

// Checks a report file against the store: the store's own chain (RunStore::verify), the
// quoted chain head still in the chain with the same seal, every cited run still there
// with the same record, and the file itself (by SHA-256) recorded as a report of those runs.
ReportCheck verifyReport(const store::RunStore& runStore, const std::filesystem::path& report);

}  // namespace clusterdesk::report
