#include "feed_message.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <set>

namespace clusterdesk::stream {
namespace {

using nlohmann::json;

// A value as JSON text: invalid UTF-8 (a symbol from a file, a peer's string) replaced,
// never thrown on.
std::string shown(const json& value)
{
    return value.dump(-1, ' ', false, json::error_handler_t::replace);
}

ParsedMessage refuse(BadMessage reason, std::string detail)
{
    ParsedMessage out;
    out.reason = reason;
    out.detail = std::move(detail);
    return out;
}

// The first field of `object` not in `known`, or empty.
std::string unknownField(const json& object, const std::set<std::string>& known)
{
    for (const auto& item : object.items())
        if (!known.count(item.key())) return item.key();
    return {};
}

// A symbol or sector: short text without control characters (a NUL, an ESC or a line
// break in a name would travel into terminals, CSV files and reports; a name of 500,000
// characters made a report's PDF take minutes to lay out).
bool isName(const json& value)
{
    constexpr std::size_t kLongestName = 256;  // tickers and sector names are far shorter
    if (!value.is_string()) return false;
    const std::string& text = value.get_ref<const std::string&>();
    return !text.empty() && text.size() <= kLongestName && std::none_of(text.begin(), text.end(), [](char c) {
        const auto byte = static_cast<unsigned char>(c);
        return byte < 0x20 || byte == 0x7f;
    });
}

ParsedMessage parseTick(const json& object)
{
    static const std::set<std::string> known{"type", "seq", "symbol", "price", "size", "ts", "sector"};
    if (const std::string extra = unknownField(object, known); !extra.empty())
        return refuse(BadMessage::UnknownField, "tick has a field '" + extra + "' the format does not have");
    for (const char* field : {"seq", "symbol", "price", "ts"})
        if (!object.contains(field)) return refuse(BadMessage::MissingField, std::string("tick has no '") + field + "'");
    const json& seq = object["seq"];
    if (!seq.is_number_integer() || seq.get<std::int64_t>() <= 0)
        return refuse(BadMessage::BadSequence, "field 'seq': " + shown(seq) + " is not a positive integer");
    if (!isName(object["symbol"]))
        return refuse(BadMessage::MissingField, "field 'symbol': " + shown(object["symbol"]) + " is not a name");
    if (!object["ts"].is_number_integer())
        return refuse(BadMessage::MissingField, "field 'ts': " + shown(object["ts"]) + " is not microseconds");
    if (!object["price"].is_number())
        return refuse(BadMessage::BadPrice, "field 'price': " + shown(object["price"]) + " is not a number");
    FeedMessage message;
    FeedTick& tick = message.tick;
    tick.price = object["price"].get<double>();
    if (!std::isfinite(tick.price) || tick.price <= 0)
        return refuse(BadMessage::BadPrice, "field 'price': " + shown(object["price"]) + " is not finite and positive");
    if (object.contains("size")) {
        if (!object["size"].is_number())
            return refuse(BadMessage::BadSize, "field 'size': " + shown(object["size"]) + " is not a number");
        tick.size = object["size"].get<double>();
        if (!std::isfinite(tick.size) || tick.size < 0)
            return refuse(BadMessage::BadSize, "field 'size': " + shown(object["size"]) + " is negative or not finite");
    }
    // An empty sector is no sector (as before names were checked): the tick stays good.
    if (object.contains("sector") && object["sector"] != "") {
        if (!isName(object["sector"]))
            return refuse(BadMessage::MissingField, "field 'sector': " + shown(object["sector"]) + " is not a name");
        tick.sector = object["sector"].get<std::string>();
    }
    tick.seq = seq.get<std::int64_t>();
    tick.symbol = object["symbol"].get<std::string>();
    tick.exchangeMicros = object["ts"].get<std::int64_t>();
    message.kind = FeedMessage::Kind::Tick;
    ParsedMessage out;
    out.message = std::move(message);
    return out;
}

}  // namespace

const char* describe(BadMessage reason)
{
    switch (reason) {
    case BadMessage::NotJson: return "malformed JSON";
    case BadMessage::UnknownType: return "unknown message type";
    case BadMessage::MissingField: return "missing or mistyped field";
    case BadMessage::UnknownField: return "unknown field";
    case BadMessage::BadPrice: return "price not finite and positive";
    case BadMessage::BadSize: return "size negative or not finite";
    case BadMessage::BadSequence: return "sequence number not a positive integer";
    }
    return "bad message";
}

ParsedMessage parseServerMessage(std::string_view text)
{
    const json object = json::parse(text, nullptr, /*allow_exceptions=*/false);
    if (object.is_discarded() || !object.is_object())
        return refuse(BadMessage::NotJson, "not a JSON object: '" + std::string(text.substr(0, 60)) + "'");
    const auto type = object.find("type");
    if (type == object.end() || !type->is_string()) return refuse(BadMessage::UnknownType, "no \"type\"");
    const std::string& kind = type->get_ref<const std::string&>();
    if (kind == "tick") return parseTick(object);
    FeedMessage message;
    if (kind == "hello") {
        if (!object.contains("stream") || !object["stream"].is_string() || !object.contains("symbols") ||
            !object["symbols"].is_number_integer())
            return refuse(BadMessage::MissingField, "hello without 'stream' and 'symbols'");
        message.kind = FeedMessage::Kind::Hello;
        message.text = object["stream"].get<std::string>();
        message.symbols = object["symbols"].get<std::int64_t>();
    } else if (kind == "error") {
        if (!object.contains("message") || !object["message"].is_string())
            return refuse(BadMessage::MissingField, "error without 'message'");
        message.kind = FeedMessage::Kind::Error;
        message.text = object["message"].get<std::string>();
    } else {
        return refuse(BadMessage::UnknownType, "type '" + kind + "'");
    }
    ParsedMessage out;
    out.message = std::move(message);
    return out;
}

std::optional<Subscribe> parseSubscribe(std::string_view text, std::string* problem)
{
    auto fail = [&](const std::string& why) -> std::optional<Subscribe> {
        if (problem) *problem = why;
        return std::nullopt;
    };
    const json object = json::parse(text, nullptr, false);
    if (object.is_discarded() || !object.is_object()) return fail("the first message is not a JSON object");
    // json::value would throw for a "type" that is not text: compare only a string.
    const auto type = object.find("type");
    if (type == object.end() || !type->is_string() || type->get_ref<const std::string&>() != "subscribe")
        return fail("the first message must be a subscribe");
    if (const std::string extra = unknownField(object, {"type", "symbols", "token"}); !extra.empty())
        return fail("subscribe has a field '" + extra + "' the format does not have");
    Subscribe request;
    if (object.contains("token")) {
        if (!object["token"].is_string()) return fail("subscribe's 'token' is not text");
        request.token = object["token"].get<std::string>();
    }
    const json symbols = object.value("symbols", json("*"));
    if (symbols.is_string() && symbols.get<std::string>() == "*") return request;
    if (!symbols.is_array() || symbols.empty()) return fail("subscribe's 'symbols' is neither \"*\" nor a list of names");
    request.all = false;
    for (const auto& symbol : symbols) {
        if (!symbol.is_string()) return fail("subscribe's 'symbols' holds " + shown(symbol) + ", not a name");
        request.symbols.push_back(symbol.get<std::string>());
    }
    return request;
}

std::string tickMessage(const FeedTick& tick)
{
    json object{{"type", "tick"}, {"seq", tick.seq}, {"symbol", tick.symbol}, {"price", tick.price},
                {"size", tick.size}, {"ts", tick.exchangeMicros}};
    if (!tick.sector.empty()) object["sector"] = tick.sector;
    return shown(object);
}

std::string helloMessage(const std::string& stream, std::int64_t symbols, const std::string& speed)
{
    return shown(json{{"type", "hello"}, {"stream", stream}, {"symbols", symbols}, {"speed", speed}});
}

std::string errorMessage(const std::string& message)
{
    return shown(json{{"type", "error"}, {"message", message}});
}

std::string subscribeMessage(const Subscribe& request)
{
    json object{{"type", "subscribe"}};
    object["symbols"] = request.all ? json("*") : json(request.symbols);
    if (!request.token.empty()) object["token"] = request.token;
    return shown(object);
}

SequenceChecker::Verdict SequenceChecker::check(std::int64_t seq, std::int64_t* missing)
{
    if (missing) *missing = 0;
    if (m_last == 0) {
        m_last = seq;
        // A stream joined late starts above 1: what came before was never ours to miss.
        return Verdict::First;
    }
    if (seq == m_last) return Verdict::Duplicate;
    if (seq < m_last) return Verdict::OutOfOrder;
    const std::int64_t skipped = seq - m_last - 1;
    m_last = seq;
    if (skipped == 0) return Verdict::Next;
    if (missing) *missing = skipped;
    return Verdict::Gap;
}

}  // namespace clusterdesk::stream
