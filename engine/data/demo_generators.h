// One function per demo; demo.cpp dispatches on the name. Each reads its keys from the
// spec (with defaults and ranges), calls spec.finish(), checks what it can before
// generating, returns an empty dataset when spec.checkOnly(), and builds the dataset.
#pragma once

#include "dataset.h"
#include "demo_spec.h"

#include <cstdint>
#include <string>
#include <vector>

namespace clusterdesk::data {

Dataset makeMarketDemo(DemoSpec& spec);
Dataset makeBlobsDemo(DemoSpec& spec);

// The market demo's asset names, "S03_A017": sector and asset numbers padded to the
// widest (at least 2 and 3 digits). The live market stream names its assets the same.
std::string marketAssetName(std::int64_t sector, std::int64_t asset, std::int64_t sectors, std::int64_t assets);

// The blobs demo's k centres (k x d, row-major), each at least 8 spreads from the
// others, and the centre-to-centre distances computed to place them: the one part of
// the demo that could grow faster than n + k, so tests bound it.
struct BlobCentres {
    std::vector<double> values;
    std::int64_t distanceChecks = 0;
};
BlobCentres placeBlobCentres(std::uint64_t seed, std::int64_t k, std::int64_t d, double spread);

}  // namespace clusterdesk::data
