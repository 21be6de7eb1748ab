// Ticks to bars, incrementally: fed one tick at a time in time order, it closes a bar
// as soon as a tick (or the caller's clock) reaches the next bar, so a live feed and a
// ticks file share one definition of a bar. Bars are aligned to the epoch (a 60 s bar
// starts on the minute); a bar in which nothing traded is not emitted.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace clusterdesk::data {

// One symbol's trading in one bar.
struct SymbolBar {
    std::int32_t symbol = 0;  // index into BarAggregator::symbols()
    double open = 0, high = 0, low = 0, close = 0;
    double volume = 0;               // sum of the ticks' sizes
    std::int64_t ticks = 0;          // how many ticks
    std::int64_t closeTickId = 0;    // the caller's id of the tick that set the close
};

struct Bar {
    std::int64_t startMicros = 0;    // microseconds since the epoch, a multiple of the bar length
    std::vector<SymbolBar> symbols;  // the symbols that traded, in order of their first tick in the bar
};

class BarAggregator {
public:
    // source names the stream in errors (a file path, a feed address). UsageError for
    // a bar length that is not positive or overflows microseconds.
    BarAggregator(std::string source, std::int64_t barSeconds);

    // Adds a tick. Ticks must come in non-decreasing time (ties keep their order: the
    // later one sets the close). id is the caller's handle on the tick, reported back
    // as closeTickId. DataError (naming the source, the symbol and both times) for a
    // tick earlier than the previous one, a price that is not finite and positive, or
    // a size that is negative or not finite.
    void add(std::int64_t micros, std::string_view symbol, double price, double size = 0.0, std::int64_t id = 0);
    // The caller's clock reached `micros`: the open bar closes if it ends at or before
    // it. Later ticks must not be earlier than `micros`.
    void advanceTo(std::int64_t micros);
    // End of the stream: closes the open bar, if any.
    void finish();

    // Bars closed since the last call, oldest first.
    std::vector<Bar> takeClosed();

    // Every symbol seen, in order of first appearance (SymbolBar::symbol indexes this).
    const std::vector<std::string>& symbols() const { return m_symbols; }
    std::int64_t barMicros() const { return m_barMicros; }
    std::int64_t tickCount() const { return m_ticks; }

private:
    std::int64_t barStart(std::int64_t micros) const;
    void closeOpenBar();

    std::string m_source;
    std::int64_t m_barMicros;
    std::int64_t m_lastMicros;  // time of the latest tick or advanceTo
    std::int64_t m_ticks = 0;
    bool m_open = false;
    Bar m_bar;                                            // the open bar, when m_open
    std::vector<std::int32_t> m_slot;                     // symbol -> index in m_bar.symbols, or -1
    std::unordered_map<std::string, std::int32_t> m_ids;  // symbol name -> index in m_symbols
    std::vector<std::string> m_symbols;
    std::vector<Bar> m_closed;
};

}  // namespace clusterdesk::data
