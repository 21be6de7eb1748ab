// Eigenvalues of a real symmetric matrix, deterministically: Householder reduction to
// tridiagonal form, then the implicit QL algorithm (Numerical Recipes, 3rd ed., 11.3-11.4;
// Wilkinson & Reinsch, Handbook for Automatic Computation II, 1971). Single-threaded,
// fixed order, no BLAS or LAPACK: the same bits on every machine that runs the same
// build, which is what lets every rank of a pool compute it for itself. O(4/3 n^3).
#pragma once

#include <cstdint>
#include <vector>

namespace clusterdesk {

// Eigenvalues of the n x n symmetric matrix a (row-major; only read, the lower triangle
// is used), in descending order. Throws Error when QL fails to converge (it does not on
// finite input) and UsageError when a.size() != n * n.
std::vector<double> symmetricEigenvalues(std::vector<double> a, std::int64_t n);

}  // namespace clusterdesk
