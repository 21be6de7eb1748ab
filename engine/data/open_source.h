// The one way a dataset is opened, by the CLI, the window, the store (re-runs), the
// pool ranks and the tests: what the user named becomes a complete SourceSpec, and a
// SourceSpec opens to the same rows wherever it is opened.
#pragma once

#include "dataset.h"
#include "source_spec.h"

#include <functional>
#include <string>

namespace clusterdesk {

// A file, its source chosen by sourceName or, when empty, from its name and first
// bytes. options by name (e.g. window=250, bar=300), checked by the source: one it
// does not take is a UsageError naming it and the source ("bar applies to ticks;
// FILE holds prices"); the spec lists every option with its default filled in and
// the path made absolute. Throws DataError for a missing or unreadable file.
SourceSpec describeFile(const std::string& path, const std::string& sourceName = {}, const SourceOptions& options = {});
// The source that reads the file at path as a matrix: a binary format by its signature
// (.npy, HDF5), else delimited text ("csv"); what `--layout matrix` names.
std::string matrixSourceOf(const std::string& path);
// A generated demo ("market", "blobs:n=1000,k=4"); UsageError for an unknown demo or key.
SourceSpec describeDemo(const std::string& demoSpec);

// Loads or generates the rows; the result's spec is `spec`, with any option it lacks
// (one added after it was recorded) at its default. progress: fraction done in
// [0,1], return false to cancel (throws Cancelled). Throws DataError (bad content,
// "FILE:LINE:COLUMN: message") or UsageError (bad options).
Dataset openSource(const SourceSpec& spec, const std::function<bool(double)>& progress = {});

// openSource, with the rows' content hash computed once and kept (Dataset::knownHash,
// unless the source hashed them while it read them): for the data a front end runs,
// whose hash every recorded run, comparison, summary and history lookup names.
Dataset openSourceHashed(const SourceSpec& spec, const std::function<bool(double)>& progress = {});

}  // namespace clusterdesk
