// Building blocks for the options sources declare (SourceOption), and reading them
// back from a spec whose options are complete and canonical.
#pragma once

#include "data_source.h"

#include <cstdint>
#include <string>

namespace clusterdesk::data {

// An integer in [min, max]; canonical text is its decimal form.
SourceOption integerOption(std::string name, std::string description, std::int64_t defaultValue, std::int64_t min,
                           std::int64_t max);
// A real number in [min, max]; canonical text is the shortest that reads back the same.
SourceOption realOption(std::string name, std::string description, double defaultValue, double min, double max);
// Any text (empty allowed); canonical text is the value itself.
SourceOption textOption(std::string name, std::string description, std::string defaultValue);

// The canonical text of a real option's value: the shortest that reads back the same.
std::string realText(double value);

// The canonical value of an option the source declared. Throws Error (internal) when
// the spec lacks it: openSource completes every spec before a source sees it.
std::int64_t integerValue(const SourceSpec& spec, const std::string& name);
double realValue(const SourceSpec& spec, const std::string& name);
const std::string& textValue(const SourceSpec& spec, const std::string& name);

}  // namespace clusterdesk::data
