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
// fluctuations around it). With sigma^2 estimated as SS_parent / ((n - 1) d) the edge,
// as a share of SS_parent, is (1/sqrt(n - 1) + 1/sqrt(d))^2, so
//
//     excess = gain / SS_parent - (1/sqrt(n - 1) + 1/sqrt(d))^2
//
// is the share of the cluster's variance that the split explains beyond the noise
// edge. It compares correlation-sized quantities: the same planted structure scores
// the same whether the rows hold 250 or 2000 returns, and the noise share shrinks as
// either side grows instead of a penalty that grows with d (the BIC's d/2 log N per
// centroid is what made AdaptGrow refuse real sectors in long windows).
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

#include <cstdint>

namespace clusterdesk {

// Smallest share of a cluster's within-cluster sum of squares, beyond the noise edge,
// that its principal axis must carry for a split. A sector's direction carries 0.05 to
// 0.2 in daily equity returns (about a fifth of a stock's variance is sector, shared by
// the few sectors in a cluster); beta differences inside a sector about 0.01.
inline constexpr double kMinExcessShare = 0.02;

// The Marchenko-Pastur edge of noise of that shape as a share of its sum of squares:
// (1/sqrt(rows - 1) + 1/sqrt(dims))^2; +infinity when rows < 2 or dims < 1. dims is
// the effective number of dimensions (effective_dims.h), d itself for equal columns.
double noiseEdgeShare(std::int64_t rows, double dims);

// Share of parentSS that a cluster's principal axis must carry for a split:
// noiseEdgeShare + kMinExcessShare.
double splitThresholdShare(std::int64_t rows, double dims);

// gain / parentSS: the share of a cluster's sum of squares that a split removes (or, for
// a merge test, that the separation of two clusters is of their union's). NaN when
// parentSS is not > 0 or either value is not finite, so that no comparison passes.
double explainedShare(double parentSS, double gain);

// Whether a cluster of `rows` rows is split: its principal axis carries axisShare of its
// sum of squares, above splitThresholdShare (the cluster has a direction of structure),
// and the 2-means split along it removes splitShare, above the noise edge (the two
// children are not noise apart, so the merge test would not undo the split).
inline bool splitIsStructure(std::int64_t rows, double dims, double axisShare, double splitShare)
{
    return axisShare > splitThresholdShare(rows, dims) && splitShare > noiseEdgeShare(rows, dims);
}

// Whether two clusters whose separation explains `share` of their union (of `rows`
// rows) are noise apart, so merged.
inline bool mergeIsNoise(std::int64_t rows, double dims, double share)
{
    return share <= noiseEdgeShare(rows, dims);
}

}  // namespace clusterdesk
