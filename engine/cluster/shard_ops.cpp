#include "shard_ops.h"

#include "../core/error.h"
#include "../data/dataset.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

namespace clusterdesk {
namespace {

// Largest power of two p with p * bound * rows <= 2^62 (1 when bound is 0).
double powerOfTwoScale(double bound, std::int64_t rows)
{
    if (!(bound > 0.0)) return 1.0;
    const double limit = std::ldexp(1.0, 62) / (bound * static_cast<double>(std::max<std::int64_t>(rows, 1)));
    return std::ldexp(1.0, static_cast<int>(std::floor(std::log2(limit))));
}

}  // namespace

ScaleSet computeScales(ShardContext& ctx)
{
    const auto d = static_cast<std::size_t>(ctx.cols);
    std::vector<float> localMax(d, 0.f);
    ctx.backend.columnMaxAbs(ctx.shard, localMax);
    std::vector<double> colMax(localMax.begin(), localMax.end());
    ctx.comm.allreduceMax(colMax);
    // Squared distances are float32: values whose squares overflow would turn every
    // distance into inf and every answer into noise. Loaders refuse such a value at its
    // cell; this catches data made otherwise, on every rank alike (the maxima are global).
    const double maxAbs = colMax.empty() ? 0.0 : *std::max_element(colMax.begin(), colMax.end());
    if (maxAbs > maxFeatureMagnitude(ctx.cols))
        throw DataError(ctx.source, 0, 0, "values up to " + std::to_string(maxAbs) + " in " + std::to_string(ctx.cols) +
                                              " columns overflow float32 squared distances; rescale the data");

    double distanceBound = 0.0;
    for (double m : colMax) distanceBound += 4.0 * m * m;
    // Float rounding can push a computed distance slightly past the true bound.
    distanceBound = distanceBound * 1.01 + 1e-30;

    ScaleSet scales;
    scales.sums.perDim.resize(d);
    scales.projected.perDim.resize(d);
    for (std::size_t j = 0; j < d; ++j) {
        scales.sums.perDim[j] = powerOfTwoScale(colMax[j] * 1.01, ctx.totalRows);
        scales.projected.perDim[j] = powerOfTwoScale(std::sqrt(distanceBound) * 2.0 * colMax[j] * 1.01, ctx.totalRows);
    }
    scales.sums.distance = powerOfTwoScale(distanceBound, ctx.totalRows);
    return scales;
}

GlobalSums reduceSums(ShardContext& ctx, const kernels::PartialSums& partial, kernels::Mode mode,
                      const kernels::FixedPointScales& scales, ReduceExtras extras)
{
    const auto groups = static_cast<std::size_t>(partial.groups);
    const auto d = static_cast<std::size_t>(partial.dims);
    GlobalSums out;

    // Integers travel together: counts, [fixed sums, fixed distances,] searched rows, cancel.
    std::vector<std::int64_t> ints(partial.counts);
    if (mode == kernels::Mode::Exact) {
        ints.insert(ints.end(), partial.fixedSums.begin(), partial.fixedSums.end());
        ints.insert(ints.end(), partial.fixedDist.begin(), partial.fixedDist.end());
    }
    ints.push_back(extras.rowsSearched);
    ints.push_back(extras.cancelRequested ? 1 : 0);
    ctx.comm.allreduceSum(ints);
    out.cancel = ints.back() != 0;
    out.rowsSearched = ints[ints.size() - 2];
    out.counts.assign(ints.begin(), ints.begin() + static_cast<std::ptrdiff_t>(groups));

    if (mode == kernels::Mode::Exact) {
        out.sums.resize(groups * d);
        out.withinSS.resize(groups);
        const std::int64_t* fixedSums = ints.data() + groups;
        const std::int64_t* fixedDist = fixedSums + groups * d;
        for (std::size_t g = 0; g < groups; ++g) {
            for (std::size_t j = 0; j < d; ++j)
                out.sums[g * d + j] = static_cast<double>(fixedSums[g * d + j]) / scales.perDim[j];
            out.withinSS[g] = static_cast<double>(fixedDist[g]) / scales.distance;
        }
    } else {
        std::vector<double> reals(partial.sums);
        reals.insert(reals.end(), partial.distSums.begin(), partial.distSums.end());
        ctx.comm.allreduceSum(reals);
        out.sums.assign(reals.begin(), reals.begin() + static_cast<std::ptrdiff_t>(groups * d));
        out.withinSS.assign(reals.begin() + static_cast<std::ptrdiff_t>(groups * d), reals.end());
    }
    return out;
}

std::vector<float> fetchRows(ShardContext& ctx, std::span<const std::int64_t> globalRows)
{
    const std::int64_t d = ctx.cols;
    const std::int64_t first = ctx.shard.firstGlobalRow();
    const std::int64_t last = first + ctx.shard.rows();

    // Each rank publishes (position in the request, row values) for the rows it holds.
    std::vector<std::int64_t> positions;
    std::vector<std::int64_t> localRows;
    for (std::size_t p = 0; p < globalRows.size(); ++p) {
        if (globalRows[p] >= first && globalRows[p] < last) {
            positions.push_back(static_cast<std::int64_t>(p));
            localRows.push_back(globalRows[p] - first);
        }
    }
    std::vector<float> values(localRows.size() * static_cast<std::size_t>(d));
    if (!localRows.empty()) ctx.backend.copyRows(ctx.shard, localRows, values);

    const std::size_t recordFloats = 2 + static_cast<std::size_t>(d);  // int64 position stored in 2 floats' bytes
    std::vector<float> records(positions.size() * recordFloats);
    for (std::size_t r = 0; r < positions.size(); ++r) {
        std::memcpy(&records[r * recordFloats], &positions[r], sizeof(std::int64_t));
        std::copy_n(values.begin() + static_cast<std::ptrdiff_t>(r * static_cast<std::size_t>(d)), d,
                    records.begin() + static_cast<std::ptrdiff_t>(r * recordFloats + 2));
    }
    const std::vector<float> all = allgatherValues<float>(ctx.comm, records);

    std::vector<float> out(globalRows.size() * static_cast<std::size_t>(d));
    std::vector<bool> filled(globalRows.size(), false);
    for (std::size_t offset = 0; offset + recordFloats <= all.size(); offset += recordFloats) {
        std::int64_t position = 0;
        std::memcpy(&position, &all[offset], sizeof(std::int64_t));
        std::copy_n(all.begin() + static_cast<std::ptrdiff_t>(offset + 2), d,
                    out.begin() + static_cast<std::ptrdiff_t>(position * d));
        filled[static_cast<std::size_t>(position)] = true;
    }
    for (std::size_t p = 0; p < filled.size(); ++p)
        if (!filled[p]) throw DeviceError("row " + std::to_string(globalRows[p]) + " is held by no shard");
    return out;
}

std::vector<std::int32_t> gatherLabels(ShardContext& ctx)
{
    std::vector<std::int32_t> mine(static_cast<std::size_t>(ctx.shard.rows()));
    if (!mine.empty()) ctx.backend.downloadLabels(ctx.shard, mine);
    return allgatherValues<std::int32_t>(ctx.comm, mine);
}

std::vector<double> withinFromNorms(const GlobalSums& sums, const std::vector<float>& centroids, std::int64_t cols)
{
    const auto d = static_cast<std::size_t>(cols);
    std::vector<double> within(sums.counts.size());
    for (std::size_t g = 0; g < within.size(); ++g) {
        double cross = 0;
        double centreNorm = 0;
        for (std::size_t j = 0; j < d; ++j) {
            const double c = centroids[g * d + j];
            cross += c * sums.sums[g * d + j];
            centreNorm += c * c;
        }
        // sum |x - c|^2 = sum |x|^2 - 2 c . sum x + n |c|^2; rounding can dip below zero.
        within[g] = std::max(0.0, sums.withinSS[g] - 2 * cross + static_cast<double>(sums.counts[g]) * centreNorm);
    }
    return within;
}

void centroidsFromSums(const GlobalSums& sums, std::int64_t cols, std::vector<float>& centroids)
{
    const auto d = static_cast<std::size_t>(cols);
    centroids.resize(sums.counts.size() * d);
    for (std::size_t g = 0; g < sums.counts.size(); ++g) {
        if (sums.counts[g] == 0) continue;
        const double n = static_cast<double>(sums.counts[g]);
        for (std::size_t j = 0; j < d; ++j) centroids[g * d + j] = static_cast<float>(sums.sums[g * d + j] / n);
    }
}

}  // namespace clusterdesk
