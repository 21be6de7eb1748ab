#include "cli_options.h"

#include "cli_arguments.h"

#include "engine/core/error.h"
#include "engine/exec/run_clustering.h"
#include "engine/store/store_path.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <type_traits>

namespace clusterdesk::cli {
namespace {

// A number for `option`; integers from the type's least to `most`.
// Whether a decimal number as typed (digits, a point, an exponent; already read as a
// double) is a whole number: 2.0000000000000001 is not, though it reads as the double 2.
bool isWholeDecimal(const std::string& text)
{
    const std::size_t exponentAt = text.find_first_of("eE");
    const std::string mantissa = text.substr(0, exponentAt);
    long long exponent = 0;
    if (exponentAt != std::string::npos) {
        const char* first = text.data() + exponentAt + 1;
        if (*first == '+') ++first;
        if (std::from_chars(first, text.data() + text.size(), exponent).ec != std::errc())
            exponent = *first == '-' ? std::numeric_limits<long long>::min() / 2 : std::numeric_limits<long long>::max() / 2;
    }
    const std::size_t point = mantissa.find('.');
    std::string digits;
    for (char c : mantissa)
        if (c >= '0' && c <= '9') digits += c;
    const long long fractionDigits = point == std::string::npos ? 0 : static_cast<long long>(mantissa.size() - point - 1);
    // value = digits x 10^(exponent - fractionDigits); the digits' trailing zeros raise the power.
    const std::size_t lastNonZero = digits.find_last_not_of('0');
    if (lastNonZero == std::string::npos) return true;  // zero
    const auto trailingZeros = static_cast<long long>(digits.size() - lastNonZero - 1);
    return exponent - fractionDigits + trailingZeros >= 0;
}

template <class T>
T parseNumber(const std::string& option, const std::string& text, T most = std::numeric_limits<T>::max())
{
    const auto refuse = [&](const std::string& why) { return UsageError("option " + option + ": '" + text + "' " + why); };
    const auto outOfRange = [&](bool below) {
        if constexpr (std::is_integral_v<T>)
            return refuse(below ? "is too small (at least " + std::to_string(std::numeric_limits<T>::min()) + ")"
                                : "is too large (at most " + std::to_string(most) + ")");
        return refuse("is out of range");
    };
    T value{};
    if (std::is_unsigned_v<T> && !text.empty() && text[0] == '-') throw refuse("must not be negative");
    const char* const last = text.data() + text.size();
    const auto [end, ec] = std::from_chars(text.data(), last, value);
    if (ec == std::errc::result_out_of_range && end == last) throw outOfRange(text[0] == '-');
    if (ec == std::errc() && end == last) {
        if constexpr (std::is_integral_v<T>)
            if (value > most) throw outOfRange(false);
        return value;
    }
    // 0.5 where a count is wanted is a number, just not a whole one; 1e6 is one.
    double real = 0;
    const auto [realEnd, realEc] = std::from_chars(text.data(), last, real);
    if constexpr (std::is_integral_v<T>) {
        if (realEc == std::errc::result_out_of_range && realEnd == last) {
            const auto exponent = text.find_first_of("eE");
            if (exponent != std::string::npos && exponent + 1 < text.size() && text[exponent + 1] == '-')
                throw refuse("is not a whole number");  // 1e-400: below the smallest double, not 0
            throw outOfRange(text[0] == '-');
        }
        if (realEc == std::errc() && realEnd == last && !std::isnan(real)) {
            if (real != std::floor(real) || !isWholeDecimal(text)) throw refuse("is not a whole number");
            if (real < static_cast<double>(std::numeric_limits<T>::min())) throw outOfRange(true);
            // Near 2^63 or 2^64 a double rounds: max() + 1 is exact, > max() is not.
            if (real >= static_cast<double>(most) + 1.0) throw outOfRange(false);
            // Beyond 2^53 the double may not be the number typed (9007199254740993e0).
            if (std::fabs(real) >= 9007199254740992.0) throw refuse("is 2^53 or more, where a number with an exponent may round: write it in digits");
            return static_cast<T>(real);
        }
    }
    throw refuse("is not a valid number");
}

template <class Enum>
Enum parseChoice(const std::string& option, const std::string& text,
                 std::initializer_list<std::pair<const char*, Enum>> choices)
{
    std::string names;
    for (const auto& [name, value] : choices) {
        if (text == name) return value;
        names += std::string(names.empty() ? "" : ", ") + name;
    }
    throw UsageError("option " + option + ": '" + text + "' is not one of " + names);
}

// A source option (--window, --bar, --truth, --option KEY=VALUE), given once whichever
// way: two different values for one key are refused, not resolved by their order.
void setSourceOption(RunOptions& o, const std::string& option, const std::string& key, std::string value)
{
    // Absolute, so the recorded source still finds it from another folder (a re-run, the window).
    if (key == "truth" && !value.empty()) value = std::filesystem::absolute(value).lexically_normal().string();
    const auto [at, added] = o.sourceOptions.emplace(key, value);
    if (!added && at->second != value)
        throw UsageError("option " + option + ": the source option " + key + " is already " + at->second + "; give it once");
}

}  // namespace

std::int64_t parsePositive(const std::string& option, const std::string& text, std::int64_t most)
{
    const auto tooSmall = [&] { return UsageError("option " + option + ": must be at least 1 (got " + text + ")"); };
    if (!text.empty() && text[0] == '-') throw tooSmall();  // -1e30 too: not "too small for an int64"
    const auto value = parseNumber<std::int64_t>(option, text, most);
    if (value < 1) throw tooSmall();
    return value;
}

void takeSpelledThreads(std::string& topology, int& threads)
{
    const TopologyWithThreads spelled = splitThreads(topology);
    if (spelled.threads == 0) return;
    if (threads > 0 && threads != spelled.threads)
        throw UsageError("topology " + topology + " and --threads " + std::to_string(threads) + " give two thread counts; give one");
    topology = spelled.topology;
    threads = spelled.threads;
}

int parsePositive(const std::string& option, const std::string& text)
{
    return static_cast<int>(parsePositive(option, text, std::numeric_limits<int>::max()));
}

std::string usageText()
{
    return R"(Usage:
  clusterdesk-cli run (--data PATH | --demo NAME[:k=v,...]) [options]
  clusterdesk-cli runs COMMAND [--db PATH] ...
  clusterdesk-cli report ID... --out FILE.html|FILE.pdf [--title TEXT] [--db PATH]
  clusterdesk-cli whatif (--data PATH | --demo SPEC | --shape ROWSxCOLS) --topologies LIST [options]
  clusterdesk-cli live --feed URL [options]
  clusterdesk-cli --help | --version

Clusters the rows of a dataset and prints a summary. Every run is recorded in the
run store (see "Runs" below) unless --no-record is given.

Data:
  --data PATH             CSV/TSV matrix, wide prices CSV, long ticks CSV, .npy or
                          HDF5 (.h5/.hdf5)
  --demo SPEC             generated data: market[:assets=500,sectors=10,days=750,seed=7,window=0,
                          strong=0,corr_market=0.37,corr_sector=0.57,scale_days=1]
                          or blobs[:n=10000,d=16,k=8,seed=7,spread=1,overlap=0]
  --source S              csv | prices | ticks | npy | hdf5 (default: chosen from the
                          file's name and first bytes)
  --layout L              matrix | prices | ticks: the same, by what the file holds
  --window N              prices/ticks: use the last N log returns as features (0,
                          the default: all of them)
  --bar SECONDS           ticks: bar length for resampling (default 60)
  --truth FILE            prices/ticks: a sector map, CSV "asset,sector" with a header
                          line, as the ground truth (ARI and NMI like a demo's)
  --option KEY=VALUE      any option of the source, e.g. dataset=/prices for HDF5, or
                          scale_days=0 for prices/ticks (days left unscaled)

Algorithm:
  --algo A                kmeans | adaptgrow (default kmeans)
  --k N                   clusters for kmeans (default 8)
  --k0 N, --kmax N        AdaptGrow's starting and largest k (default 2 and 64; kmax
                          is capped at the row count, k0 at kmax)
  --no-merge              AdaptGrow: do not merge clusters after growing
  --init I                kmeans++ | kmeans|| (default kmeans++)
  --init-centroids PATH   start from these centroids (CSV or .npy; k rows for kmeans,
                          k0 rows for adaptgrow)
  --warm-start ID         start from the final centroids of a recorded run (lineage
                          records the warm start)
  --n-init N              kmeans: run from N initialisations (seeds seed, seed+1, ...)
                          and keep the lowest inertia, like scikit-learn's n_init
                          (default 1); adaptgrow: N k-means restarts at the k it chose
                          compete with its own partition, and k is tested again on
                          the partition kept; exact mode keeps the same start on every
                          topology
  --max-iter N            Lloyd iterations at most (default 100)
  --tol X                 stop when the relative inertia change is below X (default 1e-4)
  --seed N                random seed (default 1)

Execution:
  --mode M                fast (float sums; default) | exact (fixed-point sums,
                          bit-identical on every topology)
  --precision P           fp32 | tf32 | bf16: GEMM inputs on CUDA (default fp32;
                          the host always computes fp32)
  --topology T            host | shards:N | cuda | cuda:0,1,... (default host), or
                          pool:N | pool:HOSTFILE: MPI ranks started with mpirun
                          (clusterdesk-worker beside this program; needs OpenMPI);
                          host@4, as runs list shows it: host on 4 threads
                          (host alone: every core, or fewer for a small run)
  --threads N             host threads in all, 1..1024 (default: every core)

Output:
  --json PATH|-           write the run summary as JSON (- for stdout)
  --labels-out PATH       CSV "id,cluster" in row order: the asset (row name) or,
                          without names, the 0-based row number
  --centroids-out PATH    CSV with one centroid per line
  --verbose               one line per iteration on stderr
  --db PATH               record into this run store (default below)
  --no-record             do not record the run

Runs (every command takes --db PATH; ID is a run id or a unique prefix of one):
  runs list [--json] [--status S] [--filter TEXT] [--sort started|ended|algorithm|
            status|energy|duration] [--asc] [--limit N] [--deleted]
  runs show ID [--json]   everything recorded about a run, with its lineage
  runs rerun ID [--topology T] [--threads N]
                          runs it again from its record; exact mode must reproduce
                          the labels bit for bit (exit 1 otherwise), fast mode
                          reports the ARI against the stored labels; an update of a
                          live session replays the session up to it from the input
                          recorded with each update, compared update by update
  runs diff ID ID         parameters, topology, metrics, and the ARI of the labels
  runs verify             recomputes the chain, names the first edited record, a
                          deletion or edge made outside the store, lost records
  runs verify --report FILE
                          checks a report against the store: every run it cites and
                          the chain head it quotes unchanged, the file itself recorded
  runs export ID --out DIR  run.json, labels.csv, centroids.csv, iterations.csv,
                          telemetry.csv
  runs delete ID          hides a run for good (its record stays in the hash chain;
                          a deletion is itself chained, so it is not undone)
  runs gc                 removes the stored labels and centroids of deleted runs

What-if (the same job on several topologies, measured here or modeled):
  whatif (--data PATH | --demo SPEC) --topologies LIST [engine options] [--json PATH|-]
                          runs the job on each topology this machine has, predicts it
                          on the others, and prints time per iteration (measured, and
                          what the model predicts when calibrated without it), the
                          bottleneck phase, total time, energy, cost, speedup and
                          whether the answer changed (exact mode: identical; fast
                          mode: ARI against an exact run). Recorded in the store.
  --topologies LIST       comma-separated: host, shards:N, pool:N (any --topology
                          spelling, @THREADS for the threads: host@1), and
                          model:DEVICE[xN][:nodes=M][:link=LINK][:net=LINK] from the
                          catalog, e.g. model:h200x8, model:h200x8:nodes=4:net=ib-ndr,
                          model:epyc-9654x2
  --shape ROWSxCOLS       a job without data (model: topologies only), e.g.
                          --shape 1000000x256 --k 20000 --max-iter 25
  --catalog FILE          the hardware catalog (default: ~/.config/clusterdesk/
                          catalog.json if it exists, else the one built in)
  whatif --write-catalog [FILE]
                          writes the built-in catalog to FILE (default the user copy
                          above) to edit: prices, your own devices and links

Live (built with Qt; a feed is clusterdesk-feed --demo market, or any server speaking its messages):
  live --feed URL [engine options] [--json PATH|-]
                          connects (ws://, wss://, tcp://HOST:PORT), builds bars from the
                          ticks and re-clusters the rolling window of z-scored bar
                          returns every few bars, warm-started from the previous update,
                          with cluster ids kept stable; prints each update: clusters
                          born, died, split or merged, the assets that moved, the
                          latency from the tick that completed the bar to the published
                          clusters (p50/p99), ARI when the feed carries sectors. Each
                          update is recorded as a run (warm-start edge to the previous).
                          Ends with a summary on Ctrl-C, --duration or --updates.
                          --json -: one JSON line per update instead; --json FILE:
                          those lines in FILE, the text on stdout as well.
  --token-file FILE       the feed's access token (else $CLUSTERDESK_FEED_TOKEN; never
                          on the command line)
  --symbols A,B,...       subscribe to these only (default: every symbol)
  --bar SECONDS           bar length (default 1)
  --window BARS           returns per asset in the window (default 60)
  --half-life TIME        weigh returns by age: a weight halves every 10s, 2m, ... of
                          bar time (default: every return in the window the same)
  --update-every BARS     re-cluster after this many new bars (default 5)
  --duration TIME         stop after 60s, 5m, 1h; --updates N: after N updates
  (--k defaults to 10 here, the market demo's sectors; --threads to 1)

Reports (built with Qt):
  report ID... --out F    one document for these runs: summary, dataset, parameters,
                          environment, results, clusters with their members, the
                          Clusters/Evolution/Latency/Power graphs, lineage, evidence.
                          F.html is self-contained (inline SVG, no script, no network);
                          F.pdf gets F.provenance.json and F.labels.csv beside it
                          (F.RUNID.labels.csv for each of several runs).
                          The file's SHA-256 is recorded in the store's hash chain.
  --title TEXT            the report's title (default: made from the runs)

The store is $CLUSTERDESK_DB if set, else $XDG_DATA_HOME/clusterdesk/runs.sqlite,
else ~/.local/share/clusterdesk/runs.sqlite; the GUI uses the same file. Its chain is
sealed with the key $CLUSTERDESK_CHAIN_KEY, else $XDG_CONFIG_HOME/clusterdesk/chain.key,
else ~/.config/clusterdesk/chain.key (made on first use; keep it with the store's backups).
list, show, diff, verify and export open the store read-only; report writes to it.

Exit codes: 0 success, 1 a check failed (runs verify, runs rerun), 2 usage error,
3 bad input data, 4 engine, device or run store error, 5 an output file could not be
written (it keeps what it held; a path that cannot be written at all, such as a
read-only folder or file, is refused before the run with exit 2), 130 cancelled (Ctrl-C).
)";
}

std::string usageOf(const std::string& command)
{
    static const std::map<std::string, std::string> headings = {
        {"runs", "Runs ("}, {"whatif", "What-if ("}, {"live", "Live ("}, {"report", "Reports ("}};
    const std::string text = usageText();
    if (command == "run") {
        // Everything before the other commands' sections, and the store and exit codes after them.
        const std::size_t others = text.find("\nRuns (");
        const std::size_t after = text.find("\nThe store is");
        if (others == std::string::npos || after == std::string::npos) return text;
        return text.substr(0, others + 1) + text.substr(after + 1) + "\nSee clusterdesk-cli --help for the other commands.\n";
    }
    const auto heading = headings.find(command);
    if (heading == headings.end()) return text;
    // The usage lines, then the section from its heading to the next line that starts in
    // the first column (the next heading or paragraph; sections are indented under theirs).
    const std::size_t usageEnd = text.find("\n\n");
    const std::size_t start = text.find("\n" + heading->second);
    if (usageEnd == std::string::npos || start == std::string::npos) return text;
    std::size_t end = text.find('\n', start + 1);
    while (end != std::string::npos && end + 1 < text.size() && text[end + 1] == ' ') end = text.find('\n', end + 1);
    if (end == std::string::npos) end = text.size() - 1;
    return text.substr(0, usageEnd + 2) + text.substr(start + 1, end - start) + "\nSee clusterdesk-cli --help for everything.\n";
}

std::string storePath(const std::string& dbOption)
{
    return dbOption.empty() ? store::defaultStorePath().string() : dbOption;
}

std::string existingStorePath(const std::string& dbOption)
{
    const std::string path = storePath(dbOption);
    if (!std::filesystem::exists(path))
        throw UsageError("no run store at " + path + " (clusterdesk-cli run records runs there; --db PATH names another)");
    return path;
}

std::vector<ProtectedFile> storeFilesToKeep(const std::string& dbOption, bool recording)
{
    try {
        return store::storeFiles(storePath(dbOption));
    } catch (const UsageError&) {
        if (recording) throw;
        return {};  // no place for a store: nothing of it to overwrite
    }
}

std::vector<ProtectedFile> inputFilesToKeep(const RunOptions& o)
{
    std::vector<ProtectedFile> keep;
    if (!o.dataPath.empty()) keep.push_back({o.dataPath, "the input data (--data)"});
    if (o.recorded) {
        const std::vector<ProtectedFile> recorded = inputFilesOf(*o.recorded, "the recorded run");
        keep.insert(keep.end(), recorded.begin(), recorded.end());
    }
    if (!o.initCentroidsPath.empty()) keep.push_back({o.initCentroidsPath, "the initial centroids (--init-centroids)"});
    if (const auto truth = o.sourceOptions.find("truth"); truth != o.sourceOptions.end()) keep.push_back({truth->second, "the sector map (--truth)"});
    return keep;
}

bool parseEngineOption(const std::string& option, const std::function<const std::string&()>& value, RunOptions& o)
{
    if (option == "--algo")
        o.params.algorithm = parseChoice<Algorithm>(option, value(), {{"kmeans", Algorithm::KMeans}, {"adaptgrow", Algorithm::AdaptGrow}});
    else if (option == "--k") {
        o.params.k = parsePositive(option, value());
        o.kGiven = true;
    } else if (option == "--k0") o.params.k0 = parsePositive(option, value());
    else if (option == "--kmax") o.params.kMax = parsePositive(option, value());
    else if (option == "--no-merge") o.params.merge = false;
    else if (option == "--init")
        o.params.init = parseChoice<InitMethod>(option, value(), {{"kmeans++", InitMethod::KMeansPlusPlus}, {"kmeans||", InitMethod::KMeansParallel}});
    else if (option == "--max-iter") o.params.maxIterations = parsePositive(option, value());
    else if (option == "--n-init") o.params.nInit = parsePositive(option, value());
    else if (option == "--tol") {
        o.params.tolerance = parseNumber<double>(option, value());
        // inf would stop after one iteration and record it as converged; nan never compares.
        if (!(o.params.tolerance >= 0) || !std::isfinite(o.params.tolerance))
            throw UsageError("option --tol: must be a finite number >= 0 (got " + std::to_string(o.params.tolerance) + ")");
    } else if (option == "--seed") o.params.seed = parseNumber<std::uint64_t>(option, value());
    else if (option == "--mode")
        o.params.mode = parseChoice<kernels::Mode>(option, value(), {{"fast", kernels::Mode::Fast}, {"exact", kernels::Mode::Exact}});
    else if (option == "--precision") {
        o.precisionGiven = true;
        o.params.precision = parseChoice<kernels::Precision>(option, value(), {{"fp32", kernels::Precision::FP32}, {"tf32", kernels::Precision::TF32}, {"bf16", kernels::Precision::BF16}});
    }
    else if (option == "--topology") o.topology = value();
    else if (option == "--threads") {
        o.threads = parsePositive(option, value());
        validate(o.threads);
    }
    else return false;
    return true;
}

void checkEngineOptions(const std::vector<std::string>& args, const RunOptions& o)
{
    auto given = [&](const char* option) { return std::find(args.begin(), args.end(), option) != args.end(); };
    const bool kmeans = o.params.algorithm == Algorithm::KMeans;
    if (kmeans && (given("--k0") || given("--kmax") || given("--no-merge")))
        throw UsageError("--k0, --kmax and --no-merge apply to --algo adaptgrow");
    if (!kmeans && given("--k"))
        throw UsageError("--k applies to --algo kmeans; AdaptGrow chooses k (from --k0, splitting up to --kmax, then merging)");
}

RunOptions parseRunOptions(const std::vector<std::string>& args)
{
    RunOptions o;
    std::set<std::string> seen;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& option = args[i];
        refuseRepeated(seen, option);
        auto value = [&]() -> const std::string& { return takeValue(args, i); };
        // Only --json has a stdout form (-): the summary and a table would mix there.
        auto fileValue = [&]() -> const std::string& {
            const std::string& path = value();
            if (path == "-") throw UsageError("option " + option + ": '-' is not a file here; name the file to write (--json - prints on stdout)");
            return path;
        };
        if (option == "--data") o.dataPath = value();
        else if (option == "--demo") o.demoSpec = value();
        else if (option == "--source" || option == "--layout") {
            if (!o.sourceName.empty()) throw UsageError("give one of --source and --layout");
            o.sourceName = value();
            // --layout matrix is settled once the file is known (run_command.cpp).
            if (option == "--layout") o.sourceName = parseChoice<std::string>(option, o.sourceName, {{"matrix", "matrix"}, {"prices", "prices"}, {"ticks", "ticks"}});
        }
        else if (option == "--window") {
            // 0: every return, as the sources (window=0) and the window's "all returns" say.
            const std::string& text = value();
            const auto notACount = [&] { return UsageError("option --window: a number of returns, or 0 for all of them (got " + text + ")"); };
            if (!text.empty() && text[0] == '-') throw notACount();
            const int window = parseNumber<int>(option, text);
            setSourceOption(o, option, "window", std::to_string(window));
        }
        else if (option == "--bar") setSourceOption(o, option, "bar", std::to_string(parsePositive(option, value())));
        else if (option == "--truth") setSourceOption(o, option, "truth", value());
        else if (option == "--option") {
            const std::string& pair = value();
            const std::size_t equals = pair.find('=');
            if (equals == std::string::npos || equals == 0) throw UsageError("option --option: expected KEY=VALUE, got '" + pair + "'");
            setSourceOption(o, option, pair.substr(0, equals), pair.substr(equals + 1));
        }
        else if (option == "--init-centroids") o.initCentroidsPath = value();
        else if (option == "--warm-start") o.warmStartRun = value();
        else if (parseEngineOption(option, value, o)) {}
        else if (option == "--json") o.jsonPath = value();
        else if (option == "--labels-out") o.labelsPath = fileValue();
        else if (option == "--centroids-out") o.centroidsPath = fileValue();
        else if (option == "--verbose") o.verbose = true;
        else if (option == "--db") o.dbPath = value();
        else if (option == "--no-record") o.record = false;
        else throw UsageError("unknown option '" + option + "' (see clusterdesk-cli --help)");
    }
    if (o.dataPath.empty() == o.demoSpec.empty()) throw UsageError("give exactly one of --data PATH or --demo SPEC");
    // Options that would be silently ignored are refused, so a run never records a
    // setting it did not use.
    auto given = [&](const char* option) { return std::find(args.begin(), args.end(), option) != args.end(); };
    if (!o.demoSpec.empty() && (!o.sourceName.empty() || !o.sourceOptions.empty()))
        throw UsageError("--source, --layout, --window, --bar, --truth and --option apply to --data; a demo takes its own keys (e.g. market:window=250)");
    checkEngineOptions(args, o);
    if (!o.record && given("--db") && o.warmStartRun.empty())
        throw UsageError("--db names where to record; it makes no sense with --no-record");
    if (!o.initCentroidsPath.empty() || !o.warmStartRun.empty()) {
        if (given("--init") + !o.initCentroidsPath.empty() + !o.warmStartRun.empty() > 1)
            throw UsageError("give one of --init, --init-centroids and --warm-start");
        o.params.init = InitMethod::Given;
    }
    return o;
}

}  // namespace clusterdesk::cli
