#include "placement.h"

#include "engine/core/error.h"
#include "engine/telemetry/estimated_power_source.h"

#include <algorithm>
#include <fstream>
#include <thread>

namespace clusterdesk::whatif {
namespace {

int positiveCount(const std::string& text, const std::string& what, const std::string& spelling)
{
    std::size_t used = 0;
    int value = 0;
    try {
        value = std::stoi(text, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    if (used != text.size() || value < 1 || value > 100000)
        throw UsageError("topology '" + spelling + "': " + what + " must be a whole number from 1 to 100000 (got '" + text + "')");
    return value;
}

// The first processor's clock and vector width from cpuinfo.
void readCpuinfo(LocalMachine& machine)
{
    std::ifstream in("/proc/cpuinfo");
    std::string line;
    bool avx512 = false, fma = false;
    while (std::getline(in, line)) {
        if (machine.mhz == 0 && line.rfind("cpu MHz", 0) == 0) {
            const auto colon = line.find(':');
            if (colon != std::string::npos) machine.mhz = std::atof(line.c_str() + colon + 1);
        } else if (line.rfind("flags", 0) == 0) {
            avx512 = line.find(" avx512f") != std::string::npos;
            fma = line.find(" fma") != std::string::npos && line.find(" avx2") != std::string::npos;
            break;
        }
    }
    machine.fp32PerCycle = avx512 ? 64 : fma ? 32 : 16;
}

Placement placeModeled(const std::string& spelling, const HardwareCatalog& catalog)
{
    // model:DEVICE[xN][:key=value...]
    std::string rest = spelling.substr(6);
    std::string head = rest.substr(0, rest.find(':'));
    std::string options = head.size() < rest.size() ? rest.substr(head.size() + 1) : "";
    Placement p;
    p.spelling = spelling;
    int count = 1;
    const auto x = head.rfind('x');
    if (x != std::string::npos && x + 1 < head.size() && std::isdigit(static_cast<unsigned char>(head[x + 1]))) {
        count = positiveCount(head.substr(x + 1), "the device count", spelling);
        head = head.substr(0, x);
    }
    if (head.empty()) throw UsageError("topology '" + spelling + "': name a catalog device, e.g. model:h200x8");
    p.device = catalog.device(head);
    if (count > p.device.perNode)
        throw UsageError("topology '" + spelling + "': a node holds at most " + std::to_string(p.device.perNode) + " " + p.device.id +
                         " (the catalog's per_node for " + p.device.name + ")");
    std::string intra = p.device.intraLink, inter = catalog.internodeLink;
    while (!options.empty()) {
        const std::string option = options.substr(0, options.find(':'));
        options = option.size() < options.size() ? options.substr(option.size() + 1) : "";
        const auto eq = option.find('=');
        const std::string key = option.substr(0, eq), value = eq == std::string::npos ? "" : option.substr(eq + 1);
        if (key == "nodes") p.nodes = positiveCount(value, "nodes", spelling);
        else if (key == "link") intra = value;
        else if (key == "net") inter = value;
        else throw UsageError("topology '" + spelling + "': unknown option '" + option + "' (nodes=N, link=LINK, net=LINK)");
    }
    p.intra = catalog.link(intra);
    p.inter = catalog.link(inter);
    p.host = catalog.link(p.device.hostLink);
    p.deviceCount = count * p.nodes;
    if (p.device.isGpu()) {
        p.shards = p.deviceCount;
        p.comm = p.shards > 1 ? "nccl" : "none";
    } else {
        // One shard per socket, every core of it computing.
        p.shards = p.deviceCount;
        p.coresPerShard = p.device.cores;
        p.comm = p.shards > 1 ? "mpi" : "none";
    }
    return p;
}

Placement placeLocal(const std::string& spelling, const HardwareCatalog& catalog, const LocalMachine& machine)
{
    Placement p;
    p.spelling = spelling;
    p.measurable = true;
    const TopologyWithThreads spelled = splitThreads(spelling);
    p.topology = parseTopology(spelled.topology);
    p.threads = spelled.threads;
    if (p.topology.onGpus())
        throw UsageError("topology '" + spelling + "': GPU topologies are measured where a GPU is present; model them here as model:DEVICExN");
    if (!p.topology.hostfile.empty())
        throw UsageError("topology '" + spelling + "': a hostfile pool's nodes are not in the catalog; model them as model:DEVICExN:nodes=M");
    p.device = localCpuDevice(machine, catalog);
    p.shards = p.topology.shardCount();
    const int total = p.threads > 0 ? p.threads : machine.cores;
    const int used = p.shards * std::max(1, total / p.shards);  // each shard gets at least one thread
    p.coresPerShard = static_cast<double>(std::min(used, machine.cores)) / p.shards;
    const bool pool = p.topology.isPool();
    p.comm = p.shards == 1 ? "none" : pool ? "mpi" : "threads";
    p.intra = catalog.link(pool ? "loopback" : "threads");
    p.inter = p.intra;
    p.host = p.intra;
    return p;
}

}  // namespace

LocalMachine describeLocalMachine()
{
    LocalMachine machine;
    machine.cpuModel = cpuModelName();
    machine.cores = std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
    readCpuinfo(machine);
    return machine;
}

DeviceSpec localCpuDevice(const LocalMachine& machine, const HardwareCatalog& catalog)
{
    DeviceSpec d;
    if (const DeviceSpec* known = catalog.cpuMatching(machine.cpuModel)) {
        // The share of the socket this machine may use.
        d = *known;
        const double share = static_cast<double>(machine.cores) / std::max(known->threads, 1);
        // A visible hardware thread counts as a core: what VMs hand out.
        d.fp32Tflops = known->fp32Tflops * machine.cores / std::max(known->cores, 1);
        d.memoryGBs = known->memoryGBs * std::min(1.0, share);
        d.tdpW = known->tdpW * share;
        d.idleW = known->idleW * share;
        d.usdPerHour = known->usdPerHour * share;
    } else {
        d.name = machine.cpuModel.empty() ? "this machine's CPU" : machine.cpuModel;
        d.kind = "cpu";
        const double ghz = machine.mhz > 0 ? machine.mhz / 1000 : 2.0;
        d.fp32Tflops = machine.cores * ghz * machine.fp32PerCycle / 1000;
        d.memoryGBs = catalog.memoryGBsPerCore * machine.cores;
        d.tdpW = catalog.wattsPerThread * machine.cores;
        d.idleW = catalog.idleFraction * d.tdpW;
        d.source = "described from /proc/cpuinfo: " + std::to_string(machine.cores) + " cores x " + std::to_string(ghz).substr(0, 4) +
                   " GHz x " + std::to_string(machine.fp32PerCycle) + " FP32 FLOPs per cycle";
    }
    d.id = "local";
    d.cores = machine.cores;
    d.threads = machine.cores;
    d.perNode = 1;
    d.intraLink = d.hostLink = "threads";
    return d;
}

Placement placeTopology(const std::string& spelling, const HardwareCatalog& catalog, const LocalMachine& machine)
{
    if (spelling.rfind("model:", 0) == 0) return placeModeled(spelling, catalog);
    return placeLocal(spelling, catalog, machine);
}

}  // namespace clusterdesk::whatif
