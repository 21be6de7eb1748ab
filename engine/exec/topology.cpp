#include "topology.h"

#include "../core/error.h"
#include "engine/core/file_bytes.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <filesystem>
#include <sstream>

namespace clusterdesk {
namespace {

// A count or an index in [min, max]; the message (after `where`) says the range,
// whichever way it fails.
int parseCount(const std::string& text, const std::string& where, int min, int max)
{
    int value = -1;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size() || value < min || value > max)
        throw UsageError(where + ": '" + text + "' is not a number from " + std::to_string(min) + " to " + std::to_string(max));
    return value;
}

std::string badTopology(const std::string& spec)
{
    return "bad topology '" + spec + "'";
}

// Total slots of an OpenMPI hostfile: "host [slots=N] [max_slots=M]" per line, '#'
// comments; a host without slots= counts one slot per line.
int hostfileSlots(const std::string& path, const std::string& spec)
{
    std::string text;
    try {
        text = readFileBytes(path);  // refuses a FIFO or /dev/zero before it can block or run on
    } catch (const DataError& e) {
        throw UsageError(badTopology(spec) + ": cannot read hostfile " + e.what());
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
            if (word.rfind("slots=", 0) == 0) slots = parseCount(word.substr(6), path + ":" + std::to_string(lineNo) + ": slots", 1, 1 << 20);
        }
        total += slots;
        if (total > (1 << 20)) break;
    }
    if (total == 0) throw UsageError(badTopology(spec) + ": hostfile " + path + " lists no hosts");
    return static_cast<int>(std::min<long long>(total, 1 << 20));
}

}  // namespace

int Topology::shardCount() const
{
    switch (kind) {
        case Kind::Host:
        case Kind::Shards: return hostShards;
        case Kind::Cuda: return static_cast<int>(gpus.size());
        case Kind::Pool: return ranks;
    }
    return 0;
}

std::string Topology::shardBackend(int shard) const
{
    if (kind == Kind::Cuda) return "cuda:" + std::to_string(gpus.at(static_cast<std::size_t>(shard)));
    return kind == Kind::Pool && rankGpus ? "cuda" : "host";
}

Topology parseTopology(const std::string& spec)
{
    constexpr int kMaxShards = 1024;
    Topology topology;
    if (spec == "host") {
        topology.kind = Topology::Kind::Host;
    } else if (spec.rfind("shards:", 0) == 0) {
        topology.kind = Topology::Kind::Shards;
        topology.hostShards = parseCount(spec.substr(7), badTopology(spec), 1, kMaxShards);
    } else if (spec == "cuda") {
        topology.kind = Topology::Kind::Cuda;
        topology.gpus = {0};
    } else if (spec.rfind("cuda:", 0) == 0) {
        topology.kind = Topology::Kind::Cuda;
        const std::string list = spec.substr(5);
        std::size_t start = 0;
        while (start <= list.size()) {
            const std::size_t comma = list.find(',', start);
            const std::string item = list.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
            // A GPU may be listed more than once: several shards on one device, which
            // is how a one-GPU machine exercises the multi-shard path.
            topology.gpus.push_back(parseCount(item, badTopology(spec), 0, kMaxShards));
            if (comma == std::string::npos) break;
            start = comma + 1;
        }
    } else if (spec.rfind("pool:", 0) == 0) {
        topology.kind = Topology::Kind::Pool;
        std::string rest = spec.substr(5);
        for (const char* backend : {"host", "cuda"}) {
            const std::string suffix = std::string(":") + backend;
            if (rest.size() > suffix.size() && rest.compare(rest.size() - suffix.size(), suffix.size(), suffix) == 0) {
                topology.rankGpus = std::string(backend) == "cuda";
                rest.erase(rest.size() - suffix.size());
            }
        }
        if (rest.empty()) throw UsageError(badTopology(spec) + ": give a rank count or a hostfile after pool:");
        const bool count = rest.find_first_not_of("0123456789") == std::string::npos;
        topology.ranks = count ? parseCount(rest, badTopology(spec), 1, kMaxShards) : hostfileSlots(rest, spec);
        if (topology.ranks > kMaxShards) throw UsageError(badTopology(spec) + ": more than " + std::to_string(kMaxShards) + " ranks");
        if (!count) topology.hostfile = rest;
    } else {
        throw UsageError("unknown topology '" + spec + "' (expected host, shards:N, cuda, cuda:0,1,..., pool:N or pool:HOSTFILE, optionally with :cuda)");
    }
    return topology;
}

std::string toString(const Topology& topology)
{
    switch (topology.kind) {
        case Topology::Kind::Host: return "host";
        case Topology::Kind::Shards: return "shards:" + std::to_string(topology.hostShards);
        case Topology::Kind::Cuda: {
            std::string spelling = "cuda:";
            for (std::size_t i = 0; i < topology.gpus.size(); ++i) {
                if (i) spelling += ',';
                spelling += std::to_string(topology.gpus[i]);
            }
            return spelling;
        }
        case Topology::Kind::Pool:
            return "pool:" + (topology.hostfile.empty() ? std::to_string(topology.ranks) : topology.hostfile) +
                   (topology.rankGpus ? ":cuda" : "");
    }
    return "host";
}

bool spelledOnGpus(const std::string& topology)
{
    return topology.rfind("cuda", 0) == 0 || topology.find(":cuda") != std::string::npos;
}

std::string spelledWithThreads(const std::string& topology, int threads)
{
    // The what-if measures host, shards and pool topologies at a thread count; GPU ones
    // have none to give.
    return threads > 0 && !spelledOnGpus(topology) ? topology + "@" + std::to_string(threads) : topology;
}

TopologyWithThreads splitThreads(const std::string& spelling)
{
    const std::size_t at = spelling.rfind('@');
    if (at == std::string::npos) return {spelling, 0};
    const std::string count = spelling.substr(at + 1);
    // A hostfile's name may hold an @ of its own (pool:hosts@lab, pool:/data/hosts@2):
    // a pool named by a file that exists as spelled, or by one whose name does not end
    // in digits after its last @, keeps the whole spelling.
    if (spelling.rfind("pool:", 0) == 0) {
        const std::string rest = spelling.substr(5);
        const bool rankCount = !rest.empty() && std::isdigit(static_cast<unsigned char>(rest[0]));
        const bool digits = !count.empty() && std::all_of(count.begin(), count.end(), [](unsigned char c) { return std::isdigit(c); });
        std::error_code ignored;
        if (!rankCount && (!digits || std::filesystem::exists(rest, ignored))) return {spelling, 0};
    }
    const std::string topology = spelling.substr(0, at);
    if (spelledOnGpus(topology)) throw UsageError("topology '" + spelling + "': GPU topologies take no thread count");
    return {topology, parseCount(count, "topology '" + spelling + "': the thread count after @", 1, kMaxThreads)};
}

std::string threadsText(int threads)
{
    if (threads <= 0) return "up to every core";
    return std::to_string(threads) + (threads == 1 ? " thread" : " threads");
}

}  // namespace clusterdesk
