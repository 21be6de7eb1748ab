#include "live_input.h"

#include "engine/cluster/cluster_codec.h"
#include "engine/core/error.h"

namespace clusterdesk::stream {
namespace {

using nlohmann::json;

// A bar as [start, [[symbol, close], ...]]: the closes are all the window reads, and
// JSON numbers keep doubles exactly (shortest round trip).
json barToJson(const data::Bar& bar)
{
    json symbols = json::array();
    for (const data::SymbolBar& s : bar.symbols) symbols.push_back({s.symbol, s.close});
    return {bar.startMicros, std::move(symbols)};
}

data::Bar barFromJson(const json& j)
{
    if (!j.is_array() || j.size() != 2 || !j[1].is_array()) throw CodecError("a bar must be [start, [symbols]]");
    data::Bar bar;
    bar.startMicros = codec::integerValue<std::int64_t>(j[0], "bar start");
    for (const json& s : j[1]) {
        if (!s.is_array() || s.size() != 2 || !s[1].is_number()) throw CodecError("a bar's symbol must be [symbol, close]");
        data::SymbolBar out;
        out.symbol = codec::integerValue<std::int32_t>(s[0], "symbol");
        out.close = s[1].get<double>();
        bar.symbols.push_back(out);
    }
    return bar;
}

// The options a replay needs; not the store, nor the pool's launcher (those are the
// replaying machine's).
json optionsToJson(const LiveOptions& o)
{
    return {{"source", o.source},
            {"bar_s", o.barSeconds},
            {"window_bars", o.windowBars},
            {"half_life_s", o.halfLifeSeconds},
            {"scale_bars", o.scaleBars},
            {"update_every_bars", o.updateEveryBars},
            {"params", codec::toJson(o.params)},
            {"fresh_initialisations", o.freshInitialisations},
            {"min_overlap", o.identity.minOverlap},
            {"flow_share", o.identity.flowShare},
            {"drift_moved_share", o.driftMovedShare},
            {"drift_dispersion", o.driftDispersion},
            {"topology", toString(o.topology)},
            {"threads", o.threads}};
}

LiveOptions optionsFromJson(const json& j)
{
    LiveOptions o;
    o.source = j.at("source").get<std::string>();
    // Sessions recorded before the bar length was kept replay with 1 s: the window's
    // rows are z-scored, so the length only sets the unit of each asset's mean and
    // deviation, never which assets cluster together.
    o.barSeconds = codec::integerFieldOr<std::int64_t>(j, "bar_s", 1);
    o.windowBars = codec::integerField<std::int64_t>(j, "window_bars");
    o.halfLifeSeconds = j.at("half_life_s").get<double>();
    // Sessions recorded before bars were scaled replay unscaled, as they ran.
    o.scaleBars = j.value("scale_bars", false);
    o.updateEveryBars = codec::integerField<std::int64_t>(j, "update_every_bars");
    o.params = codec::paramsFromJson(j.at("params"));
    o.freshInitialisations = codec::integerField<int>(j, "fresh_initialisations");
    o.identity.minOverlap = j.at("min_overlap").get<double>();
    o.identity.flowShare = j.at("flow_share").get<double>();
    o.driftMovedShare = j.at("drift_moved_share").get<double>();
    o.driftDispersion = j.at("drift_dispersion").get<double>();
    o.topology = parseTopology(j.at("topology").get<std::string>());
    o.threads = codec::integerField<int>(j, "threads");
    return o;
}

}  // namespace

std::string liveInputToJson(const LiveInput& input)
{
    json calls = json::array();
    for (const LiveInputCall& call : input.calls) {
        json bars = json::array();
        for (const data::Bar& bar : call.bars) bars.push_back(barToJson(bar));
        json c = {{"bars", std::move(bars)}, {"new_symbols", call.newSymbols}};
        if (call.sectors) c["sectors"] = *call.sectors;
        calls.push_back(std::move(c));
    }
    json out = {{"calls", std::move(calls)}, {"window_assets", input.windowAssets}};
    if (input.session) out["session"] = optionsToJson(*input.session);
    return out.dump();
}

LiveInput liveInputFromJson(const std::string& text, const std::string& what)
{
    try {
        const json j = json::parse(text);
        LiveInput input;
        if (j.contains("session")) input.session = optionsFromJson(j.at("session"));
        for (const json& c : j.at("calls")) {
            LiveInputCall call;
            for (const json& bar : c.at("bars")) call.bars.push_back(barFromJson(bar));
            call.newSymbols = c.at("new_symbols").get<std::vector<std::string>>();
            if (c.contains("sectors")) call.sectors = c.at("sectors").get<std::unordered_map<std::string, std::string>>();
            input.calls.push_back(std::move(call));
        }
        if (j.contains("window_assets")) input.windowAssets = j.at("window_assets").get<std::vector<std::string>>();
        return input;
    } catch (const CodecError& e) {
        throw CodecError(what + ": " + e.what());
    } catch (const json::exception& e) {
        throw CodecError(what + ": " + e.what());
    } catch (const UsageError& e) {  // a topology that does not parse
        throw CodecError(what + ": " + e.what());
    }
}

}  // namespace clusterdesk::stream
