// Writes a report of recorded runs and records it in the store: gathers what it says
// (engine/report), draws the graphs, writes the document (HTML or PDF by the file's
// suffix; beside a PDF its evidence JSON and the labels CSV of each run), each file
// through a temporary renamed into place, and finally records the document's SHA-256
// as a report of those runs in the store's hash chain. When anything fails, no file it
// wrote is left behind and the store is unchanged. Needs a QApplication.
#pragma once

#include "engine/store/run_store.h"

#include <filesystem>
#include <string>
#include <vector>

namespace clusterdesk::report {

struct ReportRequest {
    std::vector<std::string> runs;  // ids or unique prefixes
    std::filesystem::path out;      // .html or .pdf
    std::string title;              // empty: one made from the runs
};

struct WrittenReport {
    std::vector<std::filesystem::path> files;  // the document first
    std::string sha256;                        // of the document, as recorded
    std::vector<std::string> runIds;
};

// UsageError for a bad request (suffix, unknown run, unwritable path, a path that is an
// input or the store); OutputError when a write fails; StoreError when recording fails.
WrittenReport writeReport(store::RunStore& runStore, const ReportRequest& request);

}  // namespace clusterdesk::report
