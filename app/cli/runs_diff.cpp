#include "runs_diff.h"

#include "runs_view.h"

#include "engine/core/printable.h"

#include "engine/cluster/cluster_codec.h"
#include "engine/cluster/metrics.h"
#include "engine/session/run_record.h"

#include <cstdio>
#include <set>

namespace clusterdesk::cli {
namespace {

// Floating-point values at 6 significant digits (a difference in the 17th is noise to
// a reader; the stored value keeps them all), inside arrays and objects too.
std::string show(const nlohmann::json& value)
{
    if (value.is_null()) return "(none)";
    if (value.is_string()) return value.get<std::string>();
    if (value.is_number_float()) {
        char text[32];
        std::snprintf(text, sizeof text, "%.6g", value.get<double>());
        return text;
    }
    if (value.is_array() || value.is_object()) {
        std::string text = value.is_array() ? "[" : "{";
        for (auto it = value.begin(); it != value.end(); ++it) {
            if (it != value.begin()) text += ", ";
            if (value.is_object()) text += it.key() + ": ";
            text += show(*it);
        }
        return text + (value.is_array() ? "]" : "}");
    }
    return value.dump();
}

// A value as one cell: printable, and cut where it would drown the other rows (a
// growth log or a history runs to thousands of characters), saying how much is left.
std::string cell(const nlohmann::json& value)
{
    constexpr std::size_t kLongest = 160;
    std::string text = show(value);
    if (text.size() <= kLongest) return printable(text);
    // Cut before escaping, and at a character's start, so no escape or UTF-8 sequence is split.
    std::size_t cut = kLongest;
    while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
    return printable(text.substr(0, cut)) + "... (" + std::to_string(text.size() - cut) + " more bytes)";
}

std::string padded(std::string text, std::size_t width)
{
    if (text.size() < width) text.append(width - text.size(), ' ');
    return text;
}

// One line per key whose values differ, keys in sorted order; objects on both sides
// are compared key by key ("growth.summary"), so a line shows what changed.
void diffObjects(std::string& text, const std::string& section, const std::string& prefix, const nlohmann::json& a,
                 const nlohmann::json& b, int& differences)
{
    std::set<std::string> keys;
    for (const auto& [key, value] : a.items()) keys.insert(key);
    for (const auto& [key, value] : b.items()) keys.insert(key);
    for (const std::string& key : keys) {
        const nlohmann::json va = a.contains(key) ? a[key] : nlohmann::json();
        const nlohmann::json vb = b.contains(key) ? b[key] : nlohmann::json();
        if (va == vb) continue;
        if (va.is_object() && vb.is_object()) {
            diffObjects(text, section, prefix + key + ".", va, vb, differences);
            continue;
        }
        ++differences;
        text += "  " + padded(section, 10) + ' ' + padded(printable(prefix + key), 22) + ' ' + padded(cell(va), 30) + ' ' + cell(vb) + '\n';
    }
}

}  // namespace

std::string runDiffText(const store::RunRecord& a, const store::RunRecord& b)
{
    std::string text = "run A  " + a.info.id + "  (" + printable(a.info.startedAt) + ")\nrun B  " + b.info.id + "  (" +
                       printable(b.info.startedAt) + ")\n";
    nlohmann::json ja = runInfoJson(a.info);
    nlohmann::json jb = runInfoJson(b.info);
    int differences = 0;
    char header[256];
    std::snprintf(header, sizeof header, "  %-10s %-22s %-30s %s\n", "", "", "A", "B");
    text += header;
    nlohmann::json runA, runB;
    for (const char* key : {"status", "failure", "dataset_hash", "dataset_source", "topology", "threads", "backend", "devices",
                            "engine_version", "git_commit", "host", "energy_j", "energy_source"}) {
        if (ja.contains(key)) runA[key] = ja[key];
        if (jb.contains(key)) runB[key] = jb[key];
    }
    diffObjects(text, "run", "", runA, runB, differences);
    diffObjects(text, "params", "", codec::paramsThatApplied(ja["params"]), codec::paramsThatApplied(jb["params"]), differences);
    diffObjects(text, "metrics", "", ja["metrics"], jb["metrics"], differences);
    if (differences == 0) text += "  (parameters, topology and metrics are the same)\n";
    if (const std::string why = session::whyLabelsNotComparable(a, b); !why.empty()) {
        text += "labels    not compared: " + printable(why) + '\n';
    } else {
        char line[128];
        std::snprintf(line, sizeof line, "labels    ARI %.6f%s\n", adjustedRandIndex(a.labels, b.labels),
                      a.labels == b.labels ? " (identical, bit for bit)" : "");
        text += line;
    }
    return text;
}

}  // namespace clusterdesk::cli
