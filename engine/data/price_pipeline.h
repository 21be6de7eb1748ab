// The prices pipeline shared by wide price files, resampled ticks and the market demo:
// forward fill short gaps, drop assets with too little history, align dates, take log
// returns over the requested window, weigh every day alike (each asset's returns over
// its volatility, each day over their dispersion: kernels::scaleColumnsToUnitRms), and
// z-score each asset's row.
#pragma once

#include "csv_reader.h"
#include "data_source.h"
#include "dataset.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace clusterdesk::data {

// Where a price was read: the line and character column of its cell (0, 0 = generated).
struct PriceOrigin {
    std::int64_t line = 0;
    std::int64_t column = 0;
};

// Prices by period, one column per asset.
struct PriceTable {
    std::vector<std::string> times;   // label of each period (date or bar start), increasing
    std::vector<std::string> assets;  // asset names, unique
    std::vector<double> prices;       // times.size() x assets.size(), row-major by time; NaN = missing, else normal > 0
    std::vector<PriceOrigin> origins; // empty (generated prices), or one per price: where a failure points
};

// The price in a cell of a prices or ticks file: a finite, positive, normal double
// (a subnormal price such as 1e-310 has lost its precision and its log returns
// overflow). Fails through the reader with the cell's position otherwise.
double parsePrice(const CsvReader& reader, const CsvField& cell, std::size_t index, std::string_view headerName);

// What shapes the rows made from a price table.
struct PriceOptions {
    std::int64_t returnWindow = 0;    // use the last N log returns as features (0 = all)
    std::int64_t maxForwardFill = 5;  // fill at most this many consecutive missing prices with the last one
    double minHistory = 0.8;          // drop assets with fewer than this fraction of prices present (noted)
    std::string truthPath;            // a sector map (truth_file.h) giving each kept asset its ground truth; empty: none
    bool scaleDays = true;            // before the z-score: each asset's returns over its volatility, each day over their RMS across assets
};

// The option that switches PriceOptions::scaleDays. Runs recorded before it existed read
// their prices unscaled: a recorded spec that lacks it is reopened with 0.
inline constexpr std::string_view kScaleDaysOption = "scale_days";

// The options of every source that ends in this pipeline (prices, ticks): window,
// max_forward_fill, min_history, truth, scale_days (0 or 1), with PriceOptions' defaults
// and ranges.
std::vector<SourceOption> priceSourceOptions();
// Those options read back from a completed spec.
PriceOptions priceOptionsOf(const SourceSpec& spec);

// One row per kept asset (rowNames), features = z-scored log returns of the last
// returnWindow periods (colNames = the period each return ends on), each period scaled
// to unit dispersion across the assets first when options.scaleDays. Every fill and
// drop is recorded in notes, after the ones passed in. DataError (naming source, no
// line) when nothing usable remains, or at the later price's origin when a log return
// is not finite (two prices too far apart for their ratio to be a double);
// UsageError when returnWindow exceeds the history.
Dataset pricesToDataset(PriceTable table, const PriceOptions& options, std::string source, Layout layout,
                        std::vector<std::string> notes = {});

}  // namespace clusterdesk::data
