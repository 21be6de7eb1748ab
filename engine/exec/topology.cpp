#include "topology.h"

#include "../core/error.h"

#include <charconv>

namespace clusterdesk {
namespace {

int parseCount(const std::string& text, const std::string& spec, int max)
{
    int value = -1;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size() || value < 0 || value > max)
        throw UsageError("bad topology '" + spec + "': '" + text + "' is not a number from 0 to " + std::to_string(max));
    return value;
}

}  // namespace

Topology parseTopology(const std::string& spec)
{
    constexpr int kMaxShards = 1024;
    Topology topology{spec, {}};
    if (spec == "host") {
        topology.shards = {"host"};
    } else if (spec.rfind("shards:", 0) == 0) {
        const int n = parseCount(spec.substr(7), spec, kMaxShards);
        if (n < 1) throw UsageError("bad topology '" + spec + "': at least one shard is needed");
        topology.shards.assign(static_cast<std::size_t>(n), "host");
    } else if (spec == "cuda") {
        topology.spec = "cuda:0";
        topology.shards = {"cuda:0"};
    } else if (spec.rfind("cuda:", 0) == 0) {
        std::string list = spec.substr(5);
        std::size_t start = 0;
        while (start <= list.size()) {
            const std::size_t comma = list.find(',', start);
            const std::string item = list.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
            const int device = parseCount(item, spec, kMaxShards);
            const std::string name = "cuda:" + std::to_string(device);
            for (const std::string& existing : topology.shards)
                if (existing == name) throw UsageError("bad topology '" + spec + "': GPU " + item + " is listed twice");
            topology.shards.push_back(name);
            if (comma == std::string::npos) break;
            start = comma + 1;
        }
    } else {
        throw UsageError("unknown topology '" + spec + "' (expected host, shards:N, cuda or cuda:0,1,...)");
    }
    return topology;
}

}  // namespace clusterdesk
