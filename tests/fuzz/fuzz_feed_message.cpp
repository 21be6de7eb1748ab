// A live feed's messages as a server (or anyone on the network) may send them, and a
// client's subscribe as the feed server receives it: refused with a reason, never a
// crash or an exception; a tick that parses survives its own round trip.
#include "fuzz_support.h"

#include "engine/stream/feed_message.h"

#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const clusterdesk::stream::ParsedMessage parsed = clusterdesk::stream::parseServerMessage(text);
    if (parsed.message && parsed.message->kind == clusterdesk::stream::FeedMessage::Kind::Tick) {
        const auto again = clusterdesk::stream::parseServerMessage(clusterdesk::stream::tickMessage(parsed.message->tick));
        if (!again.message || again.message->tick.seq != parsed.message->tick.seq ||
            again.message->tick.symbol != parsed.message->tick.symbol)
            std::abort();
    }
    std::string problem;
    clusterdesk::stream::parseSubscribe(text, &problem);
    return 0;
}
