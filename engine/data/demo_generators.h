// One function per demo; demo.cpp dispatches on the name. Each reads its keys from the
// spec (with defaults and ranges), calls spec.finish(), and builds the dataset.
#pragma once

#include "dataset.h"
#include "demo_spec.h"

namespace clusterdesk::data {

Dataset makeMarketDemo(DemoSpec& spec);
Dataset makeBlobsDemo(DemoSpec& spec);

}  // namespace clusterdesk::data
