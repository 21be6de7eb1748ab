// Where a what-if topology puts a job: on this machine through an executor (host@T,
// shards:N, pool:N, cuda:...), or on catalog hardware it can only be modeled on
// (model:DEVICE[xN][:nodes=M][:link=L][:net=L]). Both become the same description:
// the device each shard computes on, how many shards and nodes, and the links
// between them, which is all the performance model reads.
//
//   host@1          the host topology with one thread (any executor spelling takes @THREADS)
//   model:h200x8    eight H200 in one node over the catalog's intra-node link (NVLink 4)
//   model:h200x8:nodes=4:net=100gbe   four such nodes over 100 GbE
//   model:epyc-9654x2   a two-socket server, every core in use
#pragma once

#include "engine/catalog/hardware_catalog.h"
#include "engine/exec/topology.h"

#include <string>

namespace clusterdesk::whatif {

// This machine as the model sees it.
struct LocalMachine {
    std::string cpuModel;   // /proc/cpuinfo's model name
    int cores = 1;          // hardware threads this process may use
    double mhz = 0;         // the first processor's clock, 0 when unknown
    int fp32PerCycle = 16;  // FP32 FLOPs per core per cycle: 64 with AVX-512, 32 with AVX2/FMA
};

LocalMachine describeLocalMachine();

// This machine's CPU as a catalog device covering the cores it may use: the catalog's
// entry scaled to those cores when one matches, else one described from cpuinfo
// (clock x vector width, the catalog's default bandwidth per core).
DeviceSpec localCpuDevice(const LocalMachine& machine, const HardwareCatalog& catalog);

struct Placement {
    std::string spelling;       // as given
    bool measurable = false;    // runs here through an executor
    Topology topology;          // measurable ones
    int threads = 0;            // measurable ones: host threads in all (0 = every core)
    DeviceSpec device;          // what each shard computes on
    int deviceCount = 1;        // GPUs, or CPU sockets (modeled); 1 for this machine's CPU
    int shards = 1;             // shards the rows are split over
    int nodes = 1;
    double coresPerShard = 1;   // CPU shards: cores each computes on (below 1 when oversubscribed)
    LinkSpec intra;             // between shards of a node
    LinkSpec inter;             // between nodes (nodes > 1)
    LinkSpec host;              // GPUs: to their host
    std::string comm = "none";  // "none", "threads", "mpi", "nccl"

    bool onGpus() const { return device.isGpu(); }
};

// Throws UsageError naming the spelling and what is wrong: an unknown device or link
// (with the known ones), more devices than a node of that kind holds, a bad count.
Placement placeTopology(const std::string& spelling, const HardwareCatalog& catalog, const LocalMachine& machine);

}  // namespace clusterdesk::whatif
