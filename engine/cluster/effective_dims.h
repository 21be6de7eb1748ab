// How many independent dimensions the noise of a data set really has. Columns of
// unequal variance (the days of a return window under volatility clustering: a crash
// week moves every asset more than a calm month) make the largest noise eigenvalue
// larger than the Marchenko-Pastur edge for d equal columns; it is the edge for
// d_eff = (sum_j v_j)^2 / sum_j v_j^2 columns instead, v_j the variance of column j
// (the participation ratio of the column variances; d_eff = d when they are equal).
#pragma once

#include <cstdint>

namespace clusterdesk {

// d_eff of a rows x cols row-major matrix, each column's variance taken around its mean.
// Computed in double, single-threaded, rows then columns in order: every rank that holds
// the same data gets the same bits, whatever the topology. cols when the matrix has no
// variance at all (or fewer than 2 rows); at least 1 otherwise.
double effectiveDimensions(const float* x, std::int64_t rows, std::int64_t cols);

}  // namespace clusterdesk
