#include "row_names.h"

#include "text_cells.h"

#include <string_view>
#include <unordered_map>

namespace clusterdesk::data {

void noteRepeatedRowNames(Dataset& out, const std::string& where)
{
    std::unordered_map<std::string_view, std::size_t> firstRow;
    firstRow.reserve(out.rowNames.size());
    std::size_t repeats = 0, example = 0, exampleFirst = 0;
    for (std::size_t i = 0; i < out.rowNames.size(); ++i) {
        const auto [at, fresh] = firstRow.emplace(out.rowNames[i], i);
        if (fresh) continue;
        if (repeats++ == 0) example = i, exampleFirst = at->second;
    }
    if (repeats == 0) return;
    out.notes.push_back(where + ": " + std::to_string(repeats) + (repeats == 1 ? " row repeats a name" : " rows repeat a name") +
                        " of an earlier row (first: '" + excerpt(out.rowNames[example]) + "' on data rows " +
                        std::to_string(exampleFirst + 1) + " and " + std::to_string(example + 1) +
                        "); each row is kept, and listed under that name");
}

}  // namespace clusterdesk::data
