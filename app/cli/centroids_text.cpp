#include "centroids_text.h"

#include <cstdio>

namespace clusterdesk::cli {

std::string centroidsText(const std::vector<float>& centroids, int k, std::int64_t cols)
{
    std::string text;
    char cell[32];
    for (int c = 0; c < k; ++c) {
        for (std::int64_t j = 0; j < cols; ++j) {
            std::snprintf(cell, sizeof cell, "%.9g", static_cast<double>(centroids[static_cast<std::size_t>(c * cols + j)]));
            if (j > 0) text += ',';
            text += cell;
        }
        text += '\n';
    }
    return text;
}

}  // namespace clusterdesk::cli
