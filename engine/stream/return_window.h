// The rolling window a live session clusters: per asset, the log returns of its last
// `length` bars (a bar in which it did not trade repeats its last close: a zero
// return), as the rows of a Dataset, each z-scored, so Euclidean distance between rows
// is correlation distance, as for a prices file. A return that spans g bar lengths (the
// asset did not trade, or no bar came at all: a quiet market, a feed that dropped us
// and took us back) is divided by sqrt(g), one bar's worth of variance: else the one
// return across a minute's gap outweighs the window's other columns and the rows
// cluster on its sign alone. Memory is a ring per asset, whatever
// the stream's length. With a half-life, a return's weight halves every `halfLife`
// seconds of bar time before the newest bar: rows are z-scored with the weighted mean
// and deviation and each column scaled by the square root of its weight, so Euclidean
// distance is the weighted correlation distance and recent moves count the most. Before
// the z-score, each return is put in units of its asset's volatility and each bar scaled
// to unit dispersion across the assets (kernels::scaleColumnsToUnitRms), as the prices
// pipeline does: a turbulent minute does not outweigh the calm ones.
#pragma once

#include "engine/data/bar_aggregator.h"
#include "engine/data/dataset.h"

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace clusterdesk::stream {

class ReturnWindow {
public:
    // length: returns per row (>= 2). barSeconds: the bars' length (> 0). halfLifeSeconds:
    // 0 for equal weights, else > 0. scaleBars: each bar to unit dispersion across the
    // assets (false: as sessions recorded before it did). UsageError for a length below
    // 2, a bar length not positive, or a half-life negative or not finite.
    ReturnWindow(std::int64_t length, std::int64_t barSeconds, double halfLifeSeconds = 0, bool scaleBars = true);

    // Adds one closed bar, later than the previous one (UsageError naming both starts if
    // not: the aggregator closes bars in time order); symbols names every symbol the bar's indices may refer to (the aggregator's
    // names, indexed by SymbolBar::symbol: the list only grows).
    void add(const data::Bar& bar, const std::vector<std::string>& symbols);
    std::int64_t length() const { return m_length; }
    double halfLifeSeconds() const { return m_halfLife; }
    std::int64_t bars() const { return m_bars; }
    // Assets whose window is full.
    std::int64_t readyAssets() const;

    // The rows of the assets with a full window, in order of first appearance, z-scored,
    // with their names, the column names (bar start times) and each asset's return mean
    // and deviation; notes name any asset whose window is flat (its row is all zero).
    // source: the feed's URL, the dataset's live spec. sectors (asset -> sector, what a
    // demo feed carries): the rows' ground truth when every asset has one, numbered in
    // order of first appearance, so runs on the window record their ARI against it.
    Dataset matrix(const std::string& source, const std::unordered_map<std::string, std::string>& sectors = {}) const;

private:
    struct Asset {
        std::string name;
        double lastClose = 0;
        std::int64_t lastCloseMicros = 0;  // the start of the bar that set lastClose
        std::vector<double> returns;  // ring of m_length
        std::int64_t count = 0;       // returns seen so far
    };

    // Each column's weight, oldest first, averaging 1 (all 1 without a half-life).
    std::vector<double> columnWeights() const;

    std::int64_t m_length;
    std::int64_t m_barMicros;
    double m_halfLife;
    bool m_scaleBars;
    std::int64_t m_bars = 0;
    std::vector<Asset> m_assets;            // indexed like the aggregator's symbols
    std::vector<std::int64_t> m_barStarts;  // ring of the last m_length bar starts
};

}  // namespace clusterdesk::stream
