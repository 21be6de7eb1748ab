// `runs diff A B`: what differs between two recorded runs (parameters, topology,
// metrics) and how far their answers agree (ARI between their labels).
#pragma once

#include "engine/store/run_store.h"

#include <string>

namespace clusterdesk::cli {

std::string runDiffText(const store::RunRecord& a, const store::RunRecord& b);

}  // namespace clusterdesk::cli
