#include "dataset.h"

#include "engine/core/sha256.h"

#include <array>

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

std::string Dataset::contentHash() const
{
    // Shape as two little-endian int64 then the raw float bytes: the same numbers hash
    // the same whichever file format they came from. (All supported hosts are
    // little-endian, so the in-memory float bytes are the little-endian encoding.)
    std::array<unsigned char, 16> shape{};
    for (int b = 0; b < 8; ++b) {
        shape[b] = static_cast<unsigned char>(static_cast<std::uint64_t>(rows) >> (8 * b));
        shape[8 + b] = static_cast<unsigned char>(static_cast<std::uint64_t>(cols) >> (8 * b));
    }
    return Sha256().update(shape.data(), shape.size()).update(values.data(), values.size() * sizeof(float)).hex();
}

}  // namespace clusterdesk
