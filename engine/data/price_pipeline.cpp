#include "price_pipeline.h"

#include "truth_file.h"

#include "engine/core/error.h"
#include "kernels/zscore_rows.h"
#include "source_options.h"
#include "text_cells.h"

#include <cmath>
#include <cstdio>
#include <limits>

namespace clusterdesk::data {
namespace {

std::string percent(double fraction)
{
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.0f%%", 100.0 * fraction);
    return buffer;
}

// "a, b, c and 7 more"
std::string nameList(const std::vector<std::string>& names, std::size_t shown = 10)
{
    std::string out;
    for (std::size_t i = 0; i < names.size() && i < shown; ++i) out += (i ? ", " : "") + names[i];
    if (names.size() > shown) out += " and " + std::to_string(names.size() - shown) + " more";
    return out;
}

}  // namespace

double parsePrice(const CsvReader& reader, const CsvField& cell, std::size_t index, std::string_view headerName)
{
    const auto price = parseDouble(cell.text);
    // The label is built on failure only: this runs for every price of the file.
    const auto fail = [&](const std::string& what) { reader.fail(cell, fieldLabel(index, headerName) + ": " + what + ": '" + excerpt(cell.text) + "'"); };
    if (!price) fail("not a price");
    if (!std::isfinite(*price)) fail("not a finite price");
    if (*price <= 0.0) fail("price must be positive");
    if (*price < std::numeric_limits<double>::min())
        reader.fail(cell, fieldLabel(index, headerName) + ": price too small to take log returns of: '" + excerpt(cell.text) +
                              "' (below 2.2e-308, the smallest normal double)");
    return *price;
}

std::vector<SourceOption> priceSourceOptions()
{
    const PriceOptions defaults;
    constexpr std::int64_t kMaxPeriods = std::numeric_limits<std::int32_t>::max();
    SourceOption window = integerOption("window", "a return window", defaults.returnWindow, 0, kMaxPeriods);
    window.flag = "--window";
    SourceOption truth = textOption("truth", "a sector map", defaults.truthPath);
    truth.flag = "--truth";
    return {window, integerOption("max_forward_fill", "a forward-fill limit", defaults.maxForwardFill, 0, kMaxPeriods),
            realOption("min_history", "a minimum price history", defaults.minHistory, 0.0, 1.0), truth,
            integerOption(std::string(kScaleDaysOption), "a day scaling switch", defaults.scaleDays ? 1 : 0, 0, 1)};
}

PriceOptions priceOptionsOf(const SourceSpec& spec)
{
    return {integerValue(spec, "window"), integerValue(spec, "max_forward_fill"), realValue(spec, "min_history"), textValue(spec, "truth"),
            integerValue(spec, std::string(kScaleDaysOption)) != 0};
}

Dataset pricesToDataset(PriceTable table, const PriceOptions& options, std::string source, Layout layout,
                        std::vector<std::string> notes)
{
    const std::size_t given = notes.size();  // the caller's notes (provenance) come first
    const std::size_t periods = table.times.size();
    const std::size_t assets = table.assets.size();
    if (table.prices.size() != periods * assets || (!table.origins.empty() && table.origins.size() != periods * assets))
        throw Error("price table shape mismatch (internal)");
    if (periods == 0 || assets == 0) throw DataError(source, 0, 0, "no prices");
    const auto at = [&](std::size_t t, std::size_t a) -> double& { return table.prices[t * assets + a]; };

    // History before filling decides which assets stay: filled prices are not evidence.
    // Only kept assets are then filled, so the notes count fills that reach the output.
    std::vector<std::size_t> present(assets, 0);
    for (std::size_t t = 0; t < periods; ++t)
        for (std::size_t a = 0; a < assets; ++a) present[a] += !std::isnan(at(t, a));

    std::vector<std::size_t> kept;
    std::vector<std::string> dropped;
    for (std::size_t a = 0; a < assets; ++a) {
        const double fraction = static_cast<double>(present[a]) / static_cast<double>(periods);
        if (fraction < options.minHistory || present[a] == 0)
            dropped.push_back(table.assets[a] + " (" + percent(fraction) + ")");
        else
            kept.push_back(a);
    }
    if (!dropped.empty()) {
        notes.push_back("dropped " + std::to_string(dropped.size()) + " of " + std::to_string(assets) +
                        " assets with less than " + percent(options.minHistory) +
                        " of prices present: " + nameList(dropped));
    }
    if (kept.empty()) {
        throw DataError(
            source, 0, 0,
            "no asset has enough price history (minHistory " + percent(options.minHistory) + "): " + nameList(dropped));
    }

    std::int64_t filled = 0;
    for (std::size_t a : kept) {
        double last = std::numeric_limits<double>::quiet_NaN();
        std::size_t lastAt = 0;
        std::int64_t run = 0;
        for (std::size_t t = 0; t < periods; ++t) {
            double& p = at(t, a);
            if (!std::isnan(p)) {
                last = p;
                lastAt = t * assets + a;
                run = 0;
            } else if (!std::isnan(last) && run < options.maxForwardFill) {
                p = last;
                // A filled price points at the cell it repeats.
                if (!table.origins.empty()) table.origins[t * assets + a] = table.origins[lastAt];
                ++run;
                ++filled;
            } else {
                ++run;
            }
        }
    }
    if (filled > 0) {
        notes.push_back("forward-filled " + std::to_string(filled) + " missing price" + (filled == 1 ? "" : "s") +
                        " of kept assets (at most " +
                        std::to_string(options.maxForwardFill) + " in a row)");
    }

    // Align: keep the periods where every kept asset has a price.
    std::vector<std::size_t> dates;
    for (std::size_t t = 0; t < periods; ++t) {
        bool complete = true;
        for (std::size_t a : kept) complete = complete && !std::isnan(at(t, a));
        if (complete) dates.push_back(t);
    }
    if (dates.size() < periods) {
        notes.push_back("dropped " + std::to_string(periods - dates.size()) + " of " + std::to_string(periods) +
                        " periods where a kept asset still had no price (before its first price, or a gap longer "
                        "than " +
                        std::to_string(options.maxForwardFill) + ")");
    }
    if (dates.size() < 3) {
        throw DataError(source, 0, 0,
                        "too few periods with a price for every kept asset: " + std::to_string(dates.size()) +
                            " (at least 3 are needed for 2 returns)");
    }
    const std::int64_t available = static_cast<std::int64_t>(dates.size()) - 1;
    if (options.returnWindow > available) {
        throw UsageError("a window of " + std::to_string(options.returnWindow) + " returns exceeds the " +
                         std::to_string(available) + " returns available in " + source);
    }
    const std::int64_t window = options.returnWindow > 0 ? options.returnWindow : available;
    const std::size_t first = dates.size() - static_cast<std::size_t>(window);  // index in dates of first return's end

    Dataset out;
    out.rows = static_cast<std::int64_t>(kept.size());
    out.cols = window;
    out.values.resize(static_cast<std::size_t>(out.rows * out.cols));
    out.rowNames.reserve(kept.size());
    std::vector<std::string> flat;
    for (std::size_t r = 0; r < kept.size(); ++r) {
        const std::size_t a = kept[r];
        out.rowNames.push_back(table.assets[a]);
        float* row = out.values.data() + r * static_cast<std::size_t>(window);
        for (std::size_t k = first; k < dates.size(); ++k) {
            const double ret = std::log(at(dates[k], a) / at(dates[k - 1], a));
            // The ratio of two normal positive doubles can overflow to inf or underflow
            // to 0 (1e300 after 1e-300); such a return would make the whole run NaN.
            // A finite one is within +-1500, so the float cast and the z-score stay finite.
            if (!std::isfinite(ret)) {
                const PriceOrigin where = table.origins.empty() ? PriceOrigin{} : table.origins[dates[k] * assets + a];
                char prices[80];
                std::snprintf(prices, sizeof prices, "%.6g after %.6g", at(dates[k], a), at(dates[k - 1], a));
                throw DataError(source, where.line, where.column,
                                "the log return of '" + table.assets[a] + "' at " + table.times[dates[k]] +
                                    " is not finite: price " + prices +
                                    " is a ratio beyond double range; check the prices' units");
            }
            row[k - first] = static_cast<float>(ret);
        }
    }
    out.colNames.reserve(static_cast<std::size_t>(window));
    for (std::size_t k = first; k < dates.size(); ++k) out.colNames.push_back(table.times[dates[k]]);

    for (std::size_t r = 0; r < kept.size(); ++r) {
        const float* row = out.row(static_cast<std::int64_t>(r));
        bool constant = true;
        for (std::int64_t j = 1; j < window && constant; ++j) constant = row[j] == row[0];
        if (constant) flat.push_back(out.rowNames[r]);
    }
    out.returnMean.resize(kept.size());
    out.returnStd.resize(kept.size());
    for (std::size_t r = 0; r < kept.size(); ++r) {
        const float* row = out.row(static_cast<std::int64_t>(r));
        double sum = 0, squares = 0;
        for (std::int64_t j = 0; j < window; ++j) sum += row[j];
        out.returnMean[r] = sum / static_cast<double>(window);
        for (std::int64_t j = 0; j < window; ++j) squares += (row[j] - out.returnMean[r]) * (row[j] - out.returnMean[r]);
        out.returnStd[r] = std::sqrt(squares / static_cast<double>(window));
    }
    if (options.scaleDays) {
        // Each asset's returns in units of its own volatility (a flat row is zero), then
        // every period to unit dispersion across the assets; the z-score follows.
        for (std::size_t r = 0; r < kept.size(); ++r) {
            float* row = out.values.data() + r * static_cast<std::size_t>(window);
            const double sd = out.returnStd[r];
            for (std::int64_t j = 0; j < window; ++j) row[j] = sd > 0 ? static_cast<float>(row[j] / sd) : 0.0f;
        }
        clusterdesk::kernels::scaleColumnsToUnitRms(out.values, out.cols);
    }
    clusterdesk::kernels::zscoreRows(out.values, out.cols);
    if (!flat.empty()) {
        notes.push_back(std::to_string(flat.size()) + (flat.size() == 1 ? " asset has" : " assets have") +
                        " constant returns over the window; their rows are all "
                        "zero: " +
                        nameList(flat));
    }

    const auto count = [](std::int64_t n, const char* noun) {
        return std::to_string(n) + " " + noun + (n == 1 ? "" : "s");
    };
    notes.insert(notes.begin() + static_cast<std::ptrdiff_t>(given),
                 toString(layout) + ": " + count(static_cast<std::int64_t>(assets), "asset") + " x " +
                     count(static_cast<std::int64_t>(periods), "period") + " -> " + count(out.rows, "asset") + " x " +
                     count(static_cast<std::int64_t>(window), "log return") +
                     (options.scaleDays && out.rows >= 2 ? ", each period scaled to unit dispersion across assets, each row z-scored"
                                                         : ", each row z-scored"));
    out.source = std::move(source);
    out.layout = layout;
    out.notes = std::move(notes);
    if (!options.truthPath.empty()) attachTruth(out, options.truthPath);
    return out;
}

}  // namespace clusterdesk::data
