// NumPy .npy files (format versions 1.0, 2.0 and 3.0).
#pragma once

#include "dataset.h"
#include "load.h"

#include <string>
#include <string_view>

namespace clusterdesk::data {

// "\x93NUMPY" magic at the start of these bytes?
bool hasNpyMagic(std::string_view firstBytes);

// dtype '<f4' or '<f8' (converted to float32), C or Fortran order, shape (n,) -> n x 1
// or (n, d). The shape must account for exactly the bytes after the header. Errors are
// DataError at line 1, column = 1-based byte offset of the problem.
Dataset loadNpy(const std::string& path, const LoadOptions& options);

}  // namespace clusterdesk::data
