// Row names as a file gave them: a name on two rows is kept (it is the file's) but said,
// since a membership or an export then lists two rows under one name. Shared by the
// sources that read names (a CSV's id column, an HDF5 file's row_names).
#pragma once

#include "dataset.h"

#include <string>

namespace clusterdesk::data {

// Adds a note to out.notes when a name repeats; `where` names the names in it ("id
// column", "hdf5 row_names").
void noteRepeatedRowNames(Dataset& out, const std::string& where);

}  // namespace clusterdesk::data
