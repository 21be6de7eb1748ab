#include "live_clusterer.h"

#include "engine/cluster/metrics.h"
#include "engine/core/error.h"
#include "engine/exec/omp_threads.h"

#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <set>

namespace clusterdesk::stream {
namespace {

std::int64_t steadyMicros()
{
    return std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

}  // namespace

LiveClusterer::LiveClusterer(LiveOptions options)
    : m_options(std::move(options))
    , m_window(m_options.windowBars, m_options.barSeconds, m_options.halfLifeSeconds, m_options.scaleBars)
    , m_identity(m_options.identity)
{
    if (m_options.updateEveryBars < 1)
        throw UsageError("a live session re-clusters every N bars with N >= 1, got " + std::to_string(m_options.updateEveryBars));
    // Pool ranks open the data from its source spec; a live window exists in this process only.
    if (m_options.topology.isPool())
        throw UsageError("a live session cannot run on the node pool (" + toString(m_options.topology) +
                         "): its ranks open the data from its source, and a live window exists only in this process; "
                         "use host, shards:N or cuda");
    const std::set<std::string> asked(m_options.symbols.begin(), m_options.symbols.end());
    if (!asked.empty() && static_cast<std::int64_t>(asked.size()) < assetsNeeded())
        throw UsageError(runNeeds() + " assets with a full window, but the session asks the feed for " +
                         std::to_string(asked.size()) + (asked.size() == 1 ? " symbol" : " symbols") +
                         (m_options.params.algorithm == Algorithm::KMeans ? ": ask for more symbols or a smaller k"
                                                                          : ": ask for more symbols"));
    // Power is sampled with the estimate or RAPL only: a live session runs many short
    // updates and must not wait on device discovery each time.
    PowerSamplerOptions power;
    power.useNvml = m_options.topology.kind == Topology::Kind::Cuda;
    m_power = std::make_unique<PowerSampler>(power);
}

std::optional<LiveUpdate> LiveClusterer::add(const std::vector<ReceivedBar>& bars, const std::vector<std::string>& symbols,
                                             const std::unordered_map<std::string, std::string>& sectors)
{
    // The update's own work (window, identities, metrics) on the session's threads
    // only: an OpenMP region waiting for a core the feed is using costs milliseconds.
    const OmpThreadsScope threads(m_options.threads > 0 ? m_options.threads : omp_get_max_threads());
    if (m_options.store) {
        LiveInputCall call;
        for (const ReceivedBar& bar : bars) call.bars.push_back(bar.bar);
        call.newSymbols.assign(symbols.begin() + static_cast<std::ptrdiff_t>(std::min(m_inputSymbols, symbols.size())), symbols.end());
        m_inputSymbols = symbols.size();
        if (sectors != m_inputSectors) call.sectors = m_inputSectors = sectors;
        m_input.calls.push_back(std::move(call));
    }
    std::int64_t newestReceipt = 0;
    bool due = false;
    for (const ReceivedBar& bar : bars) {
        if (m_window.bars() > 0) m_missingBars += (bar.bar.startMicros - m_newestBarMicros) / (m_options.barSeconds * 1000000) - 1;
        m_window.add(bar.bar, symbols);
        m_newestBarMicros = bar.bar.startMicros;
        newestReceipt = std::max(newestReceipt, bar.completedMicros);
        if (++m_barsSinceUpdate >= m_options.updateEveryBars && m_window.bars() > m_options.windowBars) due = true;
    }
    if (!due) return std::nullopt;
    if (m_window.readyAssets() < assetsNeeded()) return std::nullopt;
    m_barsSinceUpdate = 0;
    return run(newestReceipt, sectors);
}

std::int64_t LiveClusterer::assetsNeeded() const
{
    return m_options.params.algorithm == Algorithm::KMeans ? m_options.params.k : 2;
}

LiveWait LiveClusterer::waitingFor() const
{
    using Kind = LiveWait::Kind;
    if (m_window.bars() <= m_options.windowBars)
        return {Kind::WindowFilling, "the window has " + std::to_string(m_window.bars()) + " of the " +
                                         std::to_string(m_options.windowBars + 1) + " bars its " +
                                         std::to_string(m_options.windowBars) + " returns need"};
    if (const std::int64_t ready = m_window.readyAssets(); ready < assetsNeeded())
        return {Kind::TooFewAssets,
                "only " + std::to_string(ready) + (ready == 1 ? " asset has" : " assets have") + " a full window; " + runNeeds()};
    if (m_barsSinceUpdate < m_options.updateEveryBars)
        return {Kind::NotDue, "the next update is due in " + std::to_string(m_options.updateEveryBars - m_barsSinceUpdate) +
                                  (m_options.updateEveryBars - m_barsSinceUpdate == 1 ? " bar" : " bars")};
    return {};
}

std::string LiveClusterer::runNeeds() const
{
    const bool kMeans = m_options.params.algorithm == Algorithm::KMeans;
    return (kMeans ? "k=" + std::to_string(m_options.params.k) : std::string("AdaptGrow")) + " needs " +
           std::to_string(assetsNeeded());
}

LiveUpdate LiveClusterer::run(std::int64_t newestReceipt, const std::unordered_map<std::string, std::string>& sectors)
{
    auto data = std::make_shared<Dataset>(m_window.matrix(m_options.source, sectors));

    // Warm start: the previous partition's means on the new window. Assets new to the
    // window have no say; a cluster left with no member means a fresh start.
    KMeansParams params = m_options.params;
    params.nInit = std::max(params.nInit, m_options.freshInitialisations);
    if (m_previousK > 0) {
        std::vector<double> sums(static_cast<std::size_t>(m_previousK * data->cols), 0.0);
        std::vector<std::int64_t> counts(static_cast<std::size_t>(m_previousK), 0);
        for (std::int64_t r = 0; r < data->rows; ++r) {
            const auto before = m_previousLabel.find(data->rowNames[r]);
            if (before == m_previousLabel.end()) continue;
            ++counts[before->second];
            for (std::int64_t c = 0; c < data->cols; ++c) sums[before->second * data->cols + c] += data->row(r)[c];
        }
        const bool everyClusterHeld = std::all_of(counts.begin(), counts.end(), [](std::int64_t n) { return n > 0; });
        const bool shapeFits = params.algorithm == Algorithm::AdaptGrow ? m_previousK <= params.kMax : m_previousK == params.k;
        if (everyClusterHeld && shapeFits) {
            params.init = InitMethod::Given;
            params.nInit = 1;
            params.initialCentroids.resize(sums.size());
            for (std::size_t i = 0; i < sums.size(); ++i)
                params.initialCentroids[i] = static_cast<float>(sums[i] / static_cast<double>(counts[i / data->cols]));
            if (params.algorithm == Algorithm::AdaptGrow) params.k0 = m_previousK;
        }
    }

    session::RunRequest request;
    request.data = data;
    request.params = params;
    request.topology = m_options.topology;
    request.threads = m_options.threads;
    request.pool = m_options.pool;
    request.store = m_options.store;
    if (!m_previousRun.empty()) request.parents.push_back({"run", m_previousRun, "run", "", "warm_start", ""});
    if (m_options.store) {
        if (m_updates == 0) {
            m_input.session = m_options;
            m_input.session->store = nullptr;
        }
        m_input.windowAssets = data->rowNames;
        request.liveInput = liveInputToJson(m_input);
        m_input = {};
    }
    RunControl control;
    m_cancel = false;
    control.cancel = &m_cancel;
    session::RunSession session(std::move(request));
    const auto started = std::chrono::steady_clock::now();
    const session::RunResult result = session.run(control, *m_power);
    if (result.report.result.cancelled) throw Cancelled("live update cancelled");
    const ClusterResult& clusters = result.report.result;

    LiveUpdate update;
    update.index = ++m_updates;
    update.barMicros = m_newestBarMicros;
    update.missingBars = m_missingBars;
    m_missingBars = 0;
    update.clusterMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
    update.assets = data->rowNames;
    update.labels = clusters.labels;
    update.k = clusters.k;
    update.centroids = clusters.centroids;
    update.cols = data->cols;
    update.inertia = clusters.inertia;
    update.iterations = clusters.iterations;
    update.runId = result.runId;
    if (result.power) {
        update.energyJ = result.power->energyJ;
        update.energySource = result.power->energySource;
    }
    update.dispersion.assign(static_cast<std::size_t>(update.k), 0.0);
    for (std::int64_t r = 0; r < data->rows; ++r) {
        const int label = update.labels[r];
        double d2 = 0;
        for (std::int64_t c = 0; c < data->cols; ++c) {
            const double diff = data->row(r)[c] - update.centroids[label * data->cols + c];
            d2 += diff * diff;
        }
        update.dispersion[label] += d2;
    }
    for (int label = 0; label < update.k; ++label)
        if (clusters.sizes[label] > 0) update.dispersion[label] /= static_cast<double>(clusters.sizes[label]);

    const IdentityUpdate identity = m_identity.update(update.assets, update.labels, update.k, update.centroids, update.cols,
                                                      m_options.updateEveryBars);
    update.clusterIds = identity.clusterIds;
    update.clusterOf = identity.assetIds;
    update.events = identity.events;
    update.migrations = identity.migrations;
    update.movedShare = identity.movedShare;

    // The drift alert: many assets moved, or a surviving cluster spread out.
    char text[160];
    if (update.index > 1 && update.movedShare > m_options.driftMovedShare) {
        std::snprintf(text, sizeof text, "%.0f%% of assets changed cluster", 100.0 * update.movedShare);
        update.drift = text;
    }
    std::map<int, double> dispersionById;
    for (int label = 0; label < update.k; ++label) dispersionById[update.clusterIds[label]] = update.dispersion[label];
    for (const auto& [id, before] : m_previousDispersion) {
        const auto now = dispersionById.find(id);
        if (now == dispersionById.end() || before <= 0 || now->second <= m_options.driftDispersion * before) continue;
        std::snprintf(text, sizeof text, "%scluster %d's dispersion grew %.1fx", update.drift.empty() ? "" : "; ", id,
                      now->second / before);
        update.drift += text;
    }
    m_previousDispersion = std::move(dispersionById);

    update.truthChanged = update.index > 1 && sectors != m_previousSectors;
    m_previousSectors = sectors;
    if (data->hasTruth()) update.ari = adjustedRandIndex(update.labels, data->truth);

    m_previousLabel.clear();
    for (std::size_t r = 0; r < update.assets.size(); ++r) m_previousLabel[update.assets[r]] = update.labels[r];
    m_previousK = update.k;
    m_previousRun = update.runId;
    update.latencyMs = newestReceipt > 0 ? static_cast<double>(steadyMicros() - newestReceipt) / 1000.0 : 0.0;
    return update;
}

}  // namespace clusterdesk::stream
