#include "demo_spec.h"

#include "engine/core/error.h"
#include "source_options.h"

#include <charconv>
#include <cmath>
#include <algorithm>

namespace clusterdesk::data {
namespace {

std::string trimmed(const std::string& s)
{
    const auto b = s.find_first_not_of(" \t");
    if (b == std::string::npos) return {};
    const auto e = s.find_last_not_of(" \t");
    return s.substr(b, e - b + 1);
}

}  // namespace

DemoSpec::DemoSpec(const std::string& spec, bool checkOnly)
    : m_checkOnly(checkOnly)
{
    const auto colon = spec.find(':');
    m_name = trimmed(spec.substr(0, colon));
    if (m_name.empty()) throw UsageError("demo spec '" + spec + "' has no name (expected NAME[:key=value,...])");
    if (colon == std::string::npos) return;
    const std::string rest = spec.substr(colon + 1);
    if (trimmed(rest).empty()) return;
    for (std::size_t start = 0; start <= rest.size();) {
        const auto comma = std::min(rest.find(',', start), rest.size());
        const std::string item = trimmed(rest.substr(start, comma - start));
        start = comma + 1;
        if (item.empty()) throw UsageError("demo spec '" + spec + "' has an empty item");
        const auto eq = item.find('=');
        if (eq == std::string::npos) throw UsageError("demo spec '" + spec + "': '" + item + "' is not key=value");
        const std::string key = trimmed(item.substr(0, eq));
        const std::string value = trimmed(item.substr(eq + 1));
        if (key.empty() || value.empty())
            throw UsageError("demo spec '" + spec + "': '" + item + "' needs both a key and a value");
        if (!m_given.emplace(key, value).second)
            throw UsageError("demo '" + m_name + "': key '" + key + "' given twice");
    }
}

std::int64_t DemoSpec::integer(const std::string& key, std::int64_t fallback, std::int64_t min, std::int64_t max)
{
    std::int64_t value = fallback;
    if (const auto it = m_given.find(key); it != m_given.end()) {
        const std::string& text = it->second;
        const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
        if (ec != std::errc() || end != text.data() + text.size())
            throw UsageError("demo '" + m_name + "': " + key + "=" + text + " is not an integer");
    }
    if (value < min || value > max) {
        throw UsageError("demo '" + m_name + "': " + key + "=" + std::to_string(value) + " is out of range [" +
                         std::to_string(min) + ", " + std::to_string(max) + "]");
    }
    m_used.emplace_back(key, std::to_string(value));
    return value;
}

std::uint64_t DemoSpec::seed(const std::string& key, std::uint64_t fallback)
{
    std::uint64_t value = fallback;
    if (const auto it = m_given.find(key); it != m_given.end()) {
        const std::string& text = it->second;
        const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
        if (ec != std::errc() || end != text.data() + text.size())
            throw UsageError("demo '" + m_name + "': " + key + "=" + text + " is not a non-negative integer");
    }
    m_used.emplace_back(key, std::to_string(value));
    return value;
}

double DemoSpec::real(const std::string& key, double fallback, double min, double max)
{
    double value = fallback;
    std::string shown;
    if (const auto it = m_given.find(key); it != m_given.end()) {
        shown = it->second;
        const auto [end, ec] = std::from_chars(shown.data(), shown.data() + shown.size(), value);
        if (ec != std::errc() || end != shown.data() + shown.size() || !std::isfinite(value))
            throw UsageError("demo '" + m_name + "': " + key + "=" + shown + " is not a number");
    }
    shown = realText(value);
    if (!(value >= min && value <= max)) {
        throw UsageError("demo '" + m_name + "': " + key + "=" + shown + " is out of range [" + std::to_string(min) +
                         ", " + std::to_string(max) + "]");
    }
    m_used.emplace_back(key, shown);
    return value;
}

void DemoSpec::finish() const
{
    for (const auto& [key, value] : m_given) {
        bool known = false;
        for (const auto& used : m_used) known = known || used.first == key;
        if (known) continue;
        std::string keys;
        for (const auto& used : m_used) keys += (keys.empty() ? "" : ", ") + used.first;
        throw UsageError("demo '" + m_name + "': unknown key '" + key + "' (keys: " + keys + ")");
    }
}

std::string DemoSpec::canonical() const
{
    std::string out = m_name;
    for (std::size_t i = 0; i < m_used.size(); ++i) out += (i ? "," : ":") + m_used[i].first + "=" + m_used[i].second;
    return out;
}

}  // namespace clusterdesk::data
