// The prices pipeline shared by wide price files, resampled ticks and the market demo:
// forward fill short gaps, drop assets with too little history, align dates, take log
// returns over the requested window, z-score each asset's row.
#pragma once

#include "dataset.h"
#include "load.h"

#include <string>
#include <vector>

namespace clusterdesk::data {

// Prices by period, one column per asset.
struct PriceTable {
    std::vector<std::string> times;   // label of each period (date or bar start), increasing
    std::vector<std::string> assets;  // asset names, unique
    std::vector<double> prices;       // times.size() x assets.size(), row-major by time; NaN = missing, else > 0
};

// Throws UsageError for options out of range (negative window, minHistory outside [0,1], ...).
void validateLoadOptions(const LoadOptions& options);

// One row per kept asset (rowNames), features = z-scored log returns of the last
// returnWindow periods (colNames = the period each return ends on). Every fill and
// drop is recorded in notes, after the ones passed in. DataError (naming source, no
// line) when nothing usable remains; UsageError when returnWindow exceeds the history.
Dataset pricesToDataset(PriceTable table, const LoadOptions& options, std::string source, Layout layout,
                        std::vector<std::string> notes = {});

}  // namespace clusterdesk::data
