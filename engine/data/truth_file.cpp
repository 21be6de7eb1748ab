#include "truth_file.h"

#include "csv_reader.h"
#include "engine/core/error.h"

#include <algorithm>
#include <map>
#include <unordered_map>

namespace clusterdesk::data {

void attachTruth(Dataset& data, const std::string& path)
{
    if (data.rowNames.size() != static_cast<std::size_t>(data.rows))
        throw DataError(path, 0, 0, "a sector map needs data whose rows are named assets (price or tick data); " + data.source + " has no row names");
    CsvReader reader = CsvReader::fromFile(path);
    CsvRecord record;
    if (!reader.next(record)) throw DataError(path, 0, 0, "empty: expected a header line \"asset,sector\" and one line per asset");
    struct Entry {
        std::int32_t sector;
        std::int64_t line;
    };
    std::unordered_map<std::string, Entry> sectorOf;
    std::map<std::string, std::int32_t> sectorIds;
    std::vector<std::string> sectorNames;
    while (reader.next(record)) {
        if (record.size() != 2)
            reader.fail(record.line, record.size() > 2 ? record[2].column : record.endColumn,
                        "expected 2 fields (asset,sector), found " + std::to_string(record.size()));
        for (std::size_t f = 0; f < 2; ++f)
            if (record[f].text.empty()) reader.fail(record[f], f == 0 ? "empty asset name (field 1, asset)" : "empty sector (field 2, sector)");
        const std::string asset(record[0].text), sector(record[1].text);
        const auto [id, added] = sectorIds.emplace(sector, static_cast<std::int32_t>(sectorIds.size()));
        if (added) sectorNames.push_back(sector);
        const auto [at, fresh] = sectorOf.emplace(asset, Entry{id->second, record.line});
        if (!fresh) reader.fail(record[0], "asset " + asset + " is listed twice (first on line " + std::to_string(at->second.line) + ")");
    }
    std::vector<std::int32_t> truth(data.rowNames.size());
    std::size_t used = 0;
    std::vector<bool> sectorUsed(sectorNames.size(), false);
    for (std::size_t row = 0; row < data.rowNames.size(); ++row) {
        const auto it = sectorOf.find(data.rowNames[row]);
        if (it == sectorOf.end())
            // "Asset", not "row": in a prices file the assets are its columns.
            throw DataError(path, 0, 0, "no sector for asset " + data.rowNames[row] + " (asset " + std::to_string(row + 1) + " of the " +
                                            std::to_string(data.rowNames.size()) + " in " + data.source + ")");
        truth[row] = it->second.sector;
        sectorUsed[static_cast<std::size_t>(it->second.sector)] = true;
        ++used;
    }
    data.truth = std::move(truth);
    const auto sectors = std::count(sectorUsed.begin(), sectorUsed.end(), true);
    std::string note = "truth: " + std::to_string(sectors) + " sectors for the " + std::to_string(used) + " assets, from " + path;
    if (const std::size_t extra = sectorOf.size() - used; extra > 0)
        note += " (which also lists " + std::to_string(extra) + (extra == 1 ? " asset" : " assets") + " not in the data)";
    data.notes.push_back(std::move(note));
}

}  // namespace clusterdesk::data
