// A sector map attached to price data as its ground truth ("asset,sector" CSV with a
// header line), so a run on a real price file gets its ARI and NMI like a demo does.
#pragma once

#include "dataset.h"

#include <string>

namespace clusterdesk::data {

// Sets data.truth (sectors numbered in order of first appearance in the file) for
// every row by its name, and adds a note saying what was attached. DataError
// ("FILE:LINE:COLUMN: ...") for a line without exactly two fields, an empty asset or
// sector, an asset listed twice; and naming the asset for a row of the data that the
// file does not list, or for data without row names. Assets of the file the data does
// not hold are counted in the note, not an error (a sector map usually covers more).
void attachTruth(Dataset& data, const std::string& path);

}  // namespace clusterdesk::data
