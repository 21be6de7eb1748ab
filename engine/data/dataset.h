// The matrix every algorithm runs on: row-major float32, named rows and columns,
// optional ground truth, and a content hash that identifies it in the store.
#pragma once

#include "source_spec.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace clusterdesk {

// How the source file was laid out; rows always end up as the points to cluster.
enum class Layout { Matrix, Prices, Ticks };

std::string toString(Layout layout);

// The largest |value| a dataset with `cols` columns may hold. Squared distances are
// float32 sums over the columns; values up to this bound keep them below 1e37 (the
// widest difference, 2 x bound, squared, times cols), well inside float range.
// Loaders refuse a larger value at its cell; runs refuse any dataset that has one.
double maxFeatureMagnitude(std::int64_t cols);

// Why a value above maxFeatureMagnitude(cols) is refused, for the loaders' messages.
std::string tooLargeForDistances(std::int64_t cols);

struct Dataset {
    std::int64_t rows = 0;
    std::int64_t cols = 0;
    std::vector<float> values;               // rows * cols, row-major, all finite
    std::vector<std::string> rowNames;       // empty, or one per row (asset names for prices)
    std::vector<std::string> colNames;       // empty, or one per column
    std::vector<std::int32_t> truth;         // empty, or ground-truth label per row
    std::string source;                      // file path or demo spec, for messages
    SourceSpec spec;                         // how to open exactly these rows again (set by openSource)
    Layout layout = Layout::Matrix;
    std::vector<std::string> notes;          // what loading did: dropped assets, forward fills, ...
    // Price data: each asset's mean and standard deviation of its log returns over the
    // window, before its row was z-scored (what a report says about a cluster's return
    // and volatility); empty otherwise.
    std::vector<double> returnMean;
    std::vector<double> returnStd;

    const float* row(std::int64_t i) const { return values.data() + i * cols; }
    bool hasTruth() const { return !truth.empty(); }

    // SHA-256 (hex) over shape and values: same numbers, same hash, whatever the
    // file format they came from. Computed when asked, unless knownHash holds it.
    std::string contentHash() const;

    // SHA-256 (hex) over the row names, each with its length, in row order; empty when
    // the rows have none. Not part of contentHash (the same numbers are the same data,
    // and recorded runs are found by it), so a run keeps it beside: its membership names
    // rows, and a file whose names changed but not its values must not rename them.
    std::string rowNamesHash() const;

    // contentHash() computed once and kept: by the loader while it read the values
    // (.npy), or by openSourceHashed for the data a front end runs; empty: not known.
    // Whatever changes rows, cols or values clears it.
    std::string knownHash;
};

// What contentHash() hashes before the values: rows and cols as two little-endian int64.
std::array<unsigned char, 16> contentHashPrefix(std::int64_t rows, std::int64_t cols);

}  // namespace clusterdesk
