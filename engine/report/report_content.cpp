#include "report_content.h"

#include "clusterdesk/version.h"
#include "engine/cluster/metrics.h"
#include "engine/core/error.h"
#include "engine/telemetry/estimated_power_source.h"
#include "kernels/backend_registry.h"
#include "kernels/host/host_gemm.h"

#include <sys/utsname.h>

#include <algorithm>
#include <thread>

namespace clusterdesk::report {
namespace {

// Rows scored for the silhouette (each against every row): a standard error of about
// 0.02, and a fraction of a second at 10,000 assets x 300 columns, where scoring 2,000
// rows took most of a report's time.
constexpr std::int64_t kSilhouetteSample = 250;

Quality qualityOf(const Dataset& data, const store::RunRecord& record, const Membership& membership)
{
    Quality q;
    std::vector<std::int64_t> counts;
    std::vector<double> withinSS(static_cast<std::size_t>(record.k));
    for (const ClusterProfile& c : membership.clusters) counts.push_back(c.size);
    for (const Member& m : membership.members) withinSS[static_cast<std::size_t>(m.cluster)] += m.distance * m.distance;
    q.bic = sphericalBic(counts, withinSS, data.cols);
    std::int64_t used = 0;
    for (std::int64_t n : counts) used += n > 0;
    if (used >= 2 && used <= data.rows - 1) {
        q.silhouette = sampledSilhouette(data.values.data(), data.rows, data.cols, record.labels, kSilhouetteSample, 0);
        q.silhouetteRows = std::min(kSilhouetteSample, data.rows);
    }
    if (data.hasTruth()) {
        q.ari = adjustedRandIndex(data.truth, record.labels);
        q.nmi = normalizedMutualInformation(data.truth, record.labels);
    }
    return q;
}

}  // namespace

Facts exportEnvironment()
{
    Facts facts;
    facts.emplace_back("ClusterDesk", std::string(CLUSTERDESK_VERSION) + " (commit " + CLUSTERDESK_GIT_COMMIT + ")");
#if defined(__clang__)
    facts.emplace_back("Compiler", std::string("clang ") + __clang_version__);
#elif defined(__GNUC__)
    facts.emplace_back("Compiler", std::string("GCC ") + __VERSION__);
#endif
    utsname os{};
    if (uname(&os) == 0) facts.emplace_back("OS", std::string(os.sysname) + " " + os.release + " " + os.machine);
    const std::string cpu = cpuModelName();
    facts.emplace_back("CPU", (cpu.empty() ? std::string("unknown") : cpu) + ", " + std::to_string(std::thread::hardware_concurrency()) + " hardware threads");
    const kernels::CudaAvailability cuda = kernels::cudaAvailability();
    facts.emplace_back("GPUs (CUDA)", cuda.deviceCount > 0 ? std::to_string(cuda.deviceCount) + " usable (each run lists its devices)" : "none: " + cuda.reason);
    // The kernels' own answer: this file is not compiled with the BLAS's definitions.
    facts.emplace_back("OpenBLAS", kernels::host::blasConfig());
    return facts;
}

ReportContent gatherReport(const store::RunStore& runStore, const std::vector<std::string>& ids, const std::string& title,
                           const RecordedDataOpener& openData)
{
    if (ids.empty()) throw UsageError("a report needs at least one run");
    ReportContent content;
    content.title = title;
    std::vector<store::RunRecord> records;
    std::vector<std::string> cited;
    for (const std::string& id : ids) {
        // A run named twice (by its id and a prefix, say) is reported once.
        const std::string full = runStore.resolveId(id);
        if (std::find(cited.begin(), cited.end(), full) != cited.end()) continue;
        cited.push_back(full);
        store::RunRecord record = runStore.loadRun(full);
        if (record.info.status == store::RunStatus::Running) throw UsageError("run " + record.info.id + " is still running");
        if (record.artifactsCollected)
            throw UsageError("run " + record.info.id + " was deleted and its labels and centroids removed by `runs gc`: there is nothing to report");
        records.push_back(std::move(record));
    }
    content.evidence = collectEvidence(runStore, records, title);
    for (store::RunRecord& record : records) {
        RunSection section;
        section.record = std::move(record);
        const store::RunRecord& r = section.record;
        if (r.labels.empty() || r.centroids.empty()) {
            section.dataProblem = "the run recorded no labels and centroids (" + store::toString(r.info.status) + ")";
        } else {
            try {
                section.data = std::make_shared<const Dataset>(openData(r.info));
                section.membership = membershipOf(*section.data, r.labels, r.centroids, r.k);
                section.quality = qualityOf(*section.data, r, *section.membership);
            } catch (const Error& e) {
                section.data.reset();
                section.membership.reset();
                section.dataProblem = e.what();
            }
        }
        content.runs.push_back(std::move(section));
    }
    content.environment = exportEnvironment();
    return content;
}

}  // namespace clusterdesk::report
