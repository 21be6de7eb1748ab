// Wide prices CSV: a date column, then one column of prices per asset.
#pragma once

#include "dataset.h"
#include "load.h"

#include <string>

namespace clusterdesk::data {

// The header is required (it names the assets; duplicates are an error). Dates are ISO
// 8601 (or epoch seconds under a date/time/timestamp/datetime/day header) and must
// increase strictly. Missing cells (empty, NA, NaN,
// null, ...) are forward-filled per the options; non-numeric, infinite or non-positive
// prices are errors at the cell. Then the prices pipeline (see price_pipeline.h).
Dataset loadPricesCsv(const std::string& path, const LoadOptions& options);

// Is this header cell the name of a date/time column?
bool isTimeHeader(std::string_view name);

}  // namespace clusterdesk::data
