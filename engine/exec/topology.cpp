#include "topology.h"

#include "../core/error.h"
#include "../data/file_bytes.h"

#include <algorithm>
#include <charconv>
#include <sstream>

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

// Total slots of an OpenMPI hostfile: "host [slots=N] [max_slots=M]" per line, '#'
// comments; a host without slots= counts one slot per line.
int hostfileSlots(const std::string& path, const std::string& spec)
{
    std::string text;
    try {
        text = data::readFileBytes(path);  // refuses a FIFO or /dev/zero before it can block or run on
    } catch (const DataError& e) {
        throw UsageError("bad topology '" + spec + "': cannot read hostfile " + e.what());
    }
    std::istringstream in(text);
    long long total = 0;
    std::string line;
    int lineNo = 0;
    while (std::getline(in, line)) {
        ++lineNo;
        if (const auto hash = line.find('#'); hash != std::string::npos) line.erase(hash);
        std::istringstream words(line);
        std::string host, word;
        if (!(words >> host)) continue;
        int slots = 1;
        while (words >> word) {
            if (word.rfind("slots=", 0) == 0) {
                slots = parseCount(word.substr(6), spec, 1 << 20);
                if (slots < 1) throw UsageError(path + ":" + std::to_string(lineNo) + ": slots must be at least 1");
            }
        }
        total += slots;
        if (total > (1 << 20)) break;
    }
    if (total == 0) throw UsageError("bad topology '" + spec + "': hostfile " + path + " lists no hosts");
    return static_cast<int>(std::min<long long>(total, 1 << 20));
}

}  // namespace

Topology parseTopology(const std::string& spec)
{
    constexpr int kMaxShards = 1024;
    Topology topology;
    topology.spec = spec;
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
            // A GPU may be listed more than once: several shards on one device, which
            // is how a one-GPU machine exercises the multi-shard path.
            topology.shards.push_back("cuda:" + std::to_string(device));
            if (comma == std::string::npos) break;
            start = comma + 1;
        }
        topology.spec = "cuda:";
        for (std::size_t i = 0; i < topology.shards.size(); ++i)
            topology.spec += (i ? "," : "") + topology.shards[i].substr(5);
    } else if (spec.rfind("pool:", 0) == 0) {
        std::string rest = spec.substr(5);
        std::string rankBackend = "host";
        for (const char* backend : {"host", "cuda"}) {
            const std::string suffix = std::string(":") + backend;
            if (rest.size() > suffix.size() && rest.compare(rest.size() - suffix.size(), suffix.size(), suffix) == 0) {
                rankBackend = backend;
                rest.erase(rest.size() - suffix.size());
            }
        }
        if (rest.empty()) throw UsageError("bad topology '" + spec + "': give a rank count or a hostfile after pool:");
        const bool count = rest.find_first_not_of("0123456789") == std::string::npos;
        const int ranks = count ? parseCount(rest, spec, kMaxShards) : hostfileSlots(rest, spec);
        if (ranks < 1) throw UsageError("bad topology '" + spec + "': at least one rank is needed");
        if (ranks > kMaxShards) throw UsageError("bad topology '" + spec + "': more than " + std::to_string(kMaxShards) + " ranks");
        topology.pool = true;
        if (!count) topology.hostfile = rest;
        topology.shards.assign(static_cast<std::size_t>(ranks), rankBackend);
    } else {
        throw UsageError("unknown topology '" + spec + "' (expected host, shards:N, cuda, cuda:0,1,..., pool:N or pool:HOSTFILE, optionally with :cuda)");
    }
    return topology;
}

}  // namespace clusterdesk
