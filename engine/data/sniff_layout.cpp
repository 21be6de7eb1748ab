// sniffLayout (declared in load.h): decides the layout from the first lines of a file.
#include "load.h"

#include "csv_reader.h"
#include "engine/core/error.h"
#include "file_bytes.h"
#include "npy_loader.h"
#include "prices_loader.h"
#include "text_cells.h"
#include "ticks_loader.h"

namespace clusterdesk {

Layout sniffLayout(const std::string& path)
{
    constexpr std::size_t kPrefix = (1u << 20) + 4096;  // a maximal line and then some
    std::string prefix = data::readFilePrefix(path, kPrefix);
    if (data::hasNpyMagic(prefix)) return Layout::Matrix;
    if (prefix.empty()) throw DataError(path, 1, 1, "empty file");
    if (prefix.size() == kPrefix) {
        // Cut at the last complete line so a split character or record is not mistaken for bad input.
        const std::size_t nl = prefix.rfind('\n');
        if (nl != std::string::npos) {
            prefix.resize(nl + 1);
        } else {
            // One giant line: drop a possibly split trailing character so the reader
            // reports the line length, not a false UTF-8 error.
            for (int i = 0; i < 3 && !prefix.empty() && static_cast<unsigned char>(prefix.back()) >= 0x80; ++i)
                prefix.pop_back();
        }
    }
    data::CsvReader reader(path, std::move(prefix));
    data::CsvRecord first, second;
    if (!reader.next(first)) throw DataError(path, reader.line(), 1, "empty file: only blank lines");
    const bool hasSecond = reader.next(second);

    std::vector<std::string> names;
    for (const auto& field : first.fields) names.push_back(data::lowerTrimmed(field.text));
    if (data::isTicksHeader(names)) return Layout::Ticks;
    if (data::isTimeHeader(names.front())) return Layout::Prices;
    // A header over asset names, then rows starting with an ISO date.
    bool header = first.size() > 1;
    for (std::size_t c = 1; c < first.size(); ++c) header = header && !data::parseDouble(first[c].text);
    if (header && hasSecond && second.size() > 0 && data::parseIsoTimestamp(second[0].text)) return Layout::Prices;
    return Layout::Matrix;
}

}  // namespace clusterdesk
