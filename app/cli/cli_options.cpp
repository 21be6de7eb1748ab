#include "cli_options.h"

#include "engine/core/error.h"
#include "engine/exec/run_clustering.h"

#include <algorithm>
#include <charconv>
#include <cstdlib>

namespace clusterdesk::cli {
namespace {

template <class T>
T parseNumber(const std::string& option, const std::string& text)
{
    T value{};
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size())
        throw UsageError("option " + option + ": '" + text + "' is not a valid number");
    return value;
}

int parsePositive(const std::string& option, const std::string& text)
{
    const int value = parseNumber<int>(option, text);
    if (value < 1) throw UsageError("option " + option + ": must be at least 1 (got " + text + ")");
    return value;
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

}  // namespace

std::string usageText()
{
    return R"(Usage:
  clusterdesk-cli run (--data PATH | --demo NAME[:k=v,...]) [options]
  clusterdesk-cli --help | --version

Clusters the rows of a dataset and prints a summary.

Data:
  --data PATH             CSV/TSV matrix, wide prices CSV, long ticks CSV or .npy
  --demo SPEC             generated data: market[:assets=500,sectors=10,days=750,seed=7,window=0]
                          or blobs[:n=10000,d=16,k=8,seed=7,spread=1]
  --layout L              matrix | prices | ticks (default: sniffed from the file)
  --window N              prices/ticks: use the last N log returns as features
  --bar SECONDS           ticks: bar length for resampling (default 60)

Algorithm:
  --algo A                kmeans | adaptgrow (default kmeans)
  --k N                   clusters for kmeans (default 8)
  --k0 N, --kmax N        AdaptGrow's starting and largest k (default 2, and 64 or
                          the row count if smaller)
  --no-merge              AdaptGrow: do not merge clusters after growing
  --init I                kmeans++ | kmeans|| (default kmeans++)
  --init-centroids PATH   start from these centroids (CSV or .npy; k rows for kmeans,
                          k0 rows for adaptgrow)
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
                          (clusterdesk-worker beside this program; needs OpenMPI)
  --threads N             host threads in all, 1..1024 (default: every core)

Output:
  --json PATH|-           write the run summary as JSON (- for stdout)
  --labels-out PATH       one label per line, in row order
  --centroids-out PATH    CSV with one centroid per line
  --verbose               one line per iteration on stderr

Exit codes: 0 success, 2 usage error, 3 bad input data, 4 engine or device error,
130 cancelled (Ctrl-C).
)";
}

RunOptions parseRunOptions(const std::vector<std::string>& args)
{
    RunOptions o;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& option = args[i];
        auto value = [&]() -> const std::string& {
            if (i + 1 >= args.size()) throw UsageError("option " + option + " needs a value");
            return args[++i];
        };
        if (option == "--data") o.dataPath = value();
        else if (option == "--demo") o.demoSpec = value();
        else if (option == "--layout")
            o.load.layout = parseChoice<Layout>(option, value(), {{"matrix", Layout::Matrix}, {"prices", Layout::Prices}, {"ticks", Layout::Ticks}});
        else if (option == "--window") o.load.returnWindow = parsePositive(option, value());
        else if (option == "--bar") o.load.barSeconds = parsePositive(option, value());
        else if (option == "--algo")
            o.params.algorithm = parseChoice<Algorithm>(option, value(), {{"kmeans", Algorithm::KMeans}, {"adaptgrow", Algorithm::AdaptGrow}});
        else if (option == "--k") {
            o.params.k = parsePositive(option, value());
            o.kGiven = true;
        } else if (option == "--k0") {
            o.params.k0 = parsePositive(option, value());
            o.k0Given = true;
        }
        else if (option == "--kmax") {
            o.params.kMax = parsePositive(option, value());
            o.kMaxGiven = true;
        }
        else if (option == "--no-merge") o.params.merge = false;
        else if (option == "--init")
            o.params.init = parseChoice<InitMethod>(option, value(), {{"kmeans++", InitMethod::KMeansPlusPlus}, {"kmeans||", InitMethod::KMeansParallel}});
        else if (option == "--init-centroids") o.initCentroidsPath = value();
        else if (option == "--max-iter") o.params.maxIterations = parsePositive(option, value());
        else if (option == "--tol") {
            o.params.tolerance = parseNumber<double>(option, value());
            if (!(o.params.tolerance >= 0)) throw UsageError("option --tol: must be >= 0 (got " + args[i] + ")");
        } else if (option == "--seed") o.params.seed = parseNumber<std::uint64_t>(option, value());
        else if (option == "--mode")
            o.params.mode = parseChoice<kernels::Mode>(option, value(), {{"fast", kernels::Mode::Fast}, {"exact", kernels::Mode::Exact}});
        else if (option == "--precision")
            o.params.precision = parseChoice<kernels::Precision>(option, value(), {{"fp32", kernels::Precision::FP32}, {"tf32", kernels::Precision::TF32}, {"bf16", kernels::Precision::BF16}});
        else if (option == "--topology") o.topology = value();
        else if (option == "--threads") {
            o.threads = parsePositive(option, value());
            validate(o.threads);
        }
        else if (option == "--json") o.jsonPath = value();
        else if (option == "--labels-out") o.labelsPath = value();
        else if (option == "--centroids-out") o.centroidsPath = value();
        else if (option == "--verbose") o.verbose = true;
        else throw UsageError("unknown option '" + option + "' (see clusterdesk-cli --help)");
    }
    if (o.dataPath.empty() == o.demoSpec.empty()) throw UsageError("give exactly one of --data PATH or --demo SPEC");
    // Options that would be silently ignored are refused, so a run never records a
    // setting it did not use.
    auto given = [&](const char* option) { return std::find(args.begin(), args.end(), option) != args.end(); };
    if (!o.demoSpec.empty() && (given("--layout") || given("--window") || given("--bar")))
        throw UsageError("--layout, --window and --bar apply to --data; a demo takes its own keys (e.g. market:window=250)");
    const bool kmeans = o.params.algorithm == Algorithm::KMeans;
    if (kmeans && (given("--k0") || given("--kmax") || given("--no-merge")))
        throw UsageError("--k0, --kmax and --no-merge apply to --algo adaptgrow");
    if (!kmeans && given("--k"))
        throw UsageError("--k applies to --algo kmeans; AdaptGrow chooses k between --k0 and --kmax");
    if (!o.initCentroidsPath.empty()) {
        if (given("--init")) throw UsageError("give --init or --init-centroids, not both");
        o.params.init = InitMethod::Given;
    }
    return o;
}

}  // namespace clusterdesk::cli
