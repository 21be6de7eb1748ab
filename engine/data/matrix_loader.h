// Delimited text holding a plain matrix: one point per line.
#pragma once

#include "dataset.h"
#include "load.h"

#include <string>

namespace clusterdesk::data {

// Header: the first row is a header when a cell other than the first is text, or when
// only its first cell is text and the next row starts with a number. Id column: the
// first column is row names when its data cells are text, or its header is empty or
// one of id/name/symbol/asset/ticker. A header column named label or truth (any case)
// holds integer ground truth. Every other cell must be a finite float32.
Dataset loadMatrixCsv(const std::string& path, const LoadOptions& options);

}  // namespace clusterdesk::data
