// Long ticks CSV: timestamp,symbol,price[,size] in any column order.
#pragma once

#include "dataset.h"
#include "load.h"

#include <string>
#include <string_view>
#include <vector>

namespace clusterdesk::data {

// Ticks are resampled to bars of options.barSeconds (the last price in each bar, by
// timestamp, file order breaking ties); only bars in which some symbol traded are kept.
// Then the prices pipeline (see price_pipeline.h), one row per symbol (sorted by name).
Dataset loadTicksCsv(const std::string& path, const LoadOptions& options);

// Does this header row (lower-cased names) name the three required tick columns?
bool isTicksHeader(const std::vector<std::string>& lowerNames);

}  // namespace clusterdesk::data
