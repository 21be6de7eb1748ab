// The noise level of a data set, read off the bulk of its spectrum: the eigenvalues of
// the centred scatter matrix that sit below the Marchenko-Pastur edge are noise, the
// ones above it structure (sectors, blobs). The per-entry variance of the bulk is what
// a cluster's noise should be measured with: a cluster's own variance also holds the
// structure inside it, which inflates the edge exactly where structure is to be found.
// The edge and the bulk are found together by the usual fixed point (Laloux et al.
// 1999; Plerou et al., Phys. Rev. E 65, 066126, 2002): the variance of what lies
// below the edge sets the edge.
#pragma once

#include <cstdint>

namespace clusterdesk {

// Largest min(rows - 1, cols) for which bulkNoiseVariance decomposes the spectrum
// (O(rows cols min + min^3) on one thread); above it the bulk is not estimated.
inline constexpr std::int64_t kMaxBulkSpectrum = 1000;
// Largest rows x cols x min(rows, cols) (the Gram matrix's cost, about a second on one
// core): tens of millions of rows are not held up by it.
inline constexpr double kMaxBulkWork = 2e9;

// Per-entry variance of the spectrum's bulk of a rows x cols row-major matrix whose
// noise has effectiveDims effective columns (effective_dims.h); NaN when it is not
// estimated: too large (kMaxBulkSpectrum, kMaxBulkWork), fewer than 3 rows, or fewer than half the
// eigenvalues in the bulk (mostly structure, as blobs in few dimensions: no bulk to
// read). Single-threaded, fixed order: every rank holding the data gets the same bits.
double bulkNoiseVariance(const float* x, std::int64_t rows, std::int64_t cols, double effectiveDims);

}  // namespace clusterdesk
