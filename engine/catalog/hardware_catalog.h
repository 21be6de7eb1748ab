// The hardware catalog (resources/catalog/devices.json): devices (CPUs and GPUs) with
// their datasheet peaks, memory, power and a dated price, and the links between them.
// The power estimate reads it for CPUs it cannot measure; the what-if model reads it
// for hardware it cannot run on. The compiled-in copy is the default; a user's edited
// copy (userCatalogPath) replaces it where it exists.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace clusterdesk {

struct DeviceSpec {
    std::string id;            // "h200", "epyc-9654": what topologies name
    std::string name;          // "NVIDIA H200 SXM 141 GB"
    std::string kind;          // "cpu" or "gpu"
    std::string match;         // CPUs: a substring of /proc/cpuinfo's model name
    int cores = 0;             // CPUs: physical cores per socket
    int threads = 0;           // CPUs: hardware threads per socket
    double fp32Tflops = 0, tf32Tflops = 0, bf16Tflops = 0;  // dense peaks (tf32/bf16: GPUs)
    double memoryGiB = 0;
    double memoryGBs = 0;      // memory bandwidth, GB/s
    double tdpW = 0, idleW = 0;
    int perNode = 1;           // devices one node holds at most
    std::string intraLink;     // link id between the devices of a node
    std::string hostLink;      // link id to the host (GPUs)
    double usdPerHour = 0;
    std::string priceDate, priceSource, source;

    bool isGpu() const { return kind == "gpu"; }
};

struct LinkSpec {
    std::string id;            // "nvlink4", "ib-ndr"
    std::string name;
    double gbs = 0;            // bandwidth, GB/s each direction
    double latencyUs = 0;
    std::string source;
};

struct HardwareCatalog {
    std::vector<DeviceSpec> devices;
    std::vector<LinkSpec> links;
    double wattsPerThread = 15;       // CPUs not listed
    double idleFraction = 0.3;
    double memoryGBsPerCore = 8;
    std::string internodeLink;        // between nodes unless a topology names one
    std::string where;                // the file it came from, for messages
    std::string sha256;               // of its text: what a comparison records

    // UsageError naming the id and the known ones when there is none.
    const DeviceSpec& device(const std::string& id) const;
    const LinkSpec& link(const std::string& id) const;
    // The CPU entry whose match is the longest substring of `cpuModel`; null when none.
    const DeviceSpec* cpuMatching(const std::string& cpuModel) const;
};

// Throws DataError naming `where` and the entry (by index and id) that is malformed:
// missing or mistyped fields, negative figures, duplicate ids, links that name no link.
HardwareCatalog parseHardwareCatalog(const std::string& json, const std::string& where);

// The compiled-in catalog (parsed once), and its text.
const HardwareCatalog& builtinCatalog();
const char* builtinCatalogText();
// Where the window keeps the user's edited copy: $XDG_CONFIG_HOME/clusterdesk/catalog.json
// (~/.config when unset).
std::filesystem::path userCatalogPath();
// path: that file; empty: the user's copy when it exists, else the compiled-in one.
HardwareCatalog loadHardwareCatalog(const std::string& path = {});

}  // namespace clusterdesk
