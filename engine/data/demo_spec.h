// Parsing demo specs "NAME[:key=value,...]" with typed, range-checked lookups.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace clusterdesk::data {

class DemoSpec {
public:
    // Splits name and key=value pairs; UsageError for malformed text or a repeated key.
    // checkOnly: the demo validates its keys and stops before generating anything
    // (describing a demo must not cost generating it).
    explicit DemoSpec(const std::string& spec, bool checkOnly = false);

    bool checkOnly() const { return m_checkOnly; }

    const std::string& name() const { return m_name; }

    // Value of key (or its default), UsageError when it does not parse or is out of range.
    std::int64_t integer(const std::string& key, std::int64_t fallback, std::int64_t min, std::int64_t max);
    std::uint64_t seed(const std::string& key, std::uint64_t fallback);
    double real(const std::string& key, double fallback, double min, double max);

    // UsageError naming any key that no lookup asked for.
    void finish() const;

    // NAME:key=value,... with every looked-up key, in lookup order: the canonical spec.
    std::string canonical() const;

private:
    std::string m_name;
    bool m_checkOnly = false;
    std::map<std::string, std::string> m_given;
    std::vector<std::pair<std::string, std::string>> m_used;
};

}  // namespace clusterdesk::data
