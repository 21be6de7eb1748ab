// What a live session was fed, in the form the store keeps with each update (artifact
// live_input), so that the session can be replayed through the same loop: every call
// of LiveClusterer::add since the previous update (its closed bars' closes, all the
// window reads; the symbol names new since the call before; the feed's sectors when
// they changed), and, with the session's first update, the options the session ran
// with. In exact mode a replay gives every update's labels and centroids bit for bit.
// Each also names the assets of its window in row order: what its labels label.
#pragma once

#include "live_options.h"

#include "engine/data/bar_aggregator.h"

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace clusterdesk::stream {

struct LiveInputCall {
    std::vector<data::Bar> bars;
    std::vector<std::string> newSymbols;  // names appended to the symbol list before this call
    std::optional<std::unordered_map<std::string, std::string>> sectors;  // when they changed
};

struct LiveInput {
    std::optional<LiveOptions> session;  // the session's first update only (without its store)
    std::vector<LiveInputCall> calls;
    std::vector<std::string> windowAssets;  // the update's rows (empty in records made before they were kept)
};

std::string liveInputToJson(const LiveInput& input);
// CodecError naming `what` and the field when the text is not a live input.
LiveInput liveInputFromJson(const std::string& text, const std::string& what);

}  // namespace clusterdesk::stream
