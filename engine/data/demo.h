// Synthetic datasets with planted ground truth, for demos, tests and benchmarks.
#pragma once

#include "dataset.h"

#include <string>

namespace clusterdesk {

// spec is NAME[:key=value,...]; unknown names or keys and bad values throw UsageError
// naming them. The same spec gives the same bytes (and contentHash) on every run and
// whatever the thread count. Dataset::source is the spec with every key spelled out.
//
// market  (assets=500, sectors=10, days=750, seed=7, window=0, strong=0, corr_market=0.37,
//          corr_sector=0.57, scale_days=1)
//   Daily prices from a factor model calibrated to daily equity returns: market and
//   sector factors with Student-t(4) shocks and GARCH(1,1) volatility, correlation
//   corr_market across sectors and corr_sector within one (strong=1: the former,
//   easier generator). Run through the prices pipeline as a file would be: rows =
//   assets (named S03_A017), features = z-scored log returns of the last `window` days
//   (0 = all), each day scaled to unit dispersion across assets unless scale_days=0,
//   truth = sector.
// blobs   (n=10000, d=16, k=8, seed=7, spread=1.0, overlap=0)
//   k isotropic Gaussian blobs, centres at least 8 x spread apart in a box, points of
//   standard deviation spread / (1 - overlap): overlap 0 separates the blobs cleanly,
//   0.5 makes their edges meet, 0.75 and up mixes them; truth = blob id. Generated in parallel, deterministically
//   (counter-based random numbers keyed by row), straight into the output matrix.
Dataset makeDemo(const std::string& spec);

// The spec with every key spelled out (Dataset::source of makeDemo(spec)), checked as
// makeDemo checks it but without generating anything.
std::string canonicalDemoSpec(const std::string& spec);

}  // namespace clusterdesk
