#include "source_options.h"

#include "engine/core/error.h"
#include "text_cells.h"

#include <charconv>
#include <cmath>

namespace clusterdesk::data {
namespace {

const std::string& rawValue(const SourceSpec& spec, const std::string& name)
{
    const auto it = spec.options.find(name);
    if (it == spec.options.end())
        throw Error("data source '" + spec.source + "': option '" + name + "' missing from a completed spec (internal)");
    return it->second;
}

}  // namespace

std::string realText(double value)
{
    char buffer[32];
    const auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, value);
    return std::string(buffer, ec == std::errc{} ? end : buffer);
}

SourceOption integerOption(std::string name, std::string description, std::int64_t defaultValue, std::int64_t min,
                           std::int64_t max)
{
    auto canonical = [name, min, max](const std::string& text) {
        std::int64_t value = 0;
        const char* begin = text.data() + (text.starts_with('+') ? 1 : 0);  // as parseInt32 allows
        const char* end = text.data() + text.size();
        const auto [ptr, ec] = std::from_chars(begin, end, value);
        if (begin == end || ec != std::errc{} || ptr != end)
            throw UsageError("option " + name + " must be an integer, not '" + excerpt(text) + "'");
        if (value < min || value > max) {
            throw UsageError("option " + name + " must be in [" + std::to_string(min) + ", " + std::to_string(max) +
                             "], got " + text);
        }
        return std::to_string(value);
    };
    return {std::move(name), std::move(description), std::to_string(defaultValue), std::move(canonical)};
}

SourceOption realOption(std::string name, std::string description, double defaultValue, double min, double max)
{
    auto canonical = [name, min, max](const std::string& text) {
        const auto value = parseDouble(text);
        if (!value || !std::isfinite(*value))
            throw UsageError("option " + name + " must be a finite number, not '" + excerpt(text) + "'");
        if (*value < min || *value > max) {
            throw UsageError("option " + name + " must be in [" + realText(min) + ", " + realText(max) +
                             "], got " + text);
        }
        return realText(*value);
    };
    return {std::move(name), std::move(description), realText(defaultValue), std::move(canonical)};
}

SourceOption textOption(std::string name, std::string description, std::string defaultValue)
{
    return {std::move(name), std::move(description), std::move(defaultValue), [](const std::string& t) { return t; }};
}

std::int64_t integerValue(const SourceSpec& spec, const std::string& name)
{
    return std::stoll(rawValue(spec, name));
}

double realValue(const SourceSpec& spec, const std::string& name)
{
    return *parseDouble(rawValue(spec, name));
}

const std::string& textValue(const SourceSpec& spec, const std::string& name)
{
    return rawValue(spec, name);
}

}  // namespace clusterdesk::data
