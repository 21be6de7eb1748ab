#include "collective_checks.h"

#include "engine/data/demo.h"
#include "engine/exec/local_communicator.h"
#include "engine/exec/nccl_communicator.h"
#include "engine/exec/run_clustering.h"
#include "kernels/backend_registry.h"

#include <algorithm>
#include <cstring>
#include <exception>
#include <memory>
#include <mutex>
#include <ostream>
#include <string>
#include <thread>
#include <vector>

namespace clusterdesk::worker {
namespace {

void line(std::ostream& out, bool pass, const std::string& subject, const std::string& check, const std::string& detail)
{
    out << (pass ? "PASS  " : "FAIL  ") << subject << "  " << check << "  " << detail << '\n';
}

// Rank r's inputs: chosen so that every expected value is known exactly.
std::vector<std::int64_t> intsOf(int rank, std::size_t n)
{
    std::vector<std::int64_t> v(n);
    for (std::size_t i = 0; i < n; ++i)
        v[i] = (std::int64_t{1} << 40) * (rank + 1) - static_cast<std::int64_t>(i) * 7919 * (rank + 3);
    return v;
}
std::vector<double> doublesOf(int rank, std::size_t n)
{
    std::vector<double> v(n);
    for (std::size_t i = 0; i < n; ++i) v[i] = 0.1 * static_cast<double>(i + 1) / (rank + 1) + 1e10 * (i % 3 == 0);
    return v;
}

// What every rank must get back, computed here in rank order.
struct Collected {
    std::vector<std::int64_t> intSum;
    std::vector<double> doubleSum, doubleMax;
    std::vector<std::byte> gathered;
    std::string error;
};

int checkNccl(std::ostream& out, int devices)
{
    const int ranks = std::min(devices, 8);
    const std::string subject = "nccl(" + std::to_string(ranks) + (ranks == 1 ? " rank" : " ranks") + ", one per GPU)";
    constexpr std::size_t n = 1000;
    LocalGroup bootstrap(ranks);
    std::vector<Collected> got(static_cast<std::size_t>(ranks));
    std::string whyNot;
    // Kept until every thread is done, so that a rank that fails can release the others
    // from their NCCL collectives; slots are written under the mutex.
    std::vector<std::unique_ptr<NcclCommunicator>> comms(static_cast<std::size_t>(ranks));
    std::mutex mutex;
    bool failed = false;
    auto rankMain = [&](int r) {
        Collected& c = got[static_cast<std::size_t>(r)];
        try {
            auto local = bootstrap.member(r);
            std::string why;
            auto joined = NcclCommunicator::join(*local, r, why);
            if (!joined) {
                if (r == 0) whyNot = why;
                return;
            }
            NcclCommunicator* nccl = joined.get();
            {
                std::lock_guard lock(mutex);
                if (failed) nccl->abort();
                comms[static_cast<std::size_t>(r)] = std::move(joined);
            }
            c.intSum = intsOf(r, n);
            nccl->allreduceSum(std::span<std::int64_t>(c.intSum));
            c.doubleSum = doublesOf(r, n);
            nccl->allreduceSum(std::span<double>(c.doubleSum));
            c.doubleMax = doublesOf(r, n);
            nccl->allreduceMax(c.doubleMax);
            const std::vector<std::byte> mine(static_cast<std::size_t>(r) + 1, std::byte(r + 1));
            c.gathered = nccl->allgather(mine);
            // Torn down on this thread, with its peers (see run_clustering.cpp).
            std::unique_ptr<NcclCommunicator> own;
            {
                std::lock_guard lock(mutex);
                own = std::move(comms[static_cast<std::size_t>(r)]);
            }
        } catch (const std::exception& e) {
            c.error = e.what();
            std::lock_guard lock(mutex);
            failed = true;
            for (const auto& other : comms)
                if (other) other->abort();
            bootstrap.abort();
        }
    };
    std::vector<std::thread> threads;
    for (int r = 1; r < ranks; ++r) threads.emplace_back(rankMain, r);
    rankMain(0);
    for (auto& t : threads) t.join();
    // A GPU is present (the caller checked), so a communicator that cannot be built is
    // a failure of this check, not a reason to skip it.
    if (!whyNot.empty()) {
        line(out, false, subject, "join", whyNot);
        return 1;
    }

    Collected want;
    want.intSum.assign(n, 0);
    want.doubleSum = doublesOf(0, n);
    want.doubleMax = doublesOf(0, n);
    for (int r = 0; r < ranks; ++r) {
        const auto ints = intsOf(r, n);
        const auto doubles = doublesOf(r, n);
        for (std::size_t i = 0; i < n; ++i) {
            want.intSum[i] += ints[i];
            if (r > 0) want.doubleSum[i] += doubles[i];
            want.doubleMax[i] = std::max(want.doubleMax[i], doubles[i]);
        }
        want.gathered.insert(want.gathered.end(), static_cast<std::size_t>(r) + 1, std::byte(r + 1));
    }
    int failures = 0;
    auto check = [&](const std::string& name, auto member, const std::string& detail) {
        bool pass = true;
        std::string error;
        for (const Collected& c : got) {
            if (!c.error.empty()) error = c.error;
            pass = pass && c.error.empty() && c.*member == want.*member;
        }
        line(out, pass, subject, name, error.empty() ? detail : error);
        failures += !pass;
    };
    check("allreduceSum.int64", &Collected::intSum, "ncclAllReduce int64 sum equals the exact sum on every rank");
    check("allreduceSum.double", &Collected::doubleSum, "bit-identical to the rank-order sum on every rank");
    check("allreduceMax.double", &Collected::doubleMax, "equals the maximum on every rank");
    check("allgather", &Collected::gathered, "ranks' unequal byte counts concatenated in rank order");
    return failures;
}

// Whole exact-mode runs on GPU topologies against the host, bit for bit.
int checkShardedRuns(std::ostream& out, int devices)
{
    const Dataset data = makeDemo("blobs:n=60000,d=16,k=10,seed=11,spread=2");
    KMeansParams params;
    params.k = 10;
    params.init = InitMethod::KMeansParallel;  // sampling across shards too
    params.mode = kernels::Mode::Exact;
    params.maxIterations = 40;
    const RunReport host = runClustering(data, params, parseTopology("host"), 0);

    std::vector<std::string> topologies{"cuda:0,0", "cuda:0,0,0"};
    if (devices >= 2) {
        std::string all = "cuda:0";
        for (int d = 1; d < devices; ++d) all += "," + std::to_string(d);
        topologies.push_back(all);
    }
    int failures = 0;
    for (const std::string& spec : topologies) {
        const std::string subject = "run(" + spec + ")";
        try {
            const RunReport got = runClustering(data, params, parseTopology(spec), 0);
            const bool same = got.result.labels == host.result.labels &&
                              got.result.centroids.size() == host.result.centroids.size() &&
                              std::memcmp(got.result.centroids.data(), host.result.centroids.data(),
                                          host.result.centroids.size() * sizeof(float)) == 0 &&
                              got.result.inertia == host.result.inertia && got.result.iterations == host.result.iterations;
            line(out, same, subject, "kmeans.exact",
                 "labels, centroids and inertia bit-identical to host after " + std::to_string(got.result.iterations) +
                     " iterations; shards joined by " + got.communicator);
            failures += !same;
        } catch (const std::exception& e) {
            line(out, false, subject, "kmeans.exact", e.what());
            ++failures;
        }
    }
    return failures;
}

}  // namespace

int runCollectiveChecks(std::ostream& out)
{
    const kernels::CudaAvailability cuda = kernels::cudaAvailability();
    if (cuda.deviceCount == 0) {
        out << "SKIP  nccl  " << cuda.reason << '\n';
        out << "SKIP  sharded runs  " << cuda.reason << '\n';
        return 0;
    }
    return checkNccl(out, cuda.deviceCount) + checkShardedRuns(out, cuda.deviceCount);
}

}  // namespace clusterdesk::worker
