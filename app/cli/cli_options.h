// Command-line options of `clusterdesk-cli run`, parsed into the engine's own structs.
#pragma once

#include "engine/cluster/params.h"
#include "engine/core/output_file.h"
#include "engine/data/source_spec.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace clusterdesk::cli {

struct RunOptions {
    std::string dataPath;                // --data
    std::string demoSpec;                // --demo
    std::string sourceName;              // --source, or --layout ("matrix": any matrix source): empty = chosen from the file
    SourceOptions sourceOptions;         // --window, --bar, --option KEY=VALUE
    std::optional<SourceSpec> recorded;  // a re-run: exactly what the recorded run read (instead of the above)
    KMeansParams params;
    std::string initCentroidsPath;       // --init-centroids
    std::string warmStartRun;            // --warm-start: a recorded run (id or prefix) whose final centroids start this one
    bool kGiven = false;                 // --k was given (checked against the centroid file)
    bool precisionGiven = false;         // --precision was given (refused where no GPU computes)
    std::string topology = "host";       // --topology
    int threads = 0;                     // --threads (0 = every core)
    std::string jsonPath;                // --json PATH or -
    std::string labelsPath;              // --labels-out
    std::string centroidsPath;           // --centroids-out
    bool verbose = false;                // --verbose: one line per iteration on stderr
    std::string dbPath;                  // --db: the run store (empty: store::defaultStorePath())
    bool record = true;                  // --no-record: do not record the run in the store
    std::string expectedDatasetHash;     // a re-run: the data must still hash to this
    std::string expectedRowNamesHash;    // a re-run: the row names it recorded (empty: none recorded)
};

// --db PATH given to any command, or the default store (store_path.h).
std::string storePath(const std::string& dbOption);
// The same, for commands that only read what was recorded: UsageError when the file
// does not exist (rather than creating an empty store at a mistyped path).
std::string existingStorePath(const std::string& dbOption);
// The store's files (store::storeFiles), which no output of a command may replace,
// whether or not it records there; none when no store has a place and `recording` is
// false (recording, that is a UsageError).
std::vector<ProtectedFile> storeFilesToKeep(const std::string& dbOption, bool recording);
// The files a run with these options reads (--data, the recorded run's data, --truth,
// --init-centroids), which no output may replace.
std::vector<ProtectedFile> inputFilesToKeep(const RunOptions& o);

// A count for `option`: a whole number from 1 (digits, or a power of ten such as 1e6),
// at most `most`; UsageError says what is wrong with it.
std::int64_t parsePositive(const std::string& option, const std::string& text, std::int64_t most);
int parsePositive(const std::string& option, const std::string& text);

// host@4 as runs list and the what-if spell it: the topology on 4 threads. Moves the
// count out of `topology` into `threads` (0: none given); a count given both ways must
// agree (UsageError).
void takeSpelledThreads(std::string& topology, int& threads);

// Throws UsageError with the offending option.
RunOptions parseRunOptions(const std::vector<std::string>& args);

// The engine's options, shared by run and live (--algo, --k, --k0, --kmax, --no-merge,
// --init, --max-iter, --n-init, --tol, --seed, --mode, --precision, --topology,
// --threads): true when `option` is one of them (value() takes its value).
bool parseEngineOption(const std::string& option, const std::function<const std::string&()>& value, RunOptions& o);
// Refuses engine options the chosen algorithm would silently ignore.
void checkEngineOptions(const std::vector<std::string>& args, const RunOptions& o);

std::string usageText();
// What `clusterdesk-cli COMMAND --help` prints: the usage lines and that command's
// section of usageText() (all of it for run, whose options fill most of it).
std::string usageOf(const std::string& command);

}  // namespace clusterdesk::cli
