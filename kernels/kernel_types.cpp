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
    // Four partial sums: one chain would wait on every add's latency, and at k = d = 512
    // the k^2 / 2 distances took longer than the assignment. Each distance is computed
    // the same way wherever it is, so every rank and thread count gets the same motion.
    auto distance = [d](const float* a, const float* b) {
        double part[4] = {0, 0, 0, 0};
        std::size_t j = 0;
        for (; j + 4 <= d; j += 4)
            for (std::size_t q = 0; q < 4; ++q) {
                const double t = static_cast<double>(a[j + q]) - b[j + q];
                part[q] += t * t;
            }
        for (; j < d; ++j) part[0] += (static_cast<double>(a[j]) - b[j]) * (static_cast<double>(a[j]) - b[j]);
        return std::sqrt((part[0] + part[1]) + (part[2] + part[3]));
    };
    CentroidMotion motion;
    motion.shift.resize(k);
    motion.halfGap.assign(k, std::numeric_limits<float>::infinity());
    // Shifts rounded up: a bound that moves too little could skip a row that must be searched.
    const auto roundUp = [](double v) { return std::nextafter(static_cast<float>(v), std::numeric_limits<float>::infinity()); };
    const auto count = static_cast<std::int64_t>(k);
    // Each centroid's half gap from all others (every pair twice, no shared writes):
    // the minimum of the same values in any order.
#pragma omp parallel for schedule(dynamic, 8)
    for (std::int64_t c = 0; c < count; ++c) {
        const auto i = static_cast<std::size_t>(c);
        motion.shift[i] = roundUp(distance(&before[i * d], &after[i * d]));
        float gap = std::numeric_limits<float>::infinity();
        for (std::size_t o = 0; o < k; ++o) {
            if (o == i) continue;
            // Rounded down: a half gap that is too wide could settle a row that must be searched.
            gap = std::min(gap, std::nextafter(static_cast<float>(distance(&after[i * d], &after[o * d]) / 2), 0.f));
        }
        motion.halfGap[i] = gap;
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
