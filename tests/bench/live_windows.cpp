// The re-clustering half of bench_live_update.py: the live market demo (its rotation
// half-way) through 1 s bars into the live loop, one update every 5 bars, as
// clusterdesk-cli live runs it; every update's window is written for the peers to
// cluster the very same rows. Writes DIR/window_N.f32 (rows x cols float32) and
// DIR/truth_N.i32 (the sectors then), and prints one JSON line per update: rows,
// cols, our time for the update (the run itself), iterations and ARI.
//
// Usage: bench-live-windows DIR [BARS] [fast|exact]
#include "engine/stream/live_clusterer.h"
#include "engine/stream/market_stream.h"
#include "engine/stream/return_window.h"
#include "engine/stream/tick_inbox.h"

#include <nlohmann/json.hpp>

#include <fstream>
#include <iostream>
#include <map>
#include <string>

using namespace clusterdesk;

namespace {

template <typename T>
void writeRaw(const std::string& path, const std::vector<T>& values)
{
    std::ofstream out(path, std::ios::binary);
    out.write(reinterpret_cast<const char*>(values.data()), static_cast<std::streamsize>(values.size() * sizeof(T)));
    if (!out) throw std::runtime_error("cannot write " + path);
}

}  // namespace

int main(int argc, char** argv)
{
    if (argc < 2) {
        std::cerr << "usage: bench-live-windows DIR [BARS] [fast|exact]\n";
        return 2;
    }
    try {
        const std::string dir = argv[1];
        const int bars = argc > 2 ? std::stoi(argv[2]) : 300;
        stream::LiveOptions options;
        options.windowBars = 60;
        options.updateEveryBars = 5;
        options.params.k = 10;
        options.params.mode = argc > 3 && std::string(argv[3]) == "exact" ? kernels::Mode::Exact : kernels::Mode::Fast;
        options.threads = 1;
        stream::LiveClusterer live(options);
        stream::ReturnWindow window(options.windowBars, options.barSeconds);  // the same bars: the same rows the update clustered
        stream::MarketStream market("market:assets=500,sectors=10");
        stream::TickInbox inbox("bench", options.barSeconds);
        std::vector<stream::MarketTick> ticks;
        const std::int64_t stepsPerBar = 1000000 / market.stepMicros();
        for (std::int64_t step = 0; step < bars * stepsPerBar; ++step) {
            if (step == bars / 2 * stepsPerBar) market.rotate();
            market.step(ticks);
            for (const stream::MarketTick& t : ticks) {
                stream::FeedTick tick;
                tick.symbol = market.symbols()[t.asset];
                tick.price = t.price;
                tick.exchangeMicros = t.exchangeMicros;
                tick.sector = market.sectorName(t.sector);
                inbox.add(tick, 0);
            }
            const auto closed = inbox.takeClosed();
            if (closed.empty()) continue;
            const auto symbols = inbox.symbols();
            for (const auto& bar : closed) window.add(bar.bar, symbols);
            const auto sectors = inbox.sectors();
            const auto update = live.add(closed, symbols, sectors);
            if (!update) continue;
            const Dataset rows = window.matrix("bench");
            std::map<std::string, std::int32_t> ids;
            std::vector<std::int32_t> truth;
            for (const std::string& asset : rows.rowNames)
                truth.push_back(ids.emplace(sectors.at(asset), static_cast<std::int32_t>(ids.size())).first->second);
            const std::string n = std::to_string(update->index);
            writeRaw(dir + "/window_" + n + ".f32", rows.values);
            writeRaw(dir + "/truth_" + n + ".i32", truth);
            std::cout << nlohmann::json{{"update", update->index}, {"rows", rows.rows}, {"cols", rows.cols},
                                        {"ms", update->clusterMs}, {"iterations", update->iterations},
                                        {"ari", update->ari.value_or(-1)}}
                             .dump()
                      << '\n';
        }
    } catch (const std::exception& e) {
        std::cerr << "bench-live-windows: " << e.what() << '\n';
        return 1;
    }
    return 0;
}
