// What a dataset was read from, complete enough to read it again anywhere: which
// source (a registered DataSource), where (a file path, or a generated demo's spec)
// and every option that shaped the rows, defaults spelled out. One description serves
// the store, the pool job (every rank reopens exactly this), --json and exports.
#pragma once

#include "engine/core/output_file.h"

#include <map>
#include <string>
#include <vector>

namespace clusterdesk {

// Option name -> canonical value text, as the source itself writes it back.
using SourceOptions = std::map<std::string, std::string>;

struct SourceSpec {
    std::string source;     // registered source name: "csv", "prices", "ticks", "npy", "hdf5", "demo", ...
    std::string location;   // absolute file path, or a demo's canonical spec
    SourceOptions options;  // every option the source took, defaults included

    bool operator==(const SourceSpec&) const = default;
};

// Whether the spec is generated (a demo: no file behind it).
bool isGenerated(const SourceSpec& spec);

// The source of a live session's window (location: the feed's URL). Not a registered
// source: a window is assembled from the feed, never reopened (runs rerun replays it).
inline constexpr const char* kLiveSource = "live";

// The files the source reads (its file, its sector map), which no output may replace;
// none for generated data or a live feed. Their roles end in `whose`: "the data of
// run 01234567", "the sector map of run 01234567".
std::vector<ProtectedFile> inputFilesOf(const SourceSpec& spec, const std::string& whose);

// {"source":..., "location":..., "options":{...}}.
std::string sourceSpecToJson(const SourceSpec& spec);
// Throws UsageError naming the field that is missing or malformed.
SourceSpec sourceSpecFromJson(const std::string& json);

}  // namespace clusterdesk
