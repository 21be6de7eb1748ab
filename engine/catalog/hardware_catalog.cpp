#include "hardware_catalog.h"

#include "clusterdesk/device_catalog.h"
#include "engine/core/error.h"
#include "engine/core/sha256.h"
#include "engine/core/file_bytes.h"

#include <nlohmann/json.hpp>

#include <cstdlib>
#include <set>

namespace clusterdesk {
namespace {

using nlohmann::json;

// Reads the fields of one catalog entry; every complaint names the entry.
class EntryReader {
public:
    EntryReader(const json& entry, std::string name, const std::string& where) : m_entry(entry), m_name(std::move(name)), m_where(where)
    {
        if (!entry.is_object()) fail("is not an object");
    }

    std::string text(const char* field, bool required = true) const
    {
        const auto it = m_entry.find(field);
        if (it == m_entry.end()) {
            if (required) fail(std::string("has no '") + field + "'");
            return {};
        }
        if (!it->is_string()) fail(std::string("'") + field + "' is not text");
        return it->get<std::string>();
    }

    double number(const char* field, bool required = true) const
    {
        const auto it = m_entry.find(field);
        if (it == m_entry.end()) {
            if (required) fail(std::string("has no '") + field + "'");
            return 0;
        }
        if (!it->is_number()) fail(std::string("'") + field + "' is not a number");
        const double value = it->get<double>();
        if (!(value >= 0) || value > 1e12) fail(std::string("'") + field + "' must be a finite number >= 0 (got " + it->dump() + ")");
        return value;
    }

    int count(const char* field, bool required = true) const
    {
        const double value = number(field, required);
        if (value != static_cast<double>(static_cast<int>(value)) || value > 1e6)
            fail(std::string("'") + field + "' must be a whole number (got " + m_entry.at(field).dump() + ")");
        return static_cast<int>(value);
    }

    [[noreturn]] void fail(const std::string& what) const { throw DataError(m_where, 0, 0, m_name + " " + what); }

private:
    const json& m_entry;
    std::string m_name;
    const std::string& m_where;
};

std::string entryName(const char* list, std::size_t index, const json& entry)
{
    std::string name = std::string(list) + "[" + std::to_string(index) + "]";
    if (entry.is_object() && entry.contains("id") && entry["id"].is_string()) name += " '" + entry["id"].get<std::string>() + "'";
    return name;
}

DeviceSpec readDevice(const EntryReader& in)
{
    DeviceSpec d;
    d.id = in.text("id");
    if (d.id.empty()) in.fail("has an empty 'id'");
    d.name = in.text("name");
    d.kind = in.text("kind");
    if (d.kind != "cpu" && d.kind != "gpu") in.fail("'kind' must be \"cpu\" or \"gpu\" (got \"" + d.kind + "\")");
    d.match = in.text("match", false);
    d.fp32Tflops = in.number("fp32_tflops");
    if (d.fp32Tflops <= 0) in.fail("'fp32_tflops' must be above 0");
    d.tf32Tflops = in.number("tf32_tflops", d.isGpu());
    d.bf16Tflops = in.number("bf16_tflops", d.isGpu());
    if (!d.isGpu()) {
        d.cores = in.count("cores");
        d.threads = in.count("threads");
        if (d.cores < 1) in.fail("'cores' must be at least 1");
    }
    d.memoryGiB = in.number("memory_gib");
    d.memoryGBs = in.number("memory_gbps");
    if (d.memoryGBs <= 0) in.fail("'memory_gbps' must be above 0");
    d.tdpW = in.number("tdp_w");
    d.idleW = in.number("idle_w");
    if (d.idleW > d.tdpW) in.fail("'idle_w' is above 'tdp_w'");
    d.perNode = in.count("per_node");
    if (d.perNode < 1) in.fail("'per_node' must be at least 1");
    d.intraLink = in.text("intra_link");
    d.hostLink = in.text("host_link");
    d.usdPerHour = in.number("usd_per_hour");
    d.priceDate = in.text("price_date");
    d.priceSource = in.text("price_source");
    d.source = in.text("source");
    return d;
}

LinkSpec readLink(const EntryReader& in)
{
    LinkSpec l;
    l.id = in.text("id");
    if (l.id.empty()) in.fail("has an empty 'id'");
    l.name = in.text("name");
    l.gbs = in.number("gbps");
    if (l.gbs <= 0) in.fail("'gbps' must be above 0");
    l.latencyUs = in.number("latency_us");
    l.source = in.text("source");
    return l;
}

template <typename T>
std::string knownIds(const std::vector<T>& entries)
{
    std::string ids;
    for (const T& e : entries) ids += (ids.empty() ? "" : ", ") + e.id;
    return ids;
}

}  // namespace

const DeviceSpec& HardwareCatalog::device(const std::string& id) const
{
    for (const DeviceSpec& d : devices)
        if (d.id == id) return d;
    throw UsageError("no device '" + id + "' in the catalog " + where + " (known: " + knownIds(devices) + ")");
}

const LinkSpec& HardwareCatalog::link(const std::string& id) const
{
    for (const LinkSpec& l : links)
        if (l.id == id) return l;
    throw UsageError("no link '" + id + "' in the catalog " + where + " (known: " + knownIds(links) + ")");
}

const DeviceSpec* HardwareCatalog::cpuMatching(const std::string& cpuModel) const
{
    // The longest matching name is the most specific entry ("EPYC 7763" over "EPYC").
    const DeviceSpec* best = nullptr;
    for (const DeviceSpec& d : devices)
        if (!d.isGpu() && !d.match.empty() && cpuModel.find(d.match) != std::string::npos && (!best || d.match.size() > best->match.size()))
            best = &d;
    return best;
}

HardwareCatalog parseHardwareCatalog(const std::string& text, const std::string& where)
{
    json root;
    try {
        root = json::parse(text);
    } catch (const json::parse_error& e) {
        throw DataError(where, 0, 0, std::string("not valid JSON: ") + e.what());
    }
    if (!root.is_object()) throw DataError(where, 0, 0, "the catalog must be a JSON object with \"devices\" and \"links\"");
    HardwareCatalog catalog;
    catalog.where = where;
    catalog.sha256 = sha256Hex(text);
    for (const char* list : {"devices", "links"})
        if (!root.contains(list) || !root[list].is_array()) throw DataError(where, 0, 0, std::string("has no \"") + list + "\" list");
    std::set<std::string> ids;
    for (std::size_t i = 0; i < root["devices"].size(); ++i) {
        const json& entry = root["devices"][i];
        const EntryReader in(entry, entryName("devices", i, entry), where);
        catalog.devices.push_back(readDevice(in));
        if (!ids.insert(catalog.devices.back().id).second) in.fail("repeats an id used before");
    }
    ids.clear();
    for (std::size_t i = 0; i < root["links"].size(); ++i) {
        const json& entry = root["links"][i];
        const EntryReader in(entry, entryName("links", i, entry), where);
        catalog.links.push_back(readLink(in));
        if (!ids.insert(catalog.links.back().id).second) in.fail("repeats an id used before");
    }
    for (std::size_t i = 0; i < catalog.devices.size(); ++i) {
        const DeviceSpec& d = catalog.devices[i];
        for (const std::string* link : {&d.intraLink, &d.hostLink})
            if (!ids.count(*link))
                throw DataError(where, 0, 0, "devices[" + std::to_string(i) + "] '" + d.id + "' names link '" + *link + "', which the catalog does not list");
    }
    const json defaults = root.value("default", json::object());
    const EntryReader in(defaults, "default", where);
    catalog.wattsPerThread = in.number("watts_per_thread");
    catalog.idleFraction = in.number("idle_fraction");
    if (catalog.idleFraction > 1) in.fail("'idle_fraction' must be at most 1");
    catalog.memoryGBsPerCore = in.number("memory_gbps_per_core");
    catalog.internodeLink = in.text("internode_link");
    if (!ids.count(catalog.internodeLink)) in.fail("names link '" + catalog.internodeLink + "', which the catalog does not list");
    return catalog;
}

const HardwareCatalog& builtinCatalog()
{
    static const HardwareCatalog catalog = parseHardwareCatalog(kDeviceCatalogJson, "resources/catalog/devices.json (compiled in)");
    return catalog;
}

const char* builtinCatalogText()
{
    return kDeviceCatalogJson;
}

std::filesystem::path userCatalogPath()
{
    const char* config = std::getenv("XDG_CONFIG_HOME");
    const char* home = std::getenv("HOME");
    const std::filesystem::path base = config && *config ? std::filesystem::path(config)
                                       : home && *home   ? std::filesystem::path(home) / ".config"
                                                         : std::filesystem::path(".");
    return base / "clusterdesk" / "catalog.json";
}

HardwareCatalog loadHardwareCatalog(const std::string& path)
{
    std::filesystem::path file = path;
    if (file.empty()) {
        file = userCatalogPath();
        std::error_code ec;
        if (!std::filesystem::exists(file, ec)) return builtinCatalog();
    }
    return parseHardwareCatalog(readFileBytes(file.string()), file.string());
}

}  // namespace clusterdesk
