// Centroids as the CLI writes them (--centroids-out, runs export): one centroid per line,
// comma-separated, 9 significant digits so every float32 reads back to the same bits,
// which is what lets the file serve again as --init-centroids.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace clusterdesk::cli {

std::string centroidsText(const std::vector<float>& centroids, int k, std::int64_t cols);

}  // namespace clusterdesk::cli
