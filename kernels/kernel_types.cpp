#include "kernel_types.h"

#include "row_functors.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace clusterdesk::kernels {

void PartialSums::reset(int groupCount, int dimCount, Mode mode)
{
    groups = groupCount;
    dims = dimCount;
    const auto cells = static_cast<std::size_t>(groupCount) * static_cast<std::size_t>(dimCount);
    counts.assign(static_cast<std::size_t>(groupCount), 0);
    if (mode == Mode::Fast) {
        sums.assign(cells, 0.0);
        distSums.assign(static_cast<std::size_t>(groupCount), 0.0);
        fixedSums.clear();
        fixedDist.clear();
    } else {
        fixedSums.assign(cells, 0);
        fixedDist.assign(static_cast<std::size_t>(groupCount), 0);
        sums.clear();
        distSums.clear();
    }
}

void PartialSums::add(const PartialSums& other)
{
    struct Plus {
        std::int64_t operator()(std::int64_t a, std::int64_t b) const { return wrappingAdd(a, b); }
        double operator()(double a, double b) const { return a + b; }
    };
    auto addInto = [](auto& into, const auto& from) {
        for (std::size_t i = 0; i < from.size() && i < into.size(); ++i) into[i] = Plus{}(into[i], from[i]);
    };
    addInto(counts, other.counts);
    addInto(sums, other.sums);
    addInto(distSums, other.distSums);
    addInto(fixedSums, other.fixedSums);
    addInto(fixedDist, other.fixedDist);
}

std::vector<float> squaredNorms(std::span<const float> rows, std::int64_t cols, std::size_t padTo)
{
    const auto count = static_cast<std::int64_t>(rows.size()) / cols;
    std::vector<float> norms(std::max(padTo, static_cast<std::size_t>(count)), 0.f);
    for (std::int64_t i = 0; i < count; ++i) detail::RowNorm{rows.data(), cols, norms.data()}(i);
    return norms;
}

CentroidMotion measureMotion(const std::vector<float>& before, const std::vector<float>& after, std::int64_t cols)
{
    const auto d = static_cast<std::size_t>(cols);
    const std::size_t k = after.size() / d;
    auto distance = [d](const float* a, const float* b) {
        double s = 0;
        for (std::size_t j = 0; j < d; ++j) s += (static_cast<double>(a[j]) - b[j]) * (static_cast<double>(a[j]) - b[j]);
        return std::sqrt(s);
    };
    CentroidMotion motion;
    motion.shift.resize(k);
    motion.halfGap.assign(k, std::numeric_limits<float>::infinity());
    // Shifts rounded up: a bound that moves too little could skip a row that must be searched.
    const auto roundUp = [](double v) { return std::nextafter(static_cast<float>(v), std::numeric_limits<float>::infinity()); };
    for (std::size_t c = 0; c < k; ++c) {
        motion.shift[c] = roundUp(distance(&before[c * d], &after[c * d]));
        for (std::size_t o = c + 1; o < k; ++o) {
            // Rounded down: a half gap that is too wide could settle a row that must be searched.
            const auto half = std::nextafter(static_cast<float>(distance(&after[c * d], &after[o * d]) / 2), 0.f);
            motion.halfGap[c] = std::min(motion.halfGap[c], half);
            motion.halfGap[o] = std::min(motion.halfGap[o], half);
        }
    }
    // A row's second-nearest centroid is one of the others: its lower bound need only
    // drop by their largest move, which spares the rows of the centroid that moved most.
    motion.otherShift.assign(k, 0.f);
    std::size_t first = 0;
    for (std::size_t c = 1; c < k; ++c)
        if (motion.shift[c] > motion.shift[first]) first = c;
    float secondLargest = 0.f;
    for (std::size_t c = 0; c < k; ++c)
        if (c != first) secondLargest = std::max(secondLargest, motion.shift[c]);
    for (std::size_t c = 0; c < k; ++c) motion.otherShift[c] = c == first ? secondLargest : motion.shift[first];
    return motion;
}

std::string toString(Mode mode)
{
    return mode == Mode::Fast ? "fast" : "exact";
}

std::string toString(Precision precision)
{
    switch (precision) {
    case Precision::FP32: return "fp32";
    case Precision::TF32: return "tf32";
    case Precision::BF16: return "bf16";
    }
    return "fp32";
}

}  // namespace clusterdesk::kernels
