// clusterdesk-worker: the Qt-free program that checks and times the kernels on this
// machine's backends (--selftest, --bench), and one MPI rank of a pool run (--rank).
#include "bench.h"
#include "lloyd_run.h"
#include "selftest.h"
#ifdef CLUSTERDESK_HAVE_MPI
#include "probe.h"
#include "rank.h"
#endif

#include "clusterdesk/version.h"

#include <charconv>
#include <initializer_list>
#include <utility>
#include <iostream>
#include <string>
#include <vector>

namespace {

const char* kUsage = R"(Usage:
  clusterdesk-worker --selftest
      Runs every kernel on each backend (host at another thread count, each CUDA
      device) against the single-threaded host result; one PASS/FAIL line per kernel.
      Then the NCCL communicator (one rank per GPU) against known sums, and exact
      runs on cuda:0,0, cuda:0,0,0 and all GPUs against the host, bit for bit (SKIP
      lines with the reason when there is no GPU or no NCCL).
      Exit status 0 when every check passes, 1 otherwise.
  clusterdesk-worker --bench [--rows N] [--cols D] [--k K] [--repeats R] [--backend B]
      Times each kernel (default 1000000 x 32, k=64) on every backend, or on B alone
      (host, cuda:0, ...), and prints ms, GFLOP/s and GB/s next to the host's measured
      SGEMM rate and, for a GPU the hardware catalog knows, its datasheet peaks.
  clusterdesk-worker --lloyd --data X.npy --init C.npy [--iterations N] [--topology T]
                     [--mode fast|exact] [--precision fp32|tf32|bf16]
      k-means from the centroids in C (one per row) for exactly N iterations (default
      10) on T (default cuda:0 when there is a GPU, else host), power sampled; prints
      the run summary as clusterdesk-cli run --json does, without recording it. For
      benchmarks against another k-means where there is no run store.
  clusterdesk-worker --sgemm
      Prints the host's measured SGEMM rate in GFLOP/s (all threads), for scale.
  clusterdesk-worker --rank JOB.json
      One rank of a pool run, started by mpirun (clusterdesk-cli --topology pool:N):
      clusters its rows of the job's data; rank 0 prints JSON lines on stdout.
      Needs a build with MPI.
  clusterdesk-worker --probe
      Started by mpirun like --rank: rank 0 prints one JSON line per rank with its
      host, backend and device (the pool's connection test). Needs a build with MPI.
  clusterdesk-worker --help | --version
)";

template <class T>
bool choose(const std::string& text, std::initializer_list<std::pair<const char*, T>> choices, T& value)
{
    for (const auto& [name, choice] : choices)
        if (text == name) {
            value = choice;
            return true;
        }
    return false;
}

bool parseInt(const std::string& text, long long& value)
{
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    return ec == std::errc() && end == text.data() + text.size() && value > 0;
}

}  // namespace

int main(int argc, char** argv)
{
    const std::vector<std::string> args(argv + 1, argv + argc);
    if (args.empty() || args[0] == "--help" || args[0] == "-h") {
        std::cout << kUsage;
        return args.empty() ? 2 : 0;
    }
    if (args[0] == "--version") {
        std::cout << "clusterdesk-worker " << CLUSTERDESK_VERSION << " (commit " << CLUSTERDESK_GIT_COMMIT << ")\n";
        return 0;
    }
    if (args[0] == "--rank") {
        if (args.size() != 2) {
            std::cerr << "clusterdesk-worker: --rank needs exactly one job file\n";
            return 2;
        }
#ifdef CLUSTERDESK_HAVE_MPI
        return clusterdesk::worker::runRank(args[1], argc, argv);
#else
        std::cerr << "clusterdesk-worker: built without MPI, so it cannot be a pool rank (--rank)\n";
        return 4;
#endif
    }
    if (args[0] == "--probe" && args.size() == 1) {
#ifdef CLUSTERDESK_HAVE_MPI
        return clusterdesk::worker::runProbe(argc, argv);
#else
        std::cerr << "clusterdesk-worker: built without MPI, so it cannot probe a pool (--probe)\n";
        return 4;
#endif
    }
    try {
        if (args[0] == "--selftest" && args.size() == 1) return clusterdesk::worker::runSelftest(std::cout) == 0 ? 0 : 1;
        if (args[0] == "--sgemm" && args.size() == 1) {
            std::cout << clusterdesk::worker::hostSgemmGflops() << " GFLOP/s\n";
            return 0;
        }
        if (args[0] == "--bench") {
            clusterdesk::worker::BenchShape shape;
            for (std::size_t i = 1; i < args.size(); i += 2) {
                long long value = 0;
                if (i + 1 >= args.size() || (args[i] != "--backend" && !parseInt(args[i + 1], value))) {
                    std::cerr << "clusterdesk-worker: " << args[i] << " needs a positive number\n";
                    return 2;
                }
                if (args[i] == "--rows") shape.rows = value;
                else if (args[i] == "--cols") shape.cols = value;
                else if (args[i] == "--k") shape.k = static_cast<int>(value);
                else if (args[i] == "--repeats") shape.repeats = static_cast<int>(value);
                else if (args[i] == "--backend") shape.backend = args[i + 1];
                else {
                    std::cerr << "clusterdesk-worker: unknown option " << args[i] << '\n';
                    return 2;
                }
            }
            clusterdesk::worker::runBench(shape, std::cout);
            return 0;
        }
        if (args[0] == "--lloyd") {
            clusterdesk::worker::LloydRunOptions options;
            for (std::size_t i = 1; i < args.size(); i += 2) {
                const std::string& option = args[i];
                const std::string value = i + 1 < args.size() ? args[i + 1] : "";
                long long count = 0;
                bool ok = !value.empty();
                if (option == "--data") options.data = value;
                else if (option == "--init") options.init = value;
                else if (option == "--topology") options.topology = value;
                else if (option == "--iterations") {
                    ok = parseInt(value, count) && count <= 1000000;
                    options.iterations = static_cast<int>(count);
                }
                else if (option == "--mode") ok = choose(value, {{"fast", clusterdesk::kernels::Mode::Fast}, {"exact", clusterdesk::kernels::Mode::Exact}}, options.mode);
                else if (option == "--precision")
                    ok = choose(value, {{"fp32", clusterdesk::kernels::Precision::FP32}, {"tf32", clusterdesk::kernels::Precision::TF32}, {"bf16", clusterdesk::kernels::Precision::BF16}}, options.precision);
                else {
                    std::cerr << "clusterdesk-worker: unknown option " << option << " (see --help)\n";
                    return 2;
                }
                if (!ok) {
                    std::cerr << "clusterdesk-worker: " << option << " needs " << (value.empty() ? "a value" : "another value than '" + value + "'") << " (see --help)\n";
                    return 2;
                }
            }
            if (options.data.empty() || options.init.empty()) {
                std::cerr << "clusterdesk-worker: --lloyd needs --data and --init (see --help)\n";
                return 2;
            }
            clusterdesk::worker::runLloyd(options, std::cout);
            return 0;
        }
    } catch (const std::exception& e) {
        std::cerr << "clusterdesk-worker: " << e.what() << '\n';
        return 4;
    }
    std::cerr << "clusterdesk-worker: unknown arguments (see --help)\n";
    return 2;
}
