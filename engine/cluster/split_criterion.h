// AdaptGrow's model selection: is a split of one cluster structure, or what noise of
// the same shape would give anyway?
//
// A 2-means split of a cluster of n rows in d dimensions removes gain = SS_parent -
// SS_children from its within-cluster sum of squares. That gain is at most the largest
// eigenvalue of the cluster's centred scatter matrix (Ding & He 2004: the relaxed
// 2-means optimum is the first principal component). When the cluster is pure noise
// (n - 1 independent centred rows, per-entry variance sigma^2) that eigenvalue sits
// at the Marchenko-Pastur edge sigma^2 (sqrt(n - 1) + sqrt(d))^2 (Marchenko & Pastur
// 1967; Geman 1980 for the largest eigenvalue; Johnstone 2001 for its small
// fluctuations around it); with columns of unequal variance, at the edge for d_eff
// columns (effective_dims.h). With sigma^2 = SS_parent / ((n - 1) d) the edge, as a
// share of SS_parent, is (1/sqrt(n - 1) + 1/sqrt(d_eff))^2. A cluster that holds
// structure has a larger SS than its noise, so sigma^2 is taken as the smaller of that
// and the data set's bulk noise variance (bulk_noise.h), and the edge share shrinks by
// their ratio. Shares compare correlation-sized quantities: the same planted structure scores
// the same whether the rows hold 250 or 2000 returns, and the noise share shrinks as
// either side grows instead of a penalty that grows with d (the BIC's d/2 log N per
// centroid is what made AdaptGrow refuse real sectors in long windows).
//
// The largest noise eigenvalue fluctuates around the edge on Johnstone's scale (Tracy-
// Widom): negligible for large clusters, not for a sector of five rows, so the axis must
// clear the edge by the 95th percentile of that fluctuation too.
//
// Splitting is tested on the cluster's principal axis, whose variance (its top
// eigenvalue) is what the edge bounds: a cluster holding several groups has one
// direction per group above the edge, and its top one shows first, while the 2-means
// gain along it is smaller (one split of many groups). A cluster is split when that
// top eigenvalue exceeds the edge by kMinExcessShare of the cluster's variance and the
// 2-means split along it is itself above the edge (so the merge test below would not
// undo it). The floor is what keeps the choice independent of the window: real markets
// carry structure finer than sectors (assets of one sector differ in beta), which any
// significance test alone accepts once the window is long enough; a floor in variance
// share does not move with the window.
//
// Two clusters merge when their separation, scored inside their union the same way,
// is not above the noise edge. Between the two bars nothing changes: the hysteresis
// keeps a split that was just accepted from being merged back in the next round.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>

namespace clusterdesk {

// Smallest share of a cluster's within-cluster sum of squares, beyond the noise edge,
// that its principal axis must carry for a split. A sector's direction carries 0.05 to
// 0.2 in daily equity returns (about a fifth of a stock's variance is sector, shared by
// the few sectors in a cluster); beta differences inside a sector about 0.01.
inline constexpr double kMinExcessShare = 0.02;

// The 95th percentile of the Tracy-Widom law (beta = 1) that the largest eigenvalue of
// real Gaussian noise follows around the edge, in units of Johnstone's scale (I. M.
// Johnstone, Ann. Statist. 29, 2001, Table 1). Negligible for large clusters, it is what
// keeps a sector of five assets from splitting 3 + 2 on chance and beta differences:
// with four degrees of freedom the largest noise eigenvalue is far from sharp.
inline constexpr double kTracyWidom95 = 0.9793;

// What a cluster's noise is measured with, the same on every rank.
struct NoiseModel {
    double effectiveDims = 1.0;  // d_eff of the data (effective_dims.h)
    double bulkVariance = std::numeric_limits<double>::quiet_NaN();  // per entry (bulk_noise.h); NaN = unknown
};

// The Marchenko-Pastur edge of a cluster's noise as a share of its sum of squares
// parentSS (rows rows, dims columns): (sigma^2 / sigma_hat^2) (1/sqrt(rows - 1) +
// 1/sqrt(d_eff))^2 with sigma_hat^2 = parentSS / ((rows - 1) dims) and sigma^2 the
// smaller of it and the bulk variance. +infinity when rows < 2 or d_eff < 1.
double noiseEdgeShare(const NoiseModel& noise, std::int64_t rows, std::int64_t dims, double parentSS);

// Johnstone's scale of the largest noise eigenvalue's fluctuation around the edge,
// (sqrt(n - 1) + sqrt(d_eff)) (1/sqrt(n - 1) + 1/sqrt(d_eff))^(1/3) noise variances, as a
// share of parentSS like noiseEdgeShare. +infinity when rows < 2 or d_eff < 1.
double noiseFluctuationShare(const NoiseModel& noise, std::int64_t rows, std::int64_t dims, double parentSS);

// Share of parentSS that a cluster's principal axis must carry for a split:
// noiseEdgeShare + kTracyWidom95 x noiseFluctuationShare + kMinExcessShare.
double splitThresholdShare(const NoiseModel& noise, std::int64_t rows, std::int64_t dims, double parentSS);

// gain / parentSS: the share of a cluster's sum of squares that a split removes (or, for
// a merge test, that the separation of two clusters is of their union's). NaN when
// parentSS is not > 0 or either value is not finite, so that no comparison passes.
double explainedShare(double parentSS, double gain);

// What a cluster's split must clear, as shares of its sum of squares: its principal axis
// splitThresholdShare (the cluster has a direction of structure), the 2-means split
// along it the noise edge measured with the cluster's own variance (the two children
// are not noise apart, so the merge test would not undo the split).
struct SplitBars {
    double axis = 0;
    double split = 0;
};

inline SplitBars splitBars(const NoiseModel& noise, std::int64_t rows, std::int64_t dims, double parentSS)
{
    return {splitThresholdShare(noise, rows, dims, parentSS), noiseEdgeShare(NoiseModel{noise.effectiveDims}, rows, dims, parentSS)};
}

// Whether a cluster is split: its principal axis carries axisShare of its sum of
// squares and the 2-means split along it removes splitShare, each above its bar.
inline bool splitIsStructure(const SplitBars& bars, double axisShare, double splitShare)
{
    return axisShare > bars.axis && splitShare > bars.split;
}

// Whether two clusters whose separation explains `share` of their union (rows rows,
// sum of squares unionSS) are noise apart, so merged.
inline bool mergeIsNoise(const NoiseModel& noise, std::int64_t rows, std::int64_t dims, double unionSS, double share)
{
    return share <= noiseEdgeShare(NoiseModel{noise.effectiveDims}, rows, dims, unionSS);
}

}  // namespace clusterdesk
