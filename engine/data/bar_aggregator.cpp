#include "bar_aggregator.h"

#include "engine/core/error.h"
#include "text_cells.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <utility>

namespace clusterdesk::data {
namespace {

std::int64_t floorDiv(std::int64_t a, std::int64_t b)
{
    std::int64_t q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
    return q;
}

std::string priceText(double value)
{
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.6g", value);
    return buffer;
}

}  // namespace

BarAggregator::BarAggregator(std::string source, std::int64_t barSeconds)
    : m_source(std::move(source))
    , m_barMicros(0)
    , m_lastMicros(std::numeric_limits<std::int64_t>::min())
{
    if (barSeconds <= 0) throw UsageError("a bar size must be > 0 seconds, got " + std::to_string(barSeconds));
    if (barSeconds > std::numeric_limits<std::int64_t>::max() / 1000000)
        throw UsageError("a bar size of " + std::to_string(barSeconds) + " seconds is too large");
    m_barMicros = barSeconds * 1000000;
}

std::int64_t BarAggregator::barStart(std::int64_t micros) const
{
    return floorDiv(micros, m_barMicros) * m_barMicros;
}

void BarAggregator::add(std::int64_t micros, std::string_view symbol, double price, double size, std::int64_t id)
{
    const auto fail = [&](const std::string& problem) {
        throw DataError(m_source, 0, 0,
                        "tick " + std::to_string(m_ticks + 1) + " (" + std::string(symbol) + " at " +
                            formatTimestamp(micros) + ")" + problem);
    };
    if (micros < m_lastMicros)
        fail(" is earlier than the stream's time " + formatTimestamp(m_lastMicros) + ": ticks must come in time order");
    if (!std::isfinite(price) || !(price > 0.0)) fail(": price must be finite and positive, got " + priceText(price));
    if (!std::isfinite(size) || size < 0.0) fail(": size must be finite and non-negative, got " + priceText(size));
    advanceTo(micros);

    auto [it, inserted] = m_ids.try_emplace(std::string(symbol), static_cast<std::int32_t>(m_symbols.size()));
    if (inserted) {
        m_symbols.emplace_back(symbol);
        m_slot.push_back(-1);
    }
    if (!m_open) {
        m_open = true;
        m_bar.startMicros = barStart(micros);
        m_bar.symbols.clear();
    }
    std::int32_t& slot = m_slot[static_cast<std::size_t>(it->second)];
    if (slot < 0) {
        slot = static_cast<std::int32_t>(m_bar.symbols.size());
        m_bar.symbols.push_back(SymbolBar{it->second, price, price, price, price, 0.0, 0, id});
    }
    SymbolBar& bar = m_bar.symbols[static_cast<std::size_t>(slot)];
    bar.high = std::max(bar.high, price);
    bar.low = std::min(bar.low, price);
    bar.close = price;
    bar.volume += size;
    bar.ticks += 1;
    bar.closeTickId = id;
    ++m_ticks;
}

void BarAggregator::advanceTo(std::int64_t micros)
{
    if (micros < m_lastMicros) return;  // a clock behind the stream changes nothing
    m_lastMicros = micros;
    if (m_open && barStart(micros) != m_bar.startMicros) closeOpenBar();
}

void BarAggregator::finish()
{
    if (m_open) closeOpenBar();
}

void BarAggregator::closeOpenBar()
{
    for (const SymbolBar& s : m_bar.symbols) m_slot[static_cast<std::size_t>(s.symbol)] = -1;
    m_closed.push_back(std::move(m_bar));
    m_bar = Bar{};
    m_open = false;
}

std::vector<Bar> BarAggregator::takeClosed()
{
    return std::exchange(m_closed, {});
}

}  // namespace clusterdesk::data
