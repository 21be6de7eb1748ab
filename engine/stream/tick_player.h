// What a feed server plays: batches of ticks in exchange-time order, one batch per
// exchange timestamp. One interface, one file per kind (the live market demo, a ticks
// file replayed); the server paces whichever it holds against the wall clock.
#pragma once

#include "feed_message.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace clusterdesk::stream {

class TickPlayer {
public:
    virtual ~TickPlayer() = default;
    // What is played, for the hello message and the log: the demo's canonical spec or the file.
    virtual std::string stream() const = 0;
    virtual std::int64_t symbolCount() const = 0;
    // The next batch (ticks sharing one exchange time; seq left 0 for the server to
    // number per client). False when the stream has ended (a file played out).
    virtual bool next(std::vector<FeedTick>& batch) = 0;
    // The scheduled regime change; false when this stream has none.
    virtual bool rotate() { return false; }
};

// The live market demo (market_stream.h): endless, with rotate().
std::unique_ptr<TickPlayer> marketPlayer(const std::string& spec);
// A ticks file (timestamp,symbol,price[,size]) replayed in time order, read whole
// first so that a bad line is reported before anything is served (DataError).
std::unique_ptr<TickPlayer> tickFilePlayer(const std::string& path);

}  // namespace clusterdesk::stream
