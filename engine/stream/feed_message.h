// The feed's wire format, one JSON object per message (a WebSocket text frame, or a
// line of newline-delimited JSON over TCP), in the shape exchange feeds use:
//
//   server -> client  {"type":"hello","stream":"market:assets=500,...","symbols":500,"speed":"1x"}
//                     {"type":"tick","seq":17,"symbol":"S03_A017","price":101.25,"size":300,
//                      "ts":1767623400100000,"sector":"S03"}      (sector: optional, the truth)
//                     {"type":"error","message":"..."}
//   client -> server  {"type":"subscribe","symbols":"*" | ["S03_A017",...],"token":"..."}
//
// seq counts the stream's messages to one client from 1, so a client sees its own gaps;
// ts is the exchange time in microseconds since the epoch. Parsing never throws on what
// a peer sent: a bad message comes back with the reason it was refused, and the reasons
// are few and fixed so a client can count them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace clusterdesk::stream {

struct FeedTick {
    std::int64_t seq = 0;
    std::string symbol;
    double price = 0;
    double size = 0;
    std::int64_t exchangeMicros = 0;
    std::string sector;  // empty when the feed does not carry it
};

// Why a received message was refused; each is counted separately.
enum class BadMessage {
    NotJson,        // not parseable JSON, or not an object
    UnknownType,    // "type" missing or not one this client knows
    MissingField,   // a required field is absent or has the wrong JSON type
    UnknownField,   // a field the format does not have (a different protocol version)
    BadPrice,       // price not finite and positive
    BadSize,        // size negative or not finite
    BadSequence,    // seq not a positive integer
};
constexpr int kBadMessageKinds = 7;
// "malformed JSON", "unknown field", ...: what a log line or a status panel shows.
const char* describe(BadMessage reason);

struct FeedMessage {
    enum class Kind { Hello, Tick, Error } kind = Kind::Tick;
    FeedTick tick;        // Kind::Tick
    std::string text;     // Hello: the stream's spec; Error: the server's message
    std::int64_t symbols = 0;  // Hello: how many symbols the stream has
};

struct ParsedMessage {
    std::optional<FeedMessage> message;  // set when the message was good
    BadMessage reason = BadMessage::NotJson;
    std::string detail;                  // what exactly: "field 'price': -3 is not positive"
};
ParsedMessage parseServerMessage(std::string_view text);

struct Subscribe {
    bool all = true;                   // "*": every symbol
    std::vector<std::string> symbols;  // when !all
    std::string token;                 // empty when none was sent
};
// The client's subscribe request, or nullopt with why in *problem.
std::optional<Subscribe> parseSubscribe(std::string_view text, std::string* problem);

std::string tickMessage(const FeedTick& tick);
std::string helloMessage(const std::string& stream, std::int64_t symbols, const std::string& speed);
std::string errorMessage(const std::string& message);
std::string subscribeMessage(const Subscribe& request);

// Classifies each received sequence number against the highest seen so far.
class SequenceChecker {
public:
    enum class Verdict { First, Next, Gap, Duplicate, OutOfOrder };
    // missing: for Gap, how many numbers were skipped.
    Verdict check(std::int64_t seq, std::int64_t* missing = nullptr);
    // A new connection's stream starts again from 1.
    void restart() { m_last = 0; }
    std::int64_t last() const { return m_last; }

private:
    std::int64_t m_last = 0;  // highest seq seen, 0 before any
};

}  // namespace clusterdesk::stream
