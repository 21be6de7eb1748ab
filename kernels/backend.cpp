#include "backend.h"

#include "row_functors.h"

namespace clusterdesk::kernels {
namespace {

std::string kByCols(int k, std::int64_t cols)
{
    return "k=" + std::to_string(k) + ", cols=" + std::to_string(cols);
}

std::size_t cells(int k, std::int64_t cols)
{
    return static_cast<std::size_t>(k) * static_cast<std::size_t>(cols);
}

}  // namespace

void Backend::fail(const char* method, const std::string& what) const
{
    throw ContractError(name() + ": " + method + ": " + what);
}

void Backend::requireOwned(const ResidentShard& shard, const char* method) const
{
    if (shard.owner != this) fail(method, "the shard was not uploaded by this backend");
}

void Backend::requireNonNegativeK(int k, const char* method) const
{
    if (k < 0) fail(method, "k must not be negative (k=" + std::to_string(k) + ")");
}

void Backend::requireSize(std::size_t have, std::size_t need, const char* method, const char* what,
                          const std::string& context) const
{
    if (have < need) {
        fail(method, std::string(what) + " hold " + std::to_string(have) + " values, needs " + std::to_string(need) +
                         " (" + context + ")");
    }
}

void Backend::requireScales(Mode mode, const FixedPointScales* scales, const ResidentShard& shard,
                            const char* method) const
{
    if (mode == Mode::Exact && (scales == nullptr || static_cast<std::int64_t>(scales->perDim.size()) != shard.cols())) {
        fail(method, "exact mode needs one fixed-point scale per column (scales=" +
                         std::to_string(scales ? scales->perDim.size() : 0) + ", cols=" + std::to_string(shard.cols()) +
                         ")");
    }
}

std::unique_ptr<ResidentShard> Backend::upload(RowsView rows, std::int64_t firstGlobalRow)
{
    if (rows.rows < 0 || rows.cols < 0 || (rows.rows > 0 && rows.cols > 0 && rows.data == nullptr))
        fail("upload", "bad rows view (rows=" + std::to_string(rows.rows) + ", cols=" + std::to_string(rows.cols) + ")");
    auto shard = uploadImpl(rows, firstGlobalRow);
    shard->owner = this;
    return shard;
}

void Backend::columnMaxAbs(ResidentShard& shard, std::span<float> out)
{
    requireOwned(shard, "columnMaxAbs");
    requireSize(out.size(), static_cast<std::size_t>(shard.cols()), "columnMaxAbs", "out",
                "cols=" + std::to_string(shard.cols()));
    columnMaxAbsImpl(shard, out);
}

void Backend::rowNorms(ResidentShard& shard, std::span<float> out)
{
    requireOwned(shard, "rowNorms");
    requireSize(out.size(), static_cast<std::size_t>(shard.rows()), "rowNorms", "out",
                "rows=" + std::to_string(shard.rows()));
    rowNormsImpl(shard, out);
}

void Backend::assign(ResidentShard& shard, std::span<const float> centroids, int k, Mode mode, Precision precision)
{
    requireOwned(shard, "assign");
    requireNonNegativeK(k, "assign");
    requireSize(centroids.size(), cells(k, shard.cols()), "assign", "centroids", kByCols(k, shard.cols()));
    shard.boundsCurrent = false;  // labels rewritten without bounds: the next bounded pass is a full one
    assignImpl(shard, centroids, k, mode, precision);
}

std::int64_t Backend::assignBounded(ResidentShard& shard, std::span<const float> centroids, int k, Mode mode,
                                    Precision precision, const CentroidMotion* motion)
{
    requireOwned(shard, "assignBounded");
    requireNonNegativeK(k, "assignBounded");
    requireSize(centroids.size(), cells(k, shard.cols()), "assignBounded", "centroids", kByCols(k, shard.cols()));
    if (motion) {
        const auto need = static_cast<std::size_t>(k);
        const std::string context = "k=" + std::to_string(k);
        requireSize(motion->halfGap.size(), need, "assignBounded", "motion.halfGap", context);
        requireSize(motion->shift.size(), need, "assignBounded", "motion.shift", context);
        requireSize(motion->otherShift.size(), need, "assignBounded", "motion.otherShift", context);
    }
    // Cleared first: a step that throws leaves labels the bounds may not describe.
    const bool boundsUsable = motion && shard.boundsCurrent && boundsHoldAt(mode, precision);
    shard.boundsCurrent = false;
    const std::int64_t rows = shard.rows();
    std::int64_t searched = rows;
    if (!boundsUsable) {
        searchAllBoundedImpl(shard, centroids, k, mode, precision);
    } else if (const std::int64_t inDoubt = flagRowsInDoubtImpl(shard, *motion);
               static_cast<double>(inDoubt) > fullPassShare() * static_cast<double>(rows)) {
        searchAllBoundedImpl(shard, centroids, k, mode, precision);
    } else {
        searched = tightenRowsInDoubtImpl(shard, centroids, *motion);
        if (searched > 0) searchRowsLeftImpl(shard, centroids, k, mode, precision);
    }
    shard.boundsCurrent = true;
    return searched;
}

void Backend::refreshDistances(ResidentShard& shard, std::span<const float> centroids, int k)
{
    requireOwned(shard, "refreshDistances");
    requireNonNegativeK(k, "refreshDistances");
    requireSize(centroids.size(), cells(k, shard.cols()), "refreshDistances", "centroids", kByCols(k, shard.cols()));
    refreshDistancesImpl(shard, centroids, k);
}

void Backend::assignSplit(ResidentShard& shard, std::span<const float> children, int k, Mode mode)
{
    requireOwned(shard, "assignSplit");
    requireNonNegativeK(k, "assignSplit");
    requireSize(children.size(), 2 * cells(k, shard.cols()), "assignSplit", "children", kByCols(k, shard.cols()));
    assignSplitImpl(shard, children, k, mode);
    shard.splitAssigned = true;
}

void Backend::updateNearest(ResidentShard& shard, std::span<const float> centres, int firstLabel)
{
    requireOwned(shard, "updateNearest");
    const std::int64_t cols = shard.cols();
    if (cols <= 0) fail("updateNearest", "the shard has no columns");
    requireSize(centres.size(), static_cast<std::size_t>(cols), "updateNearest", "centres",
                "one centre, cols=" + std::to_string(cols));
    shard.boundsCurrent = false;  // labels rewritten without bounds
    updateNearestImpl(shard, centres, static_cast<int>(static_cast<std::int64_t>(centres.size()) / cols), firstLabel);
}

void Backend::clusterSums(ResidentShard& shard, LabelSource source, SumParts parts, int k, Mode mode,
                          const FixedPointScales* scales, PartialSums& out)
{
    requireOwned(shard, "clusterSums");
    requireScales(mode, scales, shard, "clusterSums");
    requireNonNegativeK(k, "clusterSums");
    if (source == LabelSource::SplitChild && !shard.splitAssigned) fail("clusterSums", "sums by split child before assignSplit");
    clusterSumsImpl(shard, source, parts, k, mode, scales, out);
}

void Backend::trackedSums(ResidentShard& shard, int k, Mode mode, const FixedPointScales* scales, bool restart,
                          PartialSums& out)
{
    requireOwned(shard, "trackedSums");
    requireScales(mode, scales, shard, "trackedSums");
    requireNonNegativeK(k, "trackedSums");
    trackedSumsImpl(shard, k, mode, scales, restart, out);
}

void Backend::projectedSums(ResidentShard& shard, std::span<const float> means, std::span<const float> axes, int k,
                            Mode mode, const FixedPointScales* scales, PartialSums& out)
{
    requireOwned(shard, "projectedSums");
    requireScales(mode, scales, shard, "projectedSums");
    requireNonNegativeK(k, "projectedSums");
    requireSize(means.size(), cells(k, shard.cols()), "projectedSums", "means", kByCols(k, shard.cols()));
    requireSize(axes.size(), cells(k, shard.cols()), "projectedSums", "axes", kByCols(k, shard.cols()));
    projectedSumsImpl(shard, means, axes, k, mode, scales, out);
}

std::int64_t Backend::weightTotal(ResidentShard& shard, double scale)
{
    requireOwned(shard, "weightTotal");
    return weightTotalImpl(shard, scale);
}

std::vector<std::int64_t> Backend::trialWeightTotals(ResidentShard& shard, std::span<const float> candidates, double scale)
{
    requireOwned(shard, "trialWeightTotals");
    const auto d = static_cast<std::size_t>(shard.cols());
    if (d == 0 || candidates.size() % d != 0)
        fail("trialWeightTotals", "candidates hold " + std::to_string(candidates.size()) +
                                      " values, not whole rows of cols=" + std::to_string(d));
    std::vector<std::int64_t> totals(candidates.size() / d, 0);
    if (shard.rows() == 0) return totals;
    // A batch of candidates side by side, each a lane reading contiguous memory.
    constexpr auto lanes = static_cast<std::size_t>(detail::kTrialLanes);
    std::vector<float> centresT(d * lanes);
    for (std::size_t first = 0; first < totals.size(); first += lanes) {
        const std::size_t count = std::min(lanes, totals.size() - first);
        std::fill(centresT.begin(), centresT.end(), 0.f);
        for (std::size_t t = 0; t < count; ++t)
            for (std::size_t j = 0; j < d; ++j) centresT[j * lanes + t] = candidates[(first + t) * d + j];
        trialWeightBatchImpl(shard, centresT, static_cast<int>(count), scale, std::span(totals).subspan(first, count));
    }
    return totals;
}

std::int64_t Backend::findByPrefix(ResidentShard& shard, double scale, std::int64_t target)
{
    requireOwned(shard, "findByPrefix");
    if (shard.rows() == 0) return -1;
    return findByPrefixImpl(shard, scale, target);
}

std::vector<std::int64_t> Backend::oversample(ResidentShard& shard, double scale, double factor, std::int64_t total,
                                              std::uint64_t seed, std::uint64_t round)
{
    requireOwned(shard, "oversample");
    if (shard.rows() == 0) return {};
    return oversampleImpl(shard, scale, factor, total, seed, round);
}

void Backend::copyRows(ResidentShard& shard, std::span<const std::int64_t> localRows, std::span<float> out)
{
    requireOwned(shard, "copyRows");
    requireSize(out.size(), localRows.size() * static_cast<std::size_t>(shard.cols()), "copyRows", "out",
                std::to_string(localRows.size()) + " rows, cols=" + std::to_string(shard.cols()));
    // On a GPU a bad index would be a device fault that poisons the whole context.
    for (const std::int64_t row : localRows) {
        if (row < 0 || row >= shard.rows())
            fail("copyRows", "row " + std::to_string(row) + " is outside the shard (rows=" + std::to_string(shard.rows()) + ")");
    }
    if (localRows.empty() || shard.cols() == 0) return;
    copyRowsImpl(shard, localRows, out);
}

void Backend::downloadLabels(ResidentShard& shard, std::span<std::int32_t> out)
{
    requireOwned(shard, "downloadLabels");
    requireSize(out.size(), static_cast<std::size_t>(shard.rows()), "downloadLabels", "out",
                "rows=" + std::to_string(shard.rows()));
    downloadLabelsImpl(shard, out);
}

void Backend::downloadDistances(ResidentShard& shard, std::span<float> out)
{
    requireOwned(shard, "downloadDistances");
    requireSize(out.size(), static_cast<std::size_t>(shard.rows()), "downloadDistances", "out",
                "rows=" + std::to_string(shard.rows()));
    downloadDistancesImpl(shard, out);
}

}  // namespace clusterdesk::kernels
