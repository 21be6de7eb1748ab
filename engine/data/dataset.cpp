#include "dataset.h"

#include "engine/core/sha256.h"

#include <array>
#include <cmath>
#include <cstdio>

namespace clusterdesk {

std::string toString(Layout layout)
{
    switch (layout) {
        case Layout::Matrix: return "matrix";
        case Layout::Prices: return "prices";
        case Layout::Ticks: return "ticks";
    }
    return "unknown";
}

double maxFeatureMagnitude(std::int64_t cols)
{
    return std::sqrt(1e37 / (4.0 * static_cast<double>(cols)));
}

std::string tooLargeForDistances(std::int64_t cols)
{
    char bound[32];
    std::snprintf(bound, sizeof bound, "%.3g", maxFeatureMagnitude(cols));
    return std::string("values above ") + bound + " in " + std::to_string(cols) + " column" + (cols == 1 ? "" : "s") +
           " overflow float32 squared distances; rescale the data";
}

std::array<unsigned char, 16> contentHashPrefix(std::int64_t rows, std::int64_t cols)
{
    // Little-endian whatever the host (all supported hosts are little-endian, so the
    // in-memory float bytes that follow are the little-endian encoding too).
    std::array<unsigned char, 16> shape{};
    for (int b = 0; b < 8; ++b) {
        shape[b] = static_cast<unsigned char>(static_cast<std::uint64_t>(rows) >> (8 * b));
        shape[8 + b] = static_cast<unsigned char>(static_cast<std::uint64_t>(cols) >> (8 * b));
    }
    return shape;
}

std::string Dataset::contentHash() const
{
    // The shape, then the raw float bytes: the same numbers hash the same whichever file
    // format they came from.
    if (!knownHash.empty()) return knownHash;
    const std::array<unsigned char, 16> shape = contentHashPrefix(rows, cols);
    return Sha256().update(shape.data(), shape.size()).update(values.data(), values.size() * sizeof(float)).hex();
}

std::string Dataset::rowNamesHash() const
{
    if (rowNames.empty()) return {};
    Sha256 hash;
    for (const std::string& name : rowNames) {
        // Each name after its length, so that "AB","C" and "A","BC" differ.
        const std::uint64_t size = name.size();
        unsigned char length[8];
        for (int b = 0; b < 8; ++b) length[b] = static_cast<unsigned char>(size >> (8 * b));
        hash.update(length, sizeof length).update(name.data(), name.size());
    }
    return hash.hex();
}

}  // namespace clusterdesk
