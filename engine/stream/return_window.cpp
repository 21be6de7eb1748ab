#include "return_window.h"

#include "engine/core/error.h"
#include "engine/data/text_cells.h"
#include "kernels/zscore_rows.h"

#include <cmath>
#include <cstdio>
#include <map>

namespace clusterdesk::stream {

ReturnWindow::ReturnWindow(std::int64_t length, std::int64_t barSeconds, double halfLifeSeconds, bool scaleBars)
    : m_length(length)
    , m_barMicros(barSeconds * 1000000)
    , m_halfLife(halfLifeSeconds)
    , m_scaleBars(scaleBars)
{
    if (length < 2) throw UsageError("a live window needs at least 2 returns, got " + std::to_string(length));
    if (barSeconds < 1 || barSeconds > std::int64_t{1} << 40)
        throw UsageError("a live window's bars last a positive number of seconds, got " + std::to_string(barSeconds));
    if (!(halfLifeSeconds >= 0) || !std::isfinite(halfLifeSeconds))
        throw UsageError("a live window's half-life is 0 (equal weights) or a positive number of seconds, got " +
                         std::to_string(halfLifeSeconds));
    m_barStarts.assign(static_cast<std::size_t>(length), 0);
}

void ReturnWindow::add(const data::Bar& bar, const std::vector<std::string>& symbols)
{
    if (m_bars > 0) {
        const std::int64_t previous = m_barStarts[static_cast<std::size_t>((m_bars - 1) % m_length)];
        if (bar.startMicros <= previous)
            throw UsageError("a live window's bars come in time order: bar " + data::formatTimestamp(bar.startMicros) +
                            " after bar " + data::formatTimestamp(previous));
    }
    for (std::size_t i = m_assets.size(); i < symbols.size(); ++i)
        m_assets.push_back(Asset{symbols[i], 0.0, 0, std::vector<double>(static_cast<std::size_t>(m_length), 0.0), -1});
    std::vector<double> close(m_assets.size(), 0.0);
    for (const data::SymbolBar& s : bar.symbols) {
        // A recorded session's bars come from the store, where an edit could name anything.
        if (s.symbol < 0 || static_cast<std::size_t>(s.symbol) >= close.size())
            throw UsageError("a live window's bar at " + data::formatTimestamp(bar.startMicros) + " names symbol #" +
                             std::to_string(s.symbol) + ", of " + std::to_string(close.size()) + " known");
        close[static_cast<std::size_t>(s.symbol)] = s.close;
    }
    const auto slot = static_cast<std::size_t>(m_bars % m_length);
    for (std::size_t i = 0; i < m_assets.size(); ++i) {
        Asset& asset = m_assets[i];
        // count -1: not traded yet; its first close starts it (no return before a price).
        if (asset.count < 0) {
            if (close[i] > 0) {
                asset.lastClose = close[i];
                asset.lastCloseMicros = bar.startMicros;
                asset.count = 0;
            }
            continue;
        }
        double r = 0;
        if (close[i] > 0) {
            const double spanned = static_cast<double>(bar.startMicros - asset.lastCloseMicros) / static_cast<double>(m_barMicros);
            r = std::log(close[i] / asset.lastClose) / std::sqrt(spanned);
            asset.lastClose = close[i];
            asset.lastCloseMicros = bar.startMicros;
        }
        asset.returns[static_cast<std::size_t>(asset.count % m_length)] = r;
        ++asset.count;
    }
    m_barStarts[slot] = bar.startMicros;
    ++m_bars;
}

std::int64_t ReturnWindow::readyAssets() const
{
    std::int64_t ready = 0;
    for (const Asset& asset : m_assets) ready += asset.count >= m_length ? 1 : 0;
    return ready;
}

std::vector<double> ReturnWindow::columnWeights() const
{
    std::vector<double> weights(static_cast<std::size_t>(m_length), 1.0);
    if (m_halfLife <= 0 || m_bars < m_length) return weights;
    const std::int64_t newest = m_barStarts[static_cast<std::size_t>((m_bars - 1) % m_length)];
    double sum = 0;
    for (std::int64_t j = 0; j < m_length; ++j) {
        const std::int64_t start = m_barStarts[static_cast<std::size_t>((m_bars - m_length + j) % m_length)];
        weights[static_cast<std::size_t>(j)] = std::exp2(-static_cast<double>(newest - start) / 1e6 / m_halfLife);
        sum += weights[static_cast<std::size_t>(j)];
    }
    for (double& w : weights) w *= static_cast<double>(m_length) / sum;
    return weights;
}

Dataset ReturnWindow::matrix(const std::string& source, const std::unordered_map<std::string, std::string>& sectors) const
{
    const std::vector<double> weights = columnWeights();
    Dataset out;
    out.cols = m_length;
    out.layout = Layout::Prices;
    out.source = source;
    out.spec.source = kLiveSource;
    out.spec.location = source;
    std::vector<std::string> flat;
    for (const Asset& asset : m_assets) {
        if (asset.count < m_length) continue;
        // Oldest first: the ring's next slot holds the oldest return.
        const std::int64_t first = asset.count % m_length;
        double sum = 0, squares = 0;
        const std::size_t at = out.values.size();
        for (std::int64_t j = 0; j < m_length; ++j) {
            const double r = asset.returns[static_cast<std::size_t>((first + j) % m_length)];
            out.values.push_back(static_cast<float>(r));
            sum += weights[static_cast<std::size_t>(j)] * r;
        }
        const double mean = sum / static_cast<double>(m_length);  // the weights average 1
        bool constant = true;
        for (std::int64_t j = 0; j < m_length; ++j) {
            const double d = out.values[at + j] - mean;
            squares += weights[static_cast<std::size_t>(j)] * d * d;
            constant = constant && out.values[at + j] == out.values[at];
        }
        if (constant) flat.push_back(asset.name);
        out.rowNames.push_back(asset.name);
        out.returnMean.push_back(mean);
        out.returnStd.push_back(constant ? 0.0 : std::sqrt(squares / static_cast<double>(m_length)));
        ++out.rows;
    }
    // What each row is standardised with: its own mean and deviation, or with the bars
    // scaled, those of the scaled row (in units of the asset's volatility, each bar then
    // to unit dispersion across the assets, as for a prices file).
    std::vector<double> means = out.returnMean, deviations = out.returnStd;
    if (m_scaleBars) {
        for (std::int64_t r = 0; r < out.rows; ++r) {
            float* row = out.values.data() + r * m_length;
            const double sd = out.returnStd[static_cast<std::size_t>(r)];
            for (std::int64_t j = 0; j < m_length; ++j) row[j] = sd > 0 ? static_cast<float>(row[j] / sd) : 0.0f;
        }
        clusterdesk::kernels::scaleColumnsToUnitRms(out.values, m_length);
        for (std::int64_t r = 0; r < out.rows; ++r) {
            const float* row = out.values.data() + r * m_length;
            double sum = 0, squares = 0;
            for (std::int64_t j = 0; j < m_length; ++j) sum += weights[static_cast<std::size_t>(j)] * row[j];
            const double mean = sum / static_cast<double>(m_length);
            for (std::int64_t j = 0; j < m_length; ++j) {
                const double d = row[j] - mean;
                squares += weights[static_cast<std::size_t>(j)] * d * d;
            }
            means[static_cast<std::size_t>(r)] = mean;
            deviations[static_cast<std::size_t>(r)] = std::sqrt(squares / static_cast<double>(m_length));
        }
    }
    // Z-scored with the weighted mean and deviation, each column scaled by the root of
    // its weight; a flat row becomes zeros.
    for (std::int64_t r = 0; r < out.rows; ++r) {
        float* row = out.values.data() + r * m_length;
        const double mean = means[static_cast<std::size_t>(r)], sd = deviations[static_cast<std::size_t>(r)];
        for (std::int64_t j = 0; j < m_length; ++j)
            row[j] = sd > 0 ? static_cast<float>((row[j] - mean) / sd * std::sqrt(weights[static_cast<std::size_t>(j)])) : 0.0f;
    }
    // Column names: the bars the returns end in, oldest first.
    for (std::int64_t j = 0; j < m_length; ++j) {
        const std::int64_t bar = m_bars - m_length + j;
        out.colNames.push_back(bar < 0 ? std::string("-")
                                       : data::formatTimestamp(m_barStarts[static_cast<std::size_t>(bar % m_length)]));
    }
    char halving[64] = "";
    if (m_halfLife > 0) std::snprintf(halving, sizeof halving, ", weights halving every %g s", m_halfLife);
    out.notes.push_back("live window: " + std::to_string(out.rows) + " assets x " + std::to_string(m_length) +
                        " bar returns" + (m_scaleBars && out.rows >= 2 ? ", each bar scaled to unit dispersion across assets" : "") + halving);
    if (!flat.empty())
        out.notes.push_back(std::to_string(flat.size()) + " assets did not move over the window; their rows are zero");
    std::map<std::string, std::int32_t> sectorIds;
    for (const std::string& asset : out.rowNames) {
        const auto sector = sectors.find(asset);
        if (sector == sectors.end()) {
            out.truth.clear();
            break;
        }
        out.truth.push_back(sectorIds.emplace(sector->second, static_cast<std::int32_t>(sectorIds.size())).first->second);
    }
    return out;
}

}  // namespace clusterdesk::stream
