// The old way of loading a file, kept while callers move to describeFile/openSource
// (open_source.h); each function here is a thin wrapper over the DataSource registry.
//
// Formats (the layout is sniffed from the content unless given):
// - Matrix: delimited text (',', '\t' or ';'), optional header and id column, an
//   optional `label`/`truth` column of integer ground truth; or a NumPy .npy file
//   (float32, float64 or integers, 1-D or 2-D, C or Fortran order).
// - Prices: wide CSV, a date column then one column of prices per asset. Becomes one
//   row per asset of z-scored log returns, so Euclidean distance is correlation distance.
// - Ticks: long CSV timestamp,symbol,price[,size], resampled to bars, then as Prices.
//
// Bad input never loads silently: every problem is a DataError whose what() reads
// "FILE:LINE:COLUMN: message" (binary files: line 1, column = 1-based byte offset).
#pragma once

#include "dataset.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

namespace clusterdesk {

struct LoadOptions {
    std::optional<Layout> layout;  // nullopt: sniff from content
    int returnWindow = 0;          // prices/ticks: use the last N log returns as features (0 = all)
    int maxForwardFill = 5;        // prices: fill at most this many consecutive missing prices with the last one
    double minHistory = 0.8;  // prices: drop assets with fewer than this fraction of prices present (reported in notes)
    static constexpr std::int64_t kDefaultBarSeconds = 60;
    std::int64_t barSeconds = kDefaultBarSeconds;  // ticks: bar size
    std::function<bool(double)> progress;  // fraction done in [0,1]; return false to cancel (throw Cancelled)
};

// The layout a file holds, from its first bytes: .npy magic -> Matrix; a header with
// timestamp, symbol and price columns -> Ticks; a first column named date/time/
// timestamp/datetime, or holding ISO dates -> Prices; anything else -> Matrix.
// Throws DataError for a missing, unreadable or empty file.
Layout sniffLayout(const std::string& path);

// Options the layout would silently ignore are refused (UsageError), so that no run
// records a setting it did not use: a return window on a matrix, a bar size on
// anything but ticks. loadDataset checks once the layout is known (it may be sniffed);
// there a bar size equal to the default cannot be told from none, so a caller that
// knows one was asked for checks again with barGiven.
void requireOptionsApply(const std::string& path, Layout layout, const LoadOptions& options, bool barGiven = false);

// Loads and validates the whole file. Throws DataError (bad content), UsageError (bad
// options, e.g. returnWindow longer than the history, or an option that does not apply
// to the layout: a return window on a matrix, a bar size other than the default on
// anything but ticks) or Cancelled (progress said stop).
Dataset loadDataset(const std::string& path, const LoadOptions& options = {});

}  // namespace clusterdesk
