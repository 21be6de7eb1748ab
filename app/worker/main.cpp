// clusterdesk-worker: the Qt-free program that checks and times the kernels on this
// machine's backends (--selftest, --bench), and one MPI rank of a pool run (--rank).
#include "bench.h"
#include "selftest.h"
#ifdef CLUSTERDESK_HAVE_MPI
#include "probe.h"
#include "rank.h"
#endif

#include "clusterdesk/version.h"

#include <charconv>
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
  clusterdesk-worker --bench [--rows N] [--cols D] [--k K] [--repeats R]
      Times each kernel (default 1000000 x 32, k=64) and prints ms, GFLOP/s and GB/s
      next to the host's measured SGEMM rate.
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
                if (i + 1 >= args.size() || !parseInt(args[i + 1], value)) {
                    std::cerr << "clusterdesk-worker: " << args[i] << " needs a positive number\n";
                    return 2;
                }
                if (args[i] == "--rows") shape.rows = value;
                else if (args[i] == "--cols") shape.cols = value;
                else if (args[i] == "--k") shape.k = static_cast<int>(value);
                else if (args[i] == "--repeats") shape.repeats = static_cast<int>(value);
                else {
                    std::cerr << "clusterdesk-worker: unknown option " << args[i] << '\n';
                    return 2;
                }
            }
            clusterdesk::worker::runBench(shape, std::cout);
            return 0;
        }
    } catch (const std::exception& e) {
        std::cerr << "clusterdesk-worker: " << e.what() << '\n';
        return 4;
    }
    std::cerr << "clusterdesk-worker: unknown arguments (see --help)\n";
    return 2;
}
